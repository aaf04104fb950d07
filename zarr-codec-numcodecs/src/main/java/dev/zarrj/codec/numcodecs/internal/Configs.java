package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import java.io.UncheckedIOException;
import java.util.List;

/** Reading the numcodecs configuration fields that several codecs share. */
final class Configs {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Configs() {}

    /** An optional numpy type field; null when absent. */
    static DType dtype(ExtensionConfig config, String field) {
        if (!config.has(field)) {
            return null;
        }
        String s = config.stringField(field);
        return new DType(NumpyType.parse(s, config.pointer(field), config.name(), field), s);
    }

    /** A required JSON number field. */
    static JsonNode number(ExtensionConfig config, String field) {
        JsonNode n = config.nodeField(field);
        if (!n.isNumber() || n.isFloatingPointNumber() && !Double.isFinite(n.doubleValue())) {
            throw config.error(field, "'" + field + "' must be a finite number, found " + n);
        }
        return n;
    }

    /** Example configurations from JSON texts (constants of this module, so always valid). */
    static List<ObjectNode> examples(String... json) {
        return java.util.Arrays.stream(json).map(s -> {
            try {
                return (ObjectNode) JSON.readTree(s);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }
}
