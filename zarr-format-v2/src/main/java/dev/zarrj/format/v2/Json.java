package dev.zarrj.format.v2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Small JSON helpers. */
final class Json {
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** Scalars compare by value, so that {@code 5} and {@code 5.0} or an int and a long node are equal. */
    static final Comparator<JsonNode> BY_VALUE = (a, b) -> {
        if (a.equals(b)) {
            return 0;
        }
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0 ? 0 : 1;
        }
        return 1;
    };

    private Json() {}

    /** The value for a message, cut at 80 characters. */
    static String abbreviate(JsonNode n) {
        String s = n == null ? "nothing" : n.toString();
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    static boolean sameValue(JsonNode a, JsonNode b) {
        return a == null ? b == null : b != null && a.equals(BY_VALUE, b);
    }

    /** A copy with the members in alphabetical order, as zarr-python 2 writes them ({@code sort_keys}). */
    static ObjectNode sorted(ObjectNode o) {
        List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(o.properties());
        fields.sort(Map.Entry.comparingByKey());
        ObjectNode out = F.objectNode();
        for (Map.Entry<String, JsonNode> e : fields) {
            out.set(e.getKey(), e.getValue());
        }
        return out;
    }

    /**
     * A copy with integers in the node type a parser gives them (int, else long, else big), so
     * that written documents equal the same documents parsed.
     */
    static JsonNode canonical(JsonNode n) {
        if (n.isIntegralNumber()) {
            return n.canConvertToInt() ? F.numberNode(n.intValue())
                    : n.canConvertToLong() ? F.numberNode(n.longValue()) : F.numberNode(n.bigIntegerValue());
        }
        if (n.isObject()) {
            ObjectNode o = F.objectNode();
            n.properties().forEach(e -> o.set(e.getKey(), canonical(e.getValue())));
            return o;
        }
        if (n.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode a = F.arrayNode();
            n.forEach(x -> a.add(canonical(x)));
            return a;
        }
        return n.deepCopy();
    }

    /** A codec's or extension's name: the string itself or the object's {@code name}. */
    static String name(JsonNode ext) {
        return ext.isTextual() ? ext.textValue() : ext.path("name").asText("");
    }

    /** An extension's configuration, empty when it has none. */
    static ObjectNode configuration(JsonNode ext) {
        JsonNode c = ext.path("configuration");
        return c.isObject() ? (ObjectNode) c : F.objectNode();
    }
}
