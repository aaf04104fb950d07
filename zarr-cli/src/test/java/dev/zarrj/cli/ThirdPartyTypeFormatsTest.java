package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import org.junit.jupiter.api.Test;

/**
 * A data type the CLI has never heard of (kind OTHER, no number encoding) prints and reads through
 * its own fill-value JSON, element by element: here a nullable int8 shaped like zarrs' optional
 * (value byte, then a mask byte), whose missing elements are JSON null.
 */
class ThirdPartyTypeFormatsTest {
    /** {@code test.maybe_int8}: one value byte and one mask byte (1 = present); JSON null when missing. */
    static final class MaybeInt8 implements DataType {
        @Override
        public String name() {
            return "test.maybe_int8";
        }

        @Override
        public ObjectNode configuration() {
            return JsonNodeFactory.instance.objectNode();
        }

        @Override
        public int size() {
            return 2;
        }

        @Override
        public int byteOrderUnit() {
            return 1;
        }

        @Override
        public ElementKind kind() {
            return ElementKind.OTHER;
        }

        @Override
        public FillValue parseFillValue(JsonNode json, String pointer) {
            if (json.isNull()) {
                return FillValue.ofBytes(new byte[2]);
            }
            if (!json.isInt() || json.intValue() < -128 || json.intValue() > 127) {
                throw new InvalidMetadataException(pointer, "a maybe_int8 value is null or an integer in [-128, 127], found " + json);
            }
            return FillValue.ofBytes(new byte[] {(byte) json.intValue(), 1});
        }

        @Override
        public JsonNode fillValueToJson(FillValue value) {
            byte[] b = value.bytes();
            if (b[1] > 1 || b[1] < 0) {
                throw new IllegalArgumentException("mask byte " + b[1] + " is neither 0 nor 1");
            }
            return b[1] == 0 ? NullNode.getInstance() : IntNode.valueOf(b[0]);
        }
    }

    private static final MaybeInt8 TYPE = new MaybeInt8();

    private static NdArray sample() {
        NdArray a = NdArray.allocate(TYPE, 2, 2);
        a.setBytes(0, new byte[] {5, 1});
        a.setBytes(2, new byte[] {-1, 1});
        a.setBytes(3, new byte[] {0, 1});
        return a;
    }

    @Test
    void jsonPrintsEachElementAsTheTypesFillValueJsonWithMissingAsNull() throws Exception {
        assertEquals("[[5,null],[-1,0]]", new ObjectMapper().writeValueAsString(ElementFormats.nested(sample())));
    }

    @Test
    void csvFollowsJsonWithNullAsAnEmptyField() {
        assertEquals("5,\n-1,0\n", ElementFormats.csv(sample()));
    }

    @Test
    void writeJsonReadsElementsBackThroughParseFillValue() throws Exception {
        JsonNode doc = new ObjectMapper().readTree("[[5,null],[-1,0]]");
        assertTrue(ElementFormats.fromJson(TYPE, doc, new long[] {2, 2}).contentEquals(sample()));
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> ElementFormats.fromJson(TYPE, new ObjectMapper().readTree("[[5,null],[300,0]]"), new long[] {2, 2}));
        assertTrue(e.getMessage().contains("--json element [1, 0]: a maybe_int8 value"), e.getMessage());
    }

    @Test
    void anElementTheTypeCannotExpressIsCorruptDataNamingIt() {
        NdArray a = sample();
        a.setBytes(1, new byte[] {0, 7});
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> ElementFormats.nested(a));
        assertTrue(e.getMessage().contains("element 1 of the test.maybe_int8 array") && e.getMessage().contains("mask byte 7"),
                e.getMessage());
    }
}
