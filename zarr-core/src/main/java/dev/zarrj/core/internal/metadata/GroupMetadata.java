package dev.zarrj.core.internal.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A parsed group {@code zarr.json}; holds the source document, which is what gets written back.
 *
 * @param document the document
 * @param skipped  members skipped because of {@code "must_understand": false}
 */
public record GroupMetadata(ObjectNode document, List<String> skipped) {
    /**
     * Members zarr-python writes that zarrj reads past: {@code consolidated_metadata} (which
     * zarr-python up to 3.1.3 also wrote as {@code null}, without {@code must_understand}).
     */
    private static final List<String> TOLERATED = List.of("consolidated_metadata");

    /** A new group's document. */
    public static GroupMetadata create(ObjectNode attributes) {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.put("zarr_format", 3);
        doc.put("node_type", "group");
        if (attributes != null && !attributes.isEmpty()) {
            doc.set("attributes", attributes.deepCopy());
        }
        return new GroupMetadata(doc, List.of());
    }

    /** Parses a group document (its {@code zarr_format} and {@code node_type} already checked). */
    public static GroupMetadata parse(ObjectNode doc) {
        List<String> skipped = new ArrayList<>();
        for (Iterator<String> it = doc.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (f.equals("zarr_format") || f.equals("node_type") || f.equals("attributes")) {
                continue;
            }
            if (TOLERATED.contains(f)) {
                // Whatever its value: ConsolidatedMetadata decides whether it can be used.
                dev.zarrj.core.internal.hierarchy.ConsolidatedMetadata.checkUnderstood(doc, "");
                continue;
            }
            ArrayMetadata.checkUnknownMember(doc, f, "group");
            skipped.add(f);
        }
        JsonNode attrs = doc.get("attributes");
        if (attrs != null && !attrs.isObject()) {
            throw new InvalidMetadataException("/attributes", "must be a JSON object, found " + attrs);
        }
        return new GroupMetadata(doc.deepCopy(), List.copyOf(skipped));
    }

    /** The attributes (a copy). */
    public ObjectNode attributes() {
        JsonNode a = document.get("attributes");
        return a instanceof ObjectNode o ? o.deepCopy() : JsonNodeFactory.instance.objectNode();
    }

    /** The same group with another document member {@code name} (removed when {@code value} is null). */
    public GroupMetadata withMember(String name, JsonNode value) {
        ObjectNode doc = document.deepCopy();
        if (value == null) {
            doc.remove(name);
        } else {
            doc.set(name, value.deepCopy());
        }
        return new GroupMetadata(doc, skipped);
    }

    /** The same group with other attributes. */
    public GroupMetadata withAttributes(ObjectNode attributes) {
        ObjectNode doc = document.deepCopy();
        doc.set("attributes", attributes.deepCopy());
        return new GroupMetadata(doc, skipped);
    }
}
