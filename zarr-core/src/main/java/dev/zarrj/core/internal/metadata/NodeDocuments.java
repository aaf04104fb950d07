package dev.zarrj.core.internal.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.UnsupportedFormatException;
import java.nio.ByteBuffer;

/** Reads a {@code zarr.json} and decides whether it describes an array or a group. */
public final class NodeDocuments {
    private NodeDocuments() {}

    /** A parsed node: exactly one of the two is non-null. */
    public record Node(ArrayMetadata array, GroupMetadata group) {}

    /**
     * Parses the document stored under {@code key}.
     *
     * @throws InvalidMetadataException naming the key and JSON pointer of what is wrong
     */
    public static Node parse(ByteBuffer bytes, String key, ExtensionResolver resolver) {
        JsonNode n;
        try {
            n = Json.parse(bytes, key);
        } catch (InvalidMetadataException e) {
            throw e.inDocument(key);
        }
        return parse(n, key, resolver);
    }

    /**
     * Parses a document already read as JSON (an entry of consolidated metadata, say), kept
     * as it is: the result holds copies.
     *
     * @param key what names the document in messages
     */
    public static Node parse(JsonNode n, String key, ExtensionResolver resolver) {
        try {
            if (!n.isObject()) {
                throw new InvalidMetadataException("", "a metadata document must be a JSON object, found " + abbreviate(n));
            }
            ObjectNode doc = (ObjectNode) n;
            checkFormat(doc);
            JsonNode type = doc.get("node_type");
            if (type == null) {
                throw new InvalidMetadataException("/node_type", "required member 'node_type' is missing; "
                        + "expected \"array\" or \"group\"");
            }
            if (!type.isTextual() || !(type.textValue().equals("array") || type.textValue().equals("group"))) {
                throw new InvalidMetadataException("/node_type", "node_type must be \"array\" or \"group\", found " + type);
            }
            return type.textValue().equals("array")
                    ? new Node(ArrayMetadata.parse(doc, resolver), null)
                    : new Node(null, GroupMetadata.parse(doc));
        } catch (InvalidMetadataException e) {
            throw e.inDocument(key);
        }
    }

    /**
     * Parses a node read from a store in any format: its v3 document, with an error in a
     * translated part said of the stored field it came from.
     */
    public static Node parse(dev.zarrj.core.internal.format.StoredNode stored, ExtensionResolver resolver) {
        java.util.Map<String, dev.zarrj.api.format.TranslatedNode.Origin> origins = stored.translated().origins();
        if (origins.isEmpty()) {
            return parse(stored.translated().document(), stored.key(), resolver);
        }
        try {
            return parse(stored.translated().document(), stored.key(), resolver);
        } catch (InvalidMetadataException e) {
            InvalidMetadataException cause = e.getCause() instanceof InvalidMetadataException c ? c : e;
            String pointer = cause.pointer();
            dev.zarrj.api.format.TranslatedNode.Origin best = null;
            int bestLength = -1;
            for (var o : origins.entrySet()) {
                String k = o.getKey();
                boolean covers = pointer.equals(k) || pointer.startsWith(k.endsWith("/") ? k : k + "/") || k.isEmpty();
                if (covers && k.length() > bestLength) {
                    best = o.getValue();
                    bestLength = k.length();
                }
            }
            if (best == null) {
                throw e;
            }
            throw cause.at(best.key(), best.pointer());
        }
    }

    private static void checkFormat(ObjectNode doc) {
        JsonNode f = doc.get("zarr_format");
        if (f == null) {
            if (doc.has("zarr_format") || doc.has("dtype") || doc.has("chunks")) {
                throw new UnsupportedFormatException("/zarr_format", "this looks like Zarr v2 metadata in a zarr.json; Zarr v2 keeps"
                        + " it in .zarray/.zgroup (which zarr-format-v2 reads)");
            }
            throw new InvalidMetadataException("/zarr_format", "required member 'zarr_format' is missing; expected 3");
        }
        // canConvertToInt first: intValue() keeps the low 32 bits, and 2^32 + 3 is not 3.
        boolean integer = f.isIntegralNumber() && f.canConvertToInt();
        if (integer && f.intValue() == 2) {
            throw new UnsupportedFormatException("/zarr_format", "zarr_format is 2 in a zarr.json, which holds Zarr v3 metadata only;"
                    + " Zarr v2 keeps its metadata in .zarray/.zgroup (which zarr-format-v2 reads)");
        }
        if (!integer || f.intValue() != 3) {
            throw new UnsupportedFormatException("/zarr_format", "zarr_format must be 3, found " + f);
        }
    }

    private static String abbreviate(JsonNode n) {
        String s = n.toString();
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
