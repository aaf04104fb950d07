package dev.zarrj.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.List;

/** Test-only data types built from an element kind, a size and a byte-order unit. */
public final class TestTypes {
    private TestTypes() {}

    /** A minimal data type; fill values are read and written as hex strings of native bytes. */
    public record TestType(String name, ElementKind kind, int size, int byteOrderUnit) implements DataType {
        @Override
        public ObjectNode configuration() {
            return JsonNodeFactory.instance.objectNode();
        }

        @Override
        public FillValue parseFillValue(JsonNode json, String pointer) {
            if (!json.isTextual()) {
                throw new InvalidMetadataException(pointer, name + ": fill value must be a hex string, found " + json);
            }
            return FillValue.ofBytes(HexFormat.of().parseHex(json.textValue()));
        }

        @Override
        public JsonNode fillValueToJson(FillValue value) {
            return JsonNodeFactory.instance.textNode(HexFormat.of().formatHex(value.bytes()));
        }
    }

    public static final DataType BOOL = new TestType("bool", ElementKind.BOOL, 1, 1);
    public static final DataType INT8 = new TestType("int8", ElementKind.INT, 1, 1);
    public static final DataType INT16 = new TestType("int16", ElementKind.INT, 2, 2);
    public static final DataType INT32 = new TestType("int32", ElementKind.INT, 4, 4);
    public static final DataType INT64 = new TestType("int64", ElementKind.INT, 8, 8);
    public static final DataType UINT8 = new TestType("uint8", ElementKind.UINT, 1, 1);
    public static final DataType UINT16 = new TestType("uint16", ElementKind.UINT, 2, 2);
    public static final DataType UINT32 = new TestType("uint32", ElementKind.UINT, 4, 4);
    public static final DataType UINT64 = new TestType("uint64", ElementKind.UINT, 8, 8);
    public static final DataType FLOAT16 = new TestType("float16", ElementKind.FLOAT, 2, 2);
    public static final DataType FLOAT32 = new TestType("float32", ElementKind.FLOAT, 4, 4);
    public static final DataType FLOAT64 = new TestType("float64", ElementKind.FLOAT, 8, 8);
    public static final DataType COMPLEX64 = new TestType("complex64", ElementKind.COMPLEX, 8, 4);
    public static final DataType COMPLEX128 = new TestType("complex128", ElementKind.COMPLEX, 16, 8);
    public static final DataType R24 = new TestType("r24", ElementKind.RAW, 3, 1);
    public static final DataType R128 = new TestType("r128", ElementKind.RAW, 16, 1);
    public static final DataType OTHER5 = new TestType("other5", ElementKind.OTHER, 5, 1);
    public static final DataType STRING = new TestType("string", ElementKind.STRING, 32, 1);
    public static final DataType BYTES = new TestType("bytes", ElementKind.BYTES, 32, 1);

    /** One type of each element size used by region copies: 1, 2, 4, 8 and 16 bytes. */
    public static final List<DataType> BY_SIZE = List.of(UINT8, INT16, FLOAT32, FLOAT64, COMPLEX128);

    private static ByteBuffer buf(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.nativeOrder());
    }

    public static FillValue fill(byte... bytes) {
        return FillValue.ofBytes(bytes);
    }

    public static FillValue fillShort(short v) {
        return FillValue.ofBytes(buf(2).putShort(0, v).array());
    }

    public static FillValue fillInt(int v) {
        return FillValue.ofBytes(buf(4).putInt(0, v).array());
    }

    public static FillValue fillLong(long v) {
        return FillValue.ofBytes(buf(8).putLong(0, v).array());
    }

    public static FillValue fillFloat(float v) {
        return FillValue.ofBytes(buf(4).putFloat(0, v).array());
    }

    public static FillValue fillDouble(double v) {
        return FillValue.ofBytes(buf(8).putDouble(0, v).array());
    }

    public static FillValue fillComplex128(double re, double im) {
        return FillValue.ofBytes(buf(16).putDouble(0, re).putDouble(8, im).array());
    }
}
