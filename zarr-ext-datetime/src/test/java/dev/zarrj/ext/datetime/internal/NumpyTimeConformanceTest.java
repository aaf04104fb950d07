package dev.zarrj.ext.datetime.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.conformance.DataTypeContract;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;

/**
 * Both types, with every unit, against the kit's data type contract: they are {@code INT} of 8
 * bytes, so the kit's int64 forms apply, plus {@code "NaT"}.
 */
class NumpyTimeConformanceTest {
    static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    abstract static class Time extends DataTypeContract {
        @Override
        protected List<JsonNode> validFillValues(DataType type) {
            List<JsonNode> out = new ArrayList<>(super.validFillValues(type));
            out.add(json("\"NaT\""));
            return out;
        }

        @Override
        protected List<JsonNode> invalidFillValues(DataType type) {
            List<JsonNode> out = new ArrayList<>(super.invalidFillValues(type));
            for (String s : List.of("\"nat\"", "\"NaN\"", "\" NaT\"", "\"1970-01-01\"", "{}")) {
                out.add(json(s));
            }
            return out;
        }

        @Override
        protected List<FillValueExample> fillValueExamples(DataType type) {
            List<FillValueExample> out = new ArrayList<>(super.fillValueExamples(type));
            byte[] nat = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(Long.MIN_VALUE).array();
            out.add(new FillValueExample(json("\"NaT\""), nat));
            out.add(new FillValueExample(json("-9223372036854775808"), nat));
            return out;
        }
    }

    @Nested
    class DateTime64 extends Time {
        @Override
        protected DataTypeProvider provider() {
            return new DateTime64Provider();
        }
    }

    @Nested
    class TimeDelta64 extends Time {
        @Override
        protected DataTypeProvider provider() {
            return new TimeDelta64Provider();
        }
    }
}
