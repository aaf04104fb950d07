package dev.zarrj.codec.registry.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** Example configurations written as JSON text. */
final class Json {
    private Json() {}

    private static final ObjectMapper MAPPER = new ObjectMapper();

    static List<ObjectNode> objects(String... texts) {
        List<ObjectNode> out = new ArrayList<>();
        for (String t : texts) {
            try {
                out.add((ObjectNode) MAPPER.readTree(t));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(t, e);
            }
        }
        return List.copyOf(out);
    }
}
