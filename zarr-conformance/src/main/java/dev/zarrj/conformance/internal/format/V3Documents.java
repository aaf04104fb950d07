package dev.zarrj.conformance.internal.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * When two Zarr v3 documents say the same: the forms core.rst lets a writer choose between count
 * as one, so that a metadata format is not failed for writing back an equivalent spelling.
 *
 * <p>Equivalent: an absent {@code attributes} and {@code {}}; an absent {@code storage_transformers}
 * and {@code []}; an absent {@code dimension_names} and one of nulls only; an extension given as
 * its name and as {@code {"name": ...}}; an absent {@code configuration} and {@code {}}; the
 * {@code endian} of a {@code bytes} codec on a one-byte data type ({@code bool}, {@code int8},
 * {@code uint8}, {@code r8}) and none; numbers of equal value ({@code 1} and {@code 1.0}, but not
 * {@code 0.0} and {@code -0.0}). Entries of {@code consolidated_metadata} are compared the same way.
 */
public final class V3Documents {
    private static final Set<String> ONE_BYTE = Set.of("bool", "int8", "uint8", "r8");
    private static final Set<String> EXTENSIONS = Set.of("data_type", "chunk_grid", "chunk_key_encoding");

    private V3Documents() {}

    /** The document with every optional form replaced by the one this class prefers; a copy. */
    public static JsonNode canonical(JsonNode document) {
        if (!document.isObject()) {
            return document.deepCopy();
        }
        ObjectNode doc = ((ObjectNode) document).deepCopy();
        JsonNode attrs = doc.get("attributes");
        if (attrs != null && attrs.isObject() && attrs.isEmpty()) {
            doc.remove("attributes");
        }
        for (String member : EXTENSIONS) {
            if (doc.has(member)) {
                doc.set(member, entry(doc.get(member)));
            }
        }
        JsonNode transformers = doc.get("storage_transformers");
        if (transformers != null && transformers.isArray()) {
            if (transformers.isEmpty()) {
                doc.remove("storage_transformers");
            } else {
                doc.set("storage_transformers", entries((ArrayNode) transformers));
            }
        }
        JsonNode names = doc.get("dimension_names");
        if (names != null && names.isArray()) {
            boolean allNull = true;
            for (JsonNode n : names) {
                allNull &= n.isNull();
            }
            if (allNull) {
                doc.remove("dimension_names");
            }
        }
        JsonNode codecs = doc.get("codecs");
        if (codecs != null && codecs.isArray()) {
            ArrayNode c = entries((ArrayNode) codecs);
            String type = doc.path("data_type").path("name").asText("");
            for (JsonNode codec : c) {
                if (codec.isObject() && ONE_BYTE.contains(type) && "bytes".equals(codec.path("name").asText())
                        && codec.path("configuration").isObject()) {
                    ObjectNode config = (ObjectNode) codec.get("configuration");
                    config.remove("endian");
                    if (config.isEmpty()) {
                        ((ObjectNode) codec).remove("configuration");
                    }
                }
            }
            doc.set("codecs", c);
        }
        JsonNode consolidated = doc.get("consolidated_metadata");
        if (consolidated != null && consolidated.path("metadata").isObject()) {
            ObjectNode entries = (ObjectNode) consolidated.get("metadata");
            for (Iterator<Map.Entry<String, JsonNode>> it = entries.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                e.setValue(canonical(e.getValue()));
            }
        }
        return doc;
    }

    private static ArrayNode entries(ArrayNode list) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        list.forEach(e -> out.add(entry(e)));
        return out;
    }

    private static JsonNode entry(JsonNode e) {
        if (e.isTextual()) {
            return JsonNodeFactory.instance.objectNode().put("name", e.textValue());
        }
        if (!e.isObject()) {
            return e.deepCopy();
        }
        ObjectNode o = ((ObjectNode) e).deepCopy();
        JsonNode config = o.get("configuration");
        if (config != null && config.isObject() && config.isEmpty()) {
            o.remove("configuration");
        }
        return o;
    }

    /**
     * Where two documents differ after {@link #canonical}: {@code "at /attributes/units: missing"},
     * or null when they are equivalent.
     */
    public static String difference(JsonNode expected, JsonNode actual) {
        return diff(canonical(expected), canonical(actual), "");
    }

    /**
     * Where two JSON values differ as they are (numbers by value), or null when they are equal:
     * for a format's own stored documents.
     */
    public static String exactDifference(JsonNode expected, JsonNode actual) {
        return diff(expected, actual, "");
    }

    private static String diff(JsonNode a, JsonNode b, String at) {
        String where = at.isEmpty() ? "at the top" : "at " + at;
        if (a.isNumber() && b.isNumber()) {
            return sameNumber(a, b) ? null : where + ": " + b + " instead of " + a;
        }
        if (a.isObject() && b.isObject()) {
            Set<String> names = new TreeSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String n : names) {
                String p = at + "/" + n.replace("~", "~0").replace("/", "~1");
                if (!a.has(n)) {
                    return "at " + p + ": " + abbreviate(b.get(n)) + " that was not there";
                }
                if (!b.has(n)) {
                    return "at " + p + ": missing, expected " + abbreviate(a.get(n));
                }
                String d = diff(a.get(n), b.get(n), p);
                if (d != null) {
                    return d;
                }
            }
            return null;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return where + ": " + abbreviate(b) + " instead of " + abbreviate(a);
            }
            for (int i = 0; i < a.size(); i++) {
                String d = diff(a.get(i), b.get(i), at + "/" + i);
                if (d != null) {
                    return d;
                }
            }
            return null;
        }
        return a.equals(b) ? null : where + ": " + abbreviate(b) + " instead of " + abbreviate(a);
    }

    private static boolean sameNumber(JsonNode a, JsonNode b) {
        if (a.doubleValue() == 0 && b.doubleValue() == 0) {
            return Double.compare(a.doubleValue(), b.doubleValue()) == 0; // an integer 0 is +0.0
        }
        return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }

    /** A JSON value cut to 200 characters, for messages. */
    public static String abbreviate(JsonNode n) {
        String s = String.valueOf(n);
        return s.length() <= 200 ? s : s.substring(0, 197) + "...";
    }
}
