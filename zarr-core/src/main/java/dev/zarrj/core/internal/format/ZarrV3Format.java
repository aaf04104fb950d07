package dev.zarrj.core.internal.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.format.TranslatedNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Zarr v3 as a {@link MetadataFormat}: one {@code zarr.json} per node, which is its own
 * translation. Core's, never registered, so that every node is read and written the same way.
 */
public final class ZarrV3Format implements MetadataFormat {
    /** The one instance. */
    public static final ZarrV3Format INSTANCE = new ZarrV3Format();
    /** The name of a node's document. */
    public static final String DOCUMENT = "zarr.json";

    private ZarrV3Format() {}

    @Override
    public String name() {
        return "v3";
    }

    @Override
    public int zarrFormat() {
        return 3;
    }

    @Override
    public List<String> documentNames() {
        return List.of(DOCUMENT);
    }

    @Override
    public Optional<TranslatedNode> read(StoredDocuments node) {
        Optional<JsonNode> doc = node.get(DOCUMENT);
        if (doc.isEmpty()) {
            return Optional.empty();
        }
        if (!(doc.get() instanceof ObjectNode o)) {
            String s = doc.get().toString();
            throw new InvalidMetadataException("", "a metadata document must be a JSON object, found "
                    + (s.length() > 60 ? s.substring(0, 60) + "..." : s)).inDocument(node.key(DOCUMENT));
        }
        return Optional.of(new TranslatedNode(o.deepCopy(), Map.of(), false));
    }

    @Override
    public Map<String, JsonNode> write(ObjectNode document, StoredDocuments previous) {
        return Map.of(DOCUMENT, document);
    }
}
