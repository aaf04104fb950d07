package dev.zarrj.ext.mldtypes.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;

/**
 * {@code complex_float32} and {@code complex_float64}: the registry's names for the core
 * {@code complex64} and {@code complex128} (same bytes, same fill-value forms), kept under their
 * own name in metadata. Kind {@code COMPLEX}, so NdArray handles them as the core types.
 */
final class ComplexAlias implements DataType {
    static final ComplexAlias COMPLEX_FLOAT32 = new ComplexAlias("complex_float32", 4);
    static final ComplexAlias COMPLEX_FLOAT64 = new ComplexAlias("complex_float64", 8);

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private final String name;
    private final int width;

    private ComplexAlias(String name, int width) {
        this.name = name;
        this.width = width;
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
        return TextNode.valueOf(name);
    }

    @Override
    public int size() {
        return 2 * width;
    }

    @Override
    public int byteOrderUnit() {
        return width;
    }

    @Override
    public ElementKind kind() {
        return ElementKind.COMPLEX;
    }

    @Override
    public FillValue parseFillValue(JsonNode json, String pointer) {
        if (!json.isArray() || json.size() != 2) {
            String s = json.toString();
            throw new InvalidMetadataException(pointer, "the " + name + " fill value must be a two-element array [real,"
                    + " imaginary] of float" + 8 * width + " values; found " + (s.length() <= 80 ? s : s.substring(0, 77)
                    + "..."));
        }
        ByteBuffer out = ByteBuffer.allocate(size()).order(NATIVE);
        for (int i = 0; i < 2; i++) {
            long bits = parse(json.get(i), pointer + "/" + i, (i == 0 ? "the real" : "the imaginary") + " part of the "
                    + name + " fill value");
            if (width == 4) {
                out.putInt((int) bits);
            } else {
                out.putLong(bits);
            }
        }
        return FillValue.ofBytes(out.array());
    }

    private long canonicalNaN() {
        return width == 4 ? 0x7fc00000L : 0x7ff8000000000000L;
    }

    private long infinity() {
        return width == 4 ? 0x7f800000L : 0x7ff0000000000000L;
    }

    private long sign() {
        return 1L << (8 * width - 1);
    }

    private long parse(JsonNode json, String pointer, String what) {
        if (json.isTextual()) {
            String s = json.textValue();
            switch (s) {
                case "NaN" -> {
                    return canonicalNaN();
                }
                case "Infinity" -> {
                    return infinity();
                }
                case "-Infinity" -> {
                    return infinity() | sign();
                }
                default -> {
                    if (s.length() == 2 + 2 * width && s.startsWith("0x") && s.substring(2).chars().allMatch(
                            c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
                        return Long.parseUnsignedLong(s.substring(2), 16);
                    }
                }
            }
        } else if (json.isNumber() && !(json.isDouble() && Double.isNaN(json.doubleValue()))) {
            if (json.isFloat() || json.isDouble()) {
                double d = json.doubleValue();
                return width == 4 ? Float.floatToRawIntBits((float) d) & 0xffffffffL : Double.doubleToRawLongBits(d);
            }
            String decimal = json.decimalValue().toString();
            return width == 4 ? Float.floatToRawIntBits(Float.parseFloat(decimal)) & 0xffffffffL
                    : Double.doubleToRawLongBits(Double.parseDouble(decimal));
        }
        String s = json.toString();
        throw new InvalidMetadataException(pointer, what + " must be a JSON number, \"NaN\", \"Infinity\", \"-Infinity\" or"
                + " \"0x\" followed by " + 2 * width + " hex digits; found " + (s.length() <= 80 ? s : s.substring(0, 77)
                + "..."));
    }

    @Override
    public JsonNode fillValueToJson(FillValue value) {
        if (value.size() != size()) {
            throw new IllegalArgumentException("a " + name + " fill value has " + size() + " bytes, not " + value.size());
        }
        ByteBuffer in = ByteBuffer.wrap(value.bytes()).order(NATIVE);
        ArrayNode pair = JsonNodeFactory.instance.arrayNode(2);
        for (int i = 0; i < 2; i++) {
            pair.add(toJson(width == 4 ? in.getInt() & 0xffffffffL : in.getLong()));
        }
        return pair;
    }

    private JsonNode toJson(long bits) {
        long exponent = width == 4 ? 0x7f800000L : 0x7ff0000000000000L;
        long mantissa = width == 4 ? 0x007fffffL : 0x000fffffffffffffL;
        if ((bits & exponent) == exponent) {
            if ((bits & mantissa) == 0) {
                return TextNode.valueOf((bits & sign()) == 0 ? "Infinity" : "-Infinity");
            }
            if (bits == canonicalNaN()) {
                return TextNode.valueOf("NaN");
            }
            String all = HexFormat.of().toHexDigits(bits);
            return TextNode.valueOf("0x" + all.substring(all.length() - 2 * width));
        }
        // A float as the double nearest its shortest digits, as a JSON parser reads them back.
        return width == 4 ? DoubleNode.valueOf(Double.parseDouble(Float.toString(Float.intBitsToFloat((int) bits))))
                : DoubleNode.valueOf(Double.longBitsToDouble(bits));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ComplexAlias t && t.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
