package dev.zarrj.core.internal.datatype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A data type of the Zarr v3 core specification: {@code bool}, {@code int8}…{@code int64},
 * {@code uint8}…{@code uint64}, {@code float16}, {@code float32}, {@code float64},
 * {@code complex64}, {@code complex128}, and the raw {@code r<bits>} types.
 *
 * <p>Spec: <a href="https://zarr-specs.readthedocs.io/en/latest/v3/data-types/index.html">data
 * types</a>. Core types have no configuration and are written to metadata as a plain string, e.g.
 * {@code "data_type": "float32"}. Fill values take exactly the JSON forms the spec permits and are
 * written back in canonical form: {@code "NaN"} only for the canonical quiet NaN, every other NaN
 * as {@code "0x..."} bits, so payloads survive a round trip.
 *
 * <p>Immutable and thread-safe; equal when the names are equal.
 */
public final class CoreDataType implements DataType {
    private static final System.Logger LOG = System.getLogger(CoreDataType.class.getName());
    public static final CoreDataType BOOL = new CoreDataType("bool", 1, 1, ElementKind.BOOL);
    public static final CoreDataType INT8 = new CoreDataType("int8", 1, 1, ElementKind.INT);
    public static final CoreDataType INT16 = new CoreDataType("int16", 2, 2, ElementKind.INT);
    public static final CoreDataType INT32 = new CoreDataType("int32", 4, 4, ElementKind.INT);
    public static final CoreDataType INT64 = new CoreDataType("int64", 8, 8, ElementKind.INT);
    public static final CoreDataType UINT8 = new CoreDataType("uint8", 1, 1, ElementKind.UINT);
    public static final CoreDataType UINT16 = new CoreDataType("uint16", 2, 2, ElementKind.UINT);
    public static final CoreDataType UINT32 = new CoreDataType("uint32", 4, 4, ElementKind.UINT);
    public static final CoreDataType UINT64 = new CoreDataType("uint64", 8, 8, ElementKind.UINT);
    public static final CoreDataType FLOAT16 = new CoreDataType("float16", 2, 2, ElementKind.FLOAT);
    public static final CoreDataType FLOAT32 = new CoreDataType("float32", 4, 4, ElementKind.FLOAT);
    public static final CoreDataType FLOAT64 = new CoreDataType("float64", 8, 8, ElementKind.FLOAT);
    public static final CoreDataType COMPLEX64 = new CoreDataType("complex64", 8, 4, ElementKind.COMPLEX);
    public static final CoreDataType COMPLEX128 = new CoreDataType("complex128", 16, 8, ElementKind.COMPLEX);

    /** The largest {@code r*} width: the largest multiple of 8 that is an {@code int}. */
    public static final int MAX_RAW_BITS = Integer.MAX_VALUE - 7;

    private static final Map<String, CoreDataType> NAMED = Stream.of(BOOL, INT8, INT16, INT32, INT64,
                    UINT8, UINT16, UINT32, UINT64, FLOAT16, FLOAT32, FLOAT64, COMPLEX64, COMPLEX128)
            .collect(Collectors.toUnmodifiableMap(CoreDataType::name, Function.identity()));

    private static final Pattern RAW_NAME = Pattern.compile("r[1-9][0-9]*");
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private final String name;
    private final int size;
    private final int byteOrderUnit;
    private final ElementKind kind;

    private CoreDataType(String name, int size, int byteOrderUnit, ElementKind kind) {
        this.name = name;
        this.size = size;
        this.byteOrderUnit = byteOrderUnit;
        this.kind = kind;
    }

    /**
     * The raw type {@code r<bits>}: {@code bits / 8} opaque bytes.
     *
     * @throws IllegalArgumentException unless {@code bits} is a positive multiple of 8
     */
    public static CoreDataType raw(int bits) {
        if (bits <= 0 || bits % 8 != 0) {
            throw new IllegalArgumentException("raw data type bits must be a positive multiple of 8, found " + bits);
        }
        return new CoreDataType("r" + bits, bits / 8, 1, ElementKind.RAW);
    }

    /**
     * The core type with this name, {@code r<bits>} included; empty for any other name, including
     * malformed raw names such as {@code r12} or {@code r08}.
     */
    public static Optional<CoreDataType> byName(String name) {
        CoreDataType t = NAMED.get(name);
        if (t != null) {
            return Optional.of(t);
        }
        long bits = rawBits(name);
        return bits > 0 && bits % 8 == 0 && bits <= MAX_RAW_BITS ? Optional.of(raw((int) bits)) : Optional.empty();
    }

    /** The bit count of a name of the form {@code r<positive integer>}, or -1 for any other name. */
    static long rawBits(String name) {
        if (!RAW_NAME.matcher(name).matches()) {
            return -1;
        }
        // More than 18 digits cannot be a valid width; cap the value rather than overflow.
        return name.length() > 19 ? Long.MAX_VALUE : Long.parseLong(name.substring(1));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int byteOrderUnit() {
        return byteOrderUnit;
    }

    @Override
    public ElementKind kind() {
        return kind;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode();
    }

    /** A core data type is written as its bare name. */
    @Override
    public JsonNode toJson() {
        return TextNode.valueOf(name);
    }

    @Override
    public FillValue parseFillValue(JsonNode json, String pointer) {
        if (kind == ElementKind.RAW && (!json.isArray() || json.size() != size)) {
            // Checked before allocating: an r* type can be large.
            throw new InvalidMetadataException(pointer, "the " + name + " fill value must be an array of "
                    + size + " integers in [0, 255]; found " + show(json));
        }
        ByteBuffer out = ByteBuffer.allocate(size).order(NATIVE);
        switch (kind) {
            case BOOL -> {
                if (json.isIntegralNumber() && (json.asLong() == 0 || json.asLong() == 1) && json.canConvertToLong()) {
                    LOG.log(System.Logger.Level.WARNING, () -> "zarrj: " + pointer + ": the bool fill value " + json
                            + " is a legacy form older writers produced (the spec requires true or false); read as "
                            + (json.asLong() == 1) + ", and written back that way");
                    out.put((byte) json.asLong());
                } else if (json.isBoolean()) {
                    out.put((byte) (json.booleanValue() ? 1 : 0));
                } else {
                    throw new InvalidMetadataException(pointer,
                            "the bool fill value must be true or false; found " + show(json));
                }
            }
            case INT, UINT -> putInteger(out, json, pointer);
            case FLOAT -> putFloat(out, IeeeFloats.parse(json, size, pointer, "the " + name + " fill value"), size);
            case COMPLEX -> {
                if (!json.isArray() || json.size() != 2) {
                    throw new InvalidMetadataException(pointer, "the " + name + " fill value must be a "
                            + "two-element array [real, imaginary] of float" + 8 * byteOrderUnit
                            + " values; found " + show(json));
                }
                for (int i = 0; i < 2; i++) {
                    putFloat(out, IeeeFloats.parse(json.get(i), byteOrderUnit, pointer + "/" + i,
                            (i == 0 ? "the real" : "the imaginary") + " part of the " + name + " fill value"),
                            byteOrderUnit);
                }
            }
            case RAW -> putRaw(out, json, pointer);
            default -> throw new AssertionError(kind);
        }
        return FillValue.ofBytes(out.array());
    }

    private void putInteger(ByteBuffer out, JsonNode json, String pointer) {
        BigInteger min = kind == ElementKind.UINT ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(8 * size - 1).negate();
        BigInteger max = (kind == ElementKind.UINT ? BigInteger.ONE.shiftLeft(8 * size)
                : BigInteger.ONE.shiftLeft(8 * size - 1)).subtract(BigInteger.ONE);
        if (!json.isIntegralNumber()) {
            throw new InvalidMetadataException(pointer, "the " + name + " fill value must be a JSON integer "
                    + "(no fraction or exponent part) in [" + min + ", " + max + "]; found " + show(json));
        }
        BigInteger v = json.bigIntegerValue();
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
            throw new InvalidMetadataException(pointer, "the " + name + " fill value must be in ["
                    + min + ", " + max + "]; found " + show(json));
        }
        long bits = v.longValue(); // the low 64 bits: two's complement, or unsigned for uint64
        switch (size) {
            case 1 -> out.put((byte) bits);
            case 2 -> out.putShort((short) bits);
            case 4 -> out.putInt((int) bits);
            default -> out.putLong(bits);
        }
    }

    private static void putFloat(ByteBuffer out, long bits, int width) {
        switch (width) {
            case 2 -> out.putShort((short) bits);
            case 4 -> out.putInt((int) bits);
            default -> out.putLong(bits);
        }
    }

    private void putRaw(ByteBuffer out, JsonNode json, String pointer) {
        for (int i = 0; i < size; i++) {
            JsonNode b = json.get(i);
            if (!b.isIntegralNumber() || !b.canConvertToInt() || b.intValue() < 0 || b.intValue() > 255) {
                throw new InvalidMetadataException(pointer + "/" + i, "byte " + i + " of the " + name
                        + " fill value must be an integer in [0, 255]; found " + show(b));
            }
            out.put((byte) b.intValue());
        }
    }

    @Override
    public JsonNode fillValueToJson(FillValue value) {
        if (value.size() != size) {
            throw new IllegalArgumentException("a " + name + " fill value has " + size + " bytes, not " + value.size());
        }
        ByteBuffer in = ByteBuffer.wrap(value.bytes()).order(NATIVE);
        switch (kind) {
            case BOOL:
                return BooleanNode.valueOf(in.get() != 0);
            case INT:
                return integerNode(BigInteger.valueOf(signed(in)));
            case UINT: {
                long bits = signed(in);
                return integerNode(size == 8 ? new BigInteger(Long.toUnsignedString(bits))
                        : BigInteger.valueOf(bits & ((1L << 8 * size) - 1)));
            }
            case FLOAT:
                return IeeeFloats.toJson(getFloat(in, size), size);
            case COMPLEX: {
                ArrayNode pair = JsonNodeFactory.instance.arrayNode(2);
                pair.add(IeeeFloats.toJson(getFloat(in, byteOrderUnit), byteOrderUnit));
                pair.add(IeeeFloats.toJson(getFloat(in, byteOrderUnit), byteOrderUnit));
                return pair;
            }
            case RAW: {
                ArrayNode bytes = JsonNodeFactory.instance.arrayNode(size);
                while (in.hasRemaining()) {
                    bytes.add(in.get() & 0xff);
                }
                return bytes;
            }
            default:
                throw new AssertionError(kind);
        }
    }

    /** The sign-extended integer of {@code size} bytes. */
    private long signed(ByteBuffer in) {
        return switch (size) {
            case 1 -> in.get();
            case 2 -> in.getShort();
            case 4 -> in.getInt();
            default -> in.getLong();
        };
    }

    /** The node type a JSON parser gives this integer, so that written metadata reads back equal. */
    private static JsonNode integerNode(BigInteger v) {
        if (v.bitLength() < 32) {
            return IntNode.valueOf(v.intValue());
        }
        return v.bitLength() < 64 ? LongNode.valueOf(v.longValue()) : BigIntegerNode.valueOf(v);
    }

    private static long getFloat(ByteBuffer in, int width) {
        return switch (width) {
            case 2 -> in.getShort() & 0xffffL;
            case 4 -> in.getInt() & 0xffffffffL;
            default -> in.getLong();
        };
    }

    /** A JSON value for a message, cut short when long (an {@code r*} fill value can be). */
    static String show(JsonNode json) {
        String s = json.toString();
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CoreDataType t && t.name.equals(name);
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
