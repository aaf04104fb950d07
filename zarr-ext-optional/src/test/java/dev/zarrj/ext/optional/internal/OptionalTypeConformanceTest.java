package dev.zarrj.ext.optional.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.conformance.DataTypeContract;
import dev.zarrj.ext.optional.OptionalType;
import java.util.ArrayList;
import java.util.List;

/**
 * The optional types of the provider's examples (core types of every kind, nested twice) against
 * the kit's data type contract. Their kind is {@code OTHER}, so the fill-value forms come from
 * here: {@code null}, and {@code [v]} for each of the inner type's own forms (the kit's, for a core
 * inner type), recursively.
 */
class OptionalTypeConformanceTest extends DataTypeContract {
    private static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    @Override
    protected DataTypeProvider provider() {
        return new OptionalTypeProvider();
    }

    /** The kit's examples of the inner type, each wrapped as {@code [v]} with its bytes and a 1 after. */
    @Override
    protected List<FillValueExample> fillValueExamples(DataType type) {
        OptionalType t = (OptionalType) type;
        List<FillValueExample> out = new ArrayList<>();
        out.add(new FillValueExample(json("null"), new byte[t.size()]));
        for (FillValueExample inner : innerExamples(t.inner())) {
            byte[] b = java.util.Arrays.copyOf(inner.nativeBytes(), t.size());
            b[t.size() - 1] = 1;
            out.add(new FillValueExample(JSON.createArrayNode().add(inner.json()), b));
        }
        return out;
    }

    private List<FillValueExample> innerExamples(DataType inner) {
        return inner instanceof OptionalType ? fillValueExamples(inner) : super.fillValueExamples(inner);
    }

    /** Bare values (zarrs wraps them), arrays of the wrong length, and each invalid inner form wrapped. */
    @Override
    protected List<JsonNode> invalidFillValues(DataType type) {
        OptionalType t = (OptionalType) type;
        List<JsonNode> out = new ArrayList<>();
        for (String s : List.of("0", "true", "\"NaN\"", "[]", "[null, null]", "{}", "\"null\"")) {
            out.add(json(s));
        }
        List<JsonNode> inner = t.inner() instanceof OptionalType ? invalidFillValues(t.inner())
                : super.invalidFillValues(t.inner());
        for (JsonNode i : inner) {
            out.add(JSON.createArrayNode().add(i));
        }
        if (!(t.inner() instanceof OptionalType)) {
            out.add(json("[null]"));
        }
        return out;
    }
}
