package dev.zarrj.core.internal.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;

/** Minimal data types for codec tests, standing in for the core data types. */
public final class TestDataTypes {
    /** A data type defined only by its size, byte-order unit and kind; fill values are zero. */
    public record TestDataType(String name, int size, int byteOrderUnit, ElementKind kind) implements DataType {
        @Override
        public ObjectNode configuration() {
            return JsonNodeFactory.instance.objectNode();
        }

        @Override
        public FillValue parseFillValue(JsonNode json, String pointer) {
            return defaultFillValue();
        }

        @Override
        public JsonNode fillValueToJson(FillValue value) {
            return JsonNodeFactory.instance.numberNode(0);
        }
    }

    public static final DataType BOOL = new TestDataType("bool", 1, 1, ElementKind.BOOL);
    public static final DataType UINT8 = new TestDataType("uint8", 1, 1, ElementKind.UINT);
    public static final DataType INT16 = new TestDataType("int16", 2, 2, ElementKind.INT);
    public static final DataType INT32 = new TestDataType("int32", 4, 4, ElementKind.INT);
    public static final DataType INT64 = new TestDataType("int64", 8, 8, ElementKind.INT);
    public static final DataType FLOAT32 = new TestDataType("float32", 4, 4, ElementKind.FLOAT);
    public static final DataType FLOAT64 = new TestDataType("float64", 8, 8, ElementKind.FLOAT);
    public static final DataType COMPLEX64 = new TestDataType("complex64", 8, 4, ElementKind.COMPLEX);
    public static final DataType COMPLEX128 = new TestDataType("complex128", 16, 8, ElementKind.COMPLEX);
    /** Three opaque bytes ({@code r24}): no byte order, an element size no typed view matches. */
    public static final DataType R24 = new TestDataType("r24", 3, 1, ElementKind.RAW);

    private TestDataTypes() {}

    /** A chunk of this type and shape with a zero fill value. */
    public static ChunkSpec spec(DataType type, long... shape) {
        return new ChunkSpec(type, shape, type.defaultFillValue());
    }
}
