package dev.zarrj.conformance.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** Configurations written as JSON text. */
final class Configs {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Configs() {}

    static List<ObjectNode> of(String... json) {
        List<ObjectNode> out = new ArrayList<>();
        for (String j : json) {
            try {
                out.add((ObjectNode) JSON.readTree(j));
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(j, e);
            }
        }
        return out;
    }
}
