package dev.zarrj.conformance.selftest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.format.TranslatedNode;
import dev.zarrj.conformance.MetadataFormatContract;
import dev.zarrj.conformance.format.ToyFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Deliberately broken metadata formats, each the correct test-only {@link ToyFormat} with one
 * defect that breaks one rule of {@link MetadataFormatContract} and no other; run through the
 * contract by {@link KitSelfTest}. Not run by Surefire directly.
 */
public final class BrokenFormats {
    private BrokenFormats() {}

    /** The contract over one fixture format. */
    abstract static class FormatFixture extends MetadataFormatContract {
        abstract MetadataFormat make();

        @Override
        protected MetadataFormat format() {
            return make();
        }
    }

    /** MF01: the attributes are not written, so they are lost on the round trip. */
    public static class AttributesLost extends FormatFixture {
        @Override
        MetadataFormat make() {
            return new ToyFormat() {
                @Override
                public Map<String, JsonNode> write(ObjectNode document, StoredDocuments previous) {
                    Map<String, JsonNode> out = new LinkedHashMap<>(super.write(document, previous));
                    out.remove(ATTRS);
                    return out;
                }
            };
        }
    }

    /** MF01: every array refused as inexpressible, so the format stores groups only. */
    public static class RefusesEveryArray extends FormatFixture {
        @Override
        MetadataFormat make() {
            return new ToyFormat() {
                @Override
                public Map<String, JsonNode> write(ObjectNode document, StoredDocuments previous) {
                    if (document.path("node_type").asText().equals("array")) {
                        throw new UnsupportedFormatException("/node_type", "this format stores no arrays");
                    }
                    return super.write(document, previous);
                }
            };
        }
    }

    /** MF02: every write counts up a revision, so rewriting an unchanged node changes it. */
    public static class RevisionCounter extends FormatFixture {
        @Override
        MetadataFormat make() {
            return new ToyFormat() {
                @Override
                public Map<String, JsonNode> write(ObjectNode document, StoredDocuments previous) {
                    Map<String, JsonNode> out = new LinkedHashMap<>(super.write(document, previous));
                    int revision = previous.get(NODE).map(n -> n.path("revision").asInt()).orElse(0) + 1;
                    ((ObjectNode) out.get(NODE)).put("revision", revision);
                    return out;
                }
            };
        }
    }

    /** MF03: an empty group is made up where nothing is stored. */
    public static class NothingIsAnImplicitGroup extends FormatFixture {
        @Override
        MetadataFormat make() {
            return new ToyFormat() {
                @Override
                public Optional<TranslatedNode> read(StoredDocuments node) {
                    if (node.documents().isEmpty()) {
                        ObjectNode g = JsonNodeFactory.instance.objectNode().put("zarr_format", 3).put("node_type", "group");
                        return Optional.of(new TranslatedNode(g, Map.of(), false));
                    }
                    return super.read(node);
                }
            };
        }
    }

    /** MF04: a stored document that is not an object is an IllegalStateException. */
    public static class GarbageThrowsIllegalState extends FormatFixture {
        @Override
        MetadataFormat make() {
            return new ToyFormat() {
                @Override
                public Optional<TranslatedNode> read(StoredDocuments node) {
                    node.get(NODE).filter(n -> !n.isObject()).ifPresent(n -> {
                        throw new IllegalStateException("not an object: " + n);
                    });
                    return super.read(node);
                }
            };
        }
    }

    /** MF04: malformed documents are refused without saying which. */
    public static class GarbageMessageWithoutKey extends FormatFixture {
        @Override
        MetadataFormat make() {
            return new ToyFormat() {
                @Override
                public Optional<TranslatedNode> read(StoredDocuments node) {
                    try {
                        return super.read(node);
                    } catch (InvalidMetadataException e) {
                        throw new InvalidMetadataException(e.pointer(), "malformed metadata");
                    }
                }
            };
        }
    }

    /** MF05: a document name listed twice. */
    public static class DocumentNameTwice extends FormatFixture {
        @Override
        MetadataFormat make() {
            return new ToyFormat() {
                @Override
                public List<String> documentNames() {
                    return List.of(NODE, ATTRS, NODE);
                }
            };
        }
    }

    /** MF06: claims Zarr v3, which core provides. */
    public static class ClaimsZarrFormat3 extends FormatFixture {
        @Override
        MetadataFormat make() {
            return new ToyFormat() {
                @Override
                public int zarrFormat() {
                    return 3;
                }
            };
        }
    }

    /**
     * MF07: integer fill values read as floating-point numbers ({@code 0.0}): equal in value, so
     * the round trip holds, but core refuses a fraction for an integer type.
     */
    public static class IntegerFillValueAsFloat extends FormatFixture {
        @Override
        MetadataFormat make() {
            return new ToyFormat() {
                @Override
                public Optional<TranslatedNode> read(StoredDocuments node) {
                    return super.read(node).map(n -> {
                        ObjectNode doc = n.document();
                        JsonNode fill = doc.get("fill_value");
                        if (fill != null && fill.isInt()) {
                            doc.set("fill_value", DoubleNode.valueOf(fill.intValue()));
                        }
                        return n;
                    });
                }
            };
        }
    }

    /** MF07: an origin recorded for a member the translated document does not have. */
    public static class OriginOutsideDocument extends FormatFixture {
        @Override
        MetadataFormat make() {
            return new ToyFormat() {
                @Override
                public Optional<TranslatedNode> read(StoredDocuments node) {
                    return super.read(node).map(n -> {
                        Map<String, TranslatedNode.Origin> origins = new LinkedHashMap<>(n.origins());
                        origins.put("/compressor", new TranslatedNode.Origin(node.key(NODE), "/compressor"));
                        return new TranslatedNode(n.document(), origins, n.storesEveryChunk());
                    });
                }
            };
        }
    }

    /** MF07: origins name the document ({@code .toy.json}) instead of its key ({@code kit/node/.toy.json}). */
    public static class OriginNamesDocumentNotKey extends FormatFixture {
        @Override
        MetadataFormat make() {
            return new ToyFormat() {
                @Override
                public Optional<TranslatedNode> read(StoredDocuments node) {
                    return super.read(node).map(n -> new TranslatedNode(n.document(),
                            Map.of("", new TranslatedNode.Origin(NODE, "/node")), n.storesEveryChunk()));
                }
            };
        }
    }
}
