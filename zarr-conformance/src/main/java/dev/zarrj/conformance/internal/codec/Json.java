package dev.zarrj.conformance.internal.codec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Comparator;

/** JSON comparisons that, like the spec, see {@code 1} and {@code 1.0} written as one number. */
public final class Json {
    private static final Comparator<JsonNode> NUMBERS = (a, b) -> {
        if (a.equals(b)) {
            return 0;
        }
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        return 1;
    };

    private Json() {}

    /** Equal JSON values, numbers compared by value. */
    public static boolean same(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.equals(NUMBERS, b);
    }
}
