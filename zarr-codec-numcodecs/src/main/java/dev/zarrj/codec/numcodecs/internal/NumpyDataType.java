package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * A core numeric data type as a filter's encoded representation (the type {@code astype},
 * {@code fixedscaleoffset}, {@code delta} or {@code packbits} hand to the next codec). It has the
 * name, size and kind of the core type of that name, so the {@code bytes} codec and the pipeline
 * treat it alike; fill values take the plain JSON forms (numbers, booleans, {@code "NaN"},
 * {@code "Infinity"}, {@code "-Infinity"}).
 */
final class NumpyDataType implements DataType {
    private final String name;
    private final int size;
    private final ElementKind kind;

    NumpyDataType(String name, int size, ElementKind kind) {
        this.name = name;
        this.size = size;
        this.kind = kind;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode();
    }

    @Override
    public JsonNode toJson() {
        return JsonNodeFactory.instance.textNode(name);
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int byteOrderUnit() {
        return size;
    }

    @Override
    public ElementKind kind() {
        return kind;
    }

    private NumpyType type() {
        return NumpyType.valueOf(name.toUpperCase(java.util.Locale.ROOT));
    }

    @Override
    public FillValue parseFillValue(JsonNode json, String pointer) {
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
        NumpyType t = type();
        if (json.isBoolean() && t == NumpyType.BOOL) {
            b.put(0, (byte) (json.booleanValue() ? 1 : 0));
        } else if (json.isIntegralNumber() && t.isInteger()) {
            t.putLong(b, 0, json.longValue());
        } else if (json.isNumber() && t.isFloat()) {
            t.putDouble(b, 0, json.doubleValue());
        } else if (json.isTextual() && t.isFloat() && switch (json.textValue()) {
            case "NaN", "Infinity", "-Infinity" -> true;
            default -> false;
        }) {
            t.putDouble(b, 0, switch (json.textValue()) {
                case "NaN" -> Double.NaN;
                case "Infinity" -> Double.POSITIVE_INFINITY;
                default -> Double.NEGATIVE_INFINITY;
            });
        } else {
            throw new InvalidMetadataException(pointer, "fill value " + json + " is not a " + name);
        }
        return FillValue.ofBytes(b.array());
    }

    @Override
    public JsonNode fillValueToJson(FillValue value) {
        ByteBuffer b = ByteBuffer.wrap(value.bytes()).order(ByteOrder.nativeOrder());
        NumpyType t = type();
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (t == NumpyType.BOOL) {
            return f.booleanNode(b.get(0) != 0);
        }
        if (t == NumpyType.UINT64) {
            return f.numberNode(new java.math.BigInteger(Long.toUnsignedString(b.getLong(0))));
        }
        if (t.isInteger()) {
            return f.numberNode(t.getLong(b, 0));
        }
        double d = t.getDouble(b, 0);
        if (Double.isNaN(d)) {
            return f.textNode("NaN");
        }
        if (Double.isInfinite(d)) {
            return f.textNode(d > 0 ? "Infinity" : "-Infinity");
        }
        return f.numberNode(d);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NumpyDataType t && name.equals(t.name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name);
    }

    @Override
    public String toString() {
        return name;
    }
}
