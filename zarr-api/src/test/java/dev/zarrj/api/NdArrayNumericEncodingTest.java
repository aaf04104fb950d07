package dev.zarrj.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.datatype.NumericEncoding;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * NdArray over OTHER types that offer a NumericEncoding: element access and bulk copies convert
 * through it (integers as byte[], floats as float[], complex interleaved); without one, OTHER stays
 * raw bytes.
 */
class NdArrayNumericEncodingTest {
    /** A 4-bit integer in the low bits of a byte (upper bits ignored), or a real "nibble" of quarters. */
    private static DataType nibble(boolean integer, int components) {
        NumericEncoding enc = new NumericEncoding() {
            @Override public int components() { return components; }
            @Override public boolean isInteger() { return integer; }
            @Override public double get(ByteBuffer data, int offset) {
                int v = (data.get(offset) << 28) >> 28;
                return integer ? v : v / 4.0;
            }
            @Override public void set(ByteBuffer data, int offset, double value) {
                int v = integer ? (int) value : (int) Math.rint(value * 4);
                data.put(offset, (byte) ((v << 28) >> 28));
            }
        };
        DataType raw = new TestTypes.TestType("nibble", ElementKind.OTHER, components, 1);
        return new DataType() {
            @Override public String name() { return raw.name(); }
            @Override public ObjectNode configuration() { return raw.configuration(); }
            @Override public int size() { return raw.size(); }
            @Override public int byteOrderUnit() { return 1; }
            @Override public ElementKind kind() { return ElementKind.OTHER; }
            @Override public FillValue parseFillValue(JsonNode json, String pointer) { return raw.parseFillValue(json, pointer); }
            @Override public JsonNode fillValueToJson(FillValue value) { return raw.fillValueToJson(value); }
            @Override public Optional<NumericEncoding> numericEncoding() { return Optional.of(enc); }
        };
    }

    @Test
    void integersConvertThroughTheEncodingAndCopyAsBytes() {
        NdArray a = NdArray.wrap(nibble(true, 1), ByteBuffer.wrap(new byte[] {0x0f, 0x07, (byte) 0xf8}), 3);
        assertEquals(-1, a.getLong(0));
        assertEquals(7.0, a.getDouble(1));
        assertEquals(byte[].class, a.javaArrayType());
        assertArrayEquals(new byte[] {-1, 7, -8}, (byte[]) a.toJavaArray());
        assertArrayEquals(new byte[] {0x0f, 0x07, (byte) 0xf8}, a.toByteArray(), "toByteArray: the raw bytes");
        a.copyFrom(new byte[] {1, 2, -3});
        assertArrayEquals(new byte[] {1, 2, -3}, a.toByteArray());
        a.setLong(0, -2);
        assertEquals(-2, a.getLong(0));
    }

    @Test
    void floatsConvertThroughTheEncodingAndCopyAsFloats() {
        NdArray a = NdArray.allocate(nibble(false, 1), 2);
        assertEquals(float[].class, a.javaArrayType());
        a.copyFrom(new float[] {0.25f, -1.2f});
        assertArrayEquals(new float[] {0.25f, -1.25f}, a.toFloatArray());
        a.setDouble(1, 1.5);
        assertEquals(1.5, a.getDouble(1));
        assertThrows(UnsupportedOperationException.class, () -> a.getLong(0), "a float has no long view");
    }

    @Test
    void complexOnesCopyInterleaved() {
        NdArray a = NdArray.allocate(nibble(false, 2), 2);
        a.copyFrom(new float[] {0.25f, 0.5f, -0.75f, 1});
        assertArrayEquals(new float[] {0.25f, 0.5f, -0.75f, 1}, a.toFloatArray());
        assertEquals(-0.75, a.getDouble(1), "getDouble: the real part");
        assertThrows(UnsupportedOperationException.class, () -> a.setDouble(0, 1));
        assertThrows(IllegalArgumentException.class, () -> a.copyFrom(new float[2]));
    }

    @Test
    void otherWithoutAnEncodingStaysRawBytes() {
        NdArray a = NdArray.allocate(TestTypes.OTHER5, 2);
        assertEquals(byte[].class, a.javaArrayType());
        assertEquals(10, ((byte[]) a.toJavaArray()).length);
        assertThrows(UnsupportedOperationException.class, () -> a.getDouble(0));
    }
}
