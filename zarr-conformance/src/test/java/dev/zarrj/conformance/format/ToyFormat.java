package dev.zarrj.conformance.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.format.TranslatedNode;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A correct test-only metadata format, "toy" (zarr_format 9): a node's v3 document without its
 * attributes is stored in {@code .toy.json} as {@code {"toy_format": 9, "node": {...}}}, its
 * attributes (when any) in {@code .toyattrs.json}, a group's consolidated metadata in
 * {@code .toymeta.json}. It refuses dimension names, as Zarr v2 does. The broken fixtures of the
 * kit's self-test derive from it.
 */
public class ToyFormat implements MetadataFormat {
    public static final String NODE = ".toy.json";
    public static final String ATTRS = ".toyattrs.json";
    public static final String META = ".toymeta.json";

    @Override
    public String name() {
        return "toy";
    }

    @Override
    public int zarrFormat() {
        return 9;
    }

    @Override
    public List<String> documentNames() {
        return List.of(NODE, ATTRS);
    }

    @Override
    public Optional<String> consolidatedDocumentName() {
        return Optional.of(META);
    }

    @Override
    public Optional<TranslatedNode> read(StoredDocuments node) {
        Optional<JsonNode> stored = node.get(NODE);
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        JsonNode n = stored.get();
        try {
            if (!n.isObject()) {
                throw new InvalidMetadataException("", "must be a JSON object, found " + n);
            }
            JsonNode version = n.get("toy_format");
            if (version == null || !version.isInt() || version.intValue() != 9) {
                throw new InvalidMetadataException("/toy_format", "must be 9, found " + version);
            }
            JsonNode doc = n.get("node");
            if (doc == null || !doc.isObject()) {
                throw new InvalidMetadataException("/node", "must be a JSON object, found " + doc);
            }
            JsonNode type = doc.get("node_type");
            if (type == null || !type.isTextual() || !List.of("array", "group").contains(type.textValue())) {
                throw new InvalidMetadataException("/node/node_type", "must be \"array\" or \"group\", found " + type);
            }
        } catch (InvalidMetadataException e) {
            throw e.inDocument(node.key(NODE));
        }
        ObjectNode out = ((ObjectNode) n.get("node")).deepCopy();
        Map<String, TranslatedNode.Origin> origins = new HashMap<>();
        origins.put("", new TranslatedNode.Origin(node.key(NODE), "/node"));
        Optional<JsonNode> attrs = node.get(ATTRS);
        if (attrs.isPresent()) {
            if (!attrs.get().isObject()) {
                throw new InvalidMetadataException("", "must be a JSON object, found " + attrs.get())
                        .inDocument(node.key(ATTRS));
            }
            out.set("attributes", attrs.get().deepCopy());
            origins.put("/attributes", new TranslatedNode.Origin(node.key(ATTRS), ""));
        }
        // Consolidated metadata are a cache: a malformed document is read past, as core reads past a malformed member.
        node.get(META).filter(JsonNode::isObject).ifPresent(m -> out.set("consolidated_metadata", m.deepCopy()));
        return Optional.of(new TranslatedNode(out, origins, false));
    }

    @Override
    public Map<String, JsonNode> write(ObjectNode document, StoredDocuments previous) {
        if (document.has("dimension_names")) {
            throw new UnsupportedFormatException("/dimension_names", "the toy format has no dimension names");
        }
        ObjectNode node = document.deepCopy();
        JsonNode attrs = node.remove("attributes");
        JsonNode meta = node.remove("consolidated_metadata");
        Map<String, JsonNode> out = new LinkedHashMap<>();
        ObjectNode stored = JsonNodeFactory.instance.objectNode().put("toy_format", 9);
        stored.set("node", node);
        out.put(NODE, stored);
        if (attrs != null && !attrs.isEmpty()) {
            out.put(ATTRS, attrs.deepCopy());
        }
        if (meta != null) {
            out.put(META, meta.deepCopy());
        }
        return out;
    }
}
