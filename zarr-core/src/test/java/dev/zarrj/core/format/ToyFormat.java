package dev.zarrj.core.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.format.TranslatedNode;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A metadata format for core's tests, as a third party could write one: a node's v3 document
 * without its attributes in {@code toy.node}, the attributes in {@code toy.attrs}, consolidated
 * metadata in {@code toy.all}; {@code "toy_no_fill": true} in {@code toy.node} means the format
 * defines no fill value.
 */
public final class ToyFormat implements MetadataFormat {
    static final String NODE = "toy.node";
    static final String ATTRS = "toy.attrs";
    static final String ALL = "toy.all";
    private static final String NO_FILL = "toy_no_fill";

    @Override
    public String name() {
        return "toy";
    }

    @Override
    public int zarrFormat() {
        return 1;
    }

    @Override
    public List<String> documentNames() {
        return List.of(NODE, ATTRS);
    }

    @Override
    public Optional<String> consolidatedDocumentName() {
        return Optional.of(ALL);
    }

    @Override
    public Optional<TranslatedNode> read(StoredDocuments node) {
        Optional<JsonNode> n = node.get(NODE);
        if (n.isEmpty()) {
            return Optional.empty();
        }
        if (!(n.get() instanceof ObjectNode o)) {
            throw new InvalidMetadataException("", "must be an object").inDocument(node.key(NODE));
        }
        ObjectNode doc = o.deepCopy();
        boolean noFill = doc.path(NO_FILL).asBoolean(false);
        doc.remove(NO_FILL);
        node.get(ATTRS).ifPresent(a -> doc.set("attributes", a));
        node.get(ALL).ifPresent(all -> {
            ObjectNode member = doc.putObject("consolidated_metadata");
            member.put("kind", "inline").put("must_understand", false);
            member.set("metadata", all.get("nodes"));
        });
        return Optional.of(new TranslatedNode(doc, Map.of("/codecs", new TranslatedNode.Origin(node.key(NODE), "/codecs")),
                noFill));
    }

    @Override
    public Map<String, JsonNode> write(ObjectNode document, StoredDocuments previous) {
        ObjectNode doc = document.deepCopy();
        Map<String, JsonNode> out = new HashMap<>();
        JsonNode attrs = doc.remove("attributes");
        if (attrs != null) {
            out.put(ATTRS, attrs);
        }
        JsonNode member = doc.remove("consolidated_metadata");
        if (member != null) {
            out.put(ALL, JsonNodeFactory.instance.objectNode().set("nodes", member.get("metadata")));
        }
        if (previous.get(NODE).map(p -> p.path(NO_FILL).asBoolean(false)).orElse(false)) {
            doc.put(NO_FILL, true);
        }
        out.put(NODE, doc);
        return out;
    }

    /** The member names of a JSON object, for assertions. */
    static List<String> names(JsonNode o) {
        List<String> out = new java.util.ArrayList<>();
        for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }
}
