package dev.zarrj.format.v2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.UnsupportedFormatException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A v2 {@code dtype} (NumPy's type string) with its v3 data type and the byte order that goes to
 * the {@code bytes} codec, and the fill value translation both ways.
 *
 * @param v2     the dtype string as v2 writes it
 * @param kind   what the elements are
 * @param size   bytes per element in a chunk as NumPy holds it (1 for the variable-length kinds,
 *               whose encoded form is bytes)
 * @param endian {@code "little"} or {@code "big"}, null where byte order does not apply
 * @param v3     the v3 {@code data_type} member
 */
record DType(String v2, Kind kind, int size, String endian, JsonNode v3) {
    enum Kind { BOOL, INT, UINT, FLOAT, COMPLEX, TIME, UNICODE, BYTES_S, VOID, OBJECT, VLEN_STRING, VLEN_BYTES }

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Pattern SIMPLE = Pattern.compile("([<>|])([biufcmMSUVO])(\\d*)(?:\\[(\\d*)([A-Za-z\u03bc]+)\\])?");
    private static final Set<String> UNITS = Set.of("Y", "M", "W", "D", "h", "m", "s", "ms", "us", "\u03bcs", "ns", "ps",
            "fs", "as");
    private static final long MAX_BYTES = (Integer.MAX_VALUE - 7) / 8;
    static final BigInteger NAT = BigInteger.valueOf(Long.MIN_VALUE);

    /**
     * Parses a v2 {@code dtype}. The object dtype comes back as {@link Kind#OBJECT}, without a v3
     * type: its object codec decides ({@link #withObjectCodec}).
     *
     * @throws InvalidMetadataException at {@code /dtype} when it is not a dtype; an
     *         {@link UnsupportedFormatException} for a structured dtype
     */
    static DType parse(JsonNode dtype, Loc loc) {
        if (dtype.isArray()) {
            throw loc.unsupported("/dtype", "structured dtypes (a list of fields, " + Json.abbreviate(dtype)
                    + ") are not supported; zarrj reads the simple NumPy types only");
        }
        if (!dtype.isTextual()) {
            throw loc.invalid("/dtype", "the dtype must be a NumPy type string such as \"<f8\", found " + Json.abbreviate(dtype));
        }
        DType t = parseOrNull(dtype.textValue());
        if (t == null) {
            throw loc.invalid("/dtype", "unknown dtype " + Json.abbreviate(dtype) + ": expected a byte order (<, > or |), a"
                    + " type code (b i u f c m M S U V O) and a size, such as \"<f8\", \"|u1\", \"<M8[ns]\" or \"|S10\"");
        }
        if (t.endian == null && t.size > 1 && t.kind != Kind.BYTES_S && t.kind != Kind.VOID
                && t.v2.charAt(0) == '|') {
            throw loc.invalid("/dtype", "the dtype \"" + t.v2 + "\" has " + t.size + "-byte elements, so it needs byte order"
                    + " '<' or '>', not '|'");
        }
        return t;
    }

    /** The dtype, or null when {@code s} is not one this translation knows. */
    static DType parseOrNull(String s) {
        Matcher m = SIMPLE.matcher(s);
        if (!m.matches()) {
            return null;
        }
        char order = m.group(1).charAt(0);
        char code = m.group(2).charAt(0);
        String digits = m.group(3);
        if (m.group(5) != null && code != 'M' && code != 'm') {
            return null;
        }
        if (digits.length() > 10) {
            return null;
        }
        long n = digits.isEmpty() ? -1 : Long.parseLong(digits);
        String endian = order == '<' ? "little" : order == '>' ? "big" : null;
        switch (code) {
            case 'b':
                return n == 1 ? new DType(s, Kind.BOOL, 1, null, TextNode.valueOf("bool")) : null;
            case 'i':
            case 'u':
                if (n != 1 && n != 2 && n != 4 && n != 8) {
                    return null;
                }
                return new DType(s, code == 'i' ? Kind.INT : Kind.UINT, (int) n, n == 1 ? null : endian,
                        TextNode.valueOf((code == 'i' ? "int" : "uint") + 8 * n));
            case 'f':
                if (n != 2 && n != 4 && n != 8) {
                    return null;
                }
                return new DType(s, Kind.FLOAT, (int) n, endian, TextNode.valueOf("float" + 8 * n));
            case 'c':
                if (n != 8 && n != 16) {
                    return null;
                }
                return new DType(s, Kind.COMPLEX, (int) n, endian, TextNode.valueOf("complex" + 8 * n));
            case 'M':
            case 'm': {
                if (n != 8) {
                    return null;
                }
                String unit = "generic";
                long scale = 1;
                if (m.group(5) != null) {
                    unit = m.group(5);
                    if (!UNITS.contains(unit) || m.group(4).length() > 10) {
                        return null;
                    }
                    scale = m.group(4).isEmpty() ? 1 : Long.parseLong(m.group(4));
                    if (scale < 1 || scale > Integer.MAX_VALUE) {
                        return null;
                    }
                }
                ObjectNode t = JSON.objectNode().put("name", code == 'M' ? "numpy.datetime64" : "numpy.timedelta64");
                t.putObject("configuration").put("unit", unit).put("scale_factor", (int) scale);
                return new DType(s, Kind.TIME, 8, endian, t);
            }
            case 'U': {
                if (n < 1 || n > MAX_BYTES / 4) {
                    return null;
                }
                ObjectNode t = JSON.objectNode().put("name", "fixed_length_utf32");
                t.putObject("configuration").put("length_bytes", (int) (4 * n));
                return new DType(s, Kind.UNICODE, (int) (4 * n), endian, t);
            }
            case 'S':
            case 'V':
                if (n < 1 || n > MAX_BYTES) {
                    return null;
                }
                if (code == 'V') {
                    return new DType(s, Kind.VOID, (int) n, null, TextNode.valueOf("r" + 8 * n));
                }
                ObjectNode b = JSON.objectNode().put("name", "null_terminated_bytes");
                b.putObject("configuration").put("length_bytes", (int) n);
                return new DType(s, Kind.BYTES_S, (int) n, null, b);
            case 'O':
                return n == -1 || n == 8 ? new DType(s, Kind.OBJECT, 1, null, null) : null;
            default:
                return null;
        }
    }

    /** The object dtype's type under its object codec, {@code vlen-utf8} or {@code vlen-bytes}. */
    DType withObjectCodec(String id) {
        return id.equals("vlen-utf8") ? new DType(v2, Kind.VLEN_STRING, 1, null, TextNode.valueOf("string"))
                : new DType(v2, Kind.VLEN_BYTES, 1, null, TextNode.valueOf("bytes"));
    }

    /** The size of one element a compressor sees when the chunk reaches it unfiltered (NumPy's itemsize). */
    int itemSize() {
        return size;
    }

    /** Whether the v3 array→bytes codec is {@code bytes}, which then carries {@link #endian()}. */
    boolean fixedSize() {
        return kind != Kind.OBJECT && kind != Kind.VLEN_STRING && kind != Kind.VLEN_BYTES;
    }

    // ---- v3 → v2 ----

    /**
     * The v2 dtype of a v3 data type stored through {@code bytes} with {@code endian} (null when
     * not given), or through a {@code vlen-*} codec.
     *
     * @throws UnsupportedFormatException at {@code /data_type} for a type v2 has no dtype for
     */
    static DType fromV3(JsonNode dataType, String endian, String base) {
        String name = dataType.isTextual() ? dataType.textValue() : dataType.path("name").asText("");
        JsonNode config = dataType.path("configuration");
        char order = "big".equals(endian) ? '>' : '<';
        String v2 = switch (name) {
            case "bool" -> "|b1";
            case "int8" -> "|i1";
            case "uint8" -> "|u1";
            case "int16", "int32", "int64", "uint16", "uint32", "uint64" -> order + (name.startsWith("u") ? "u" : "i")
                    + Integer.parseInt(name.substring(name.indexOf('t') + 1)) / 8;
            case "float16", "float32", "float64" -> order + "f" + Integer.parseInt(name.substring(5)) / 8;
            case "complex64", "complex128" -> order + "c" + Integer.parseInt(name.substring(7)) / 8;
            case "numpy.datetime64", "numpy.timedelta64" -> {
                String unit = config.path("unit").asText("");
                long scale = config.path("scale_factor").asLong(1);
                String code = name.equals("numpy.datetime64") ? "M8" : "m8";
                if (unit.equals("generic")) {
                    if (scale != 1) {
                        throw new UnsupportedFormatException(base + "/data_type", "the generic time unit with scale_factor "
                                + scale + " has no NumPy dtype, so v2 cannot store it");
                    }
                    yield order + code;
                }
                yield order + code + "[" + (scale == 1 ? "" : Long.toString(scale)) + (unit.equals("\u03bcs") ? "us" : unit) + "]";
            }
            case "fixed_length_utf32" -> order + "U" + config.path("length_bytes").asLong() / 4;
            case "null_terminated_bytes" -> "|S" + config.path("length_bytes").asLong();
            case "string", "bytes", "variable_length_bytes" -> "|O";
            default -> {
                if (name.matches("r[1-9][0-9]*") && Long.parseLong(name.substring(1)) % 8 == 0) {
                    yield "|V" + Long.parseLong(name.substring(1)) / 8;
                }
                throw new UnsupportedFormatException(base + "/data_type", "the data type " + Json.abbreviate(dataType)
                        + " has no Zarr v2 dtype; v2 stores bool, (u)int8..64, float16..64, complex64/128,"
                        + " numpy.datetime64/timedelta64, fixed_length_utf32, null_terminated_bytes, raw bits (r*), string"
                        + " and bytes");
            }
        };
        DType t = parseOrNull(v2);
        if (t == null) {
            throw new UnsupportedFormatException(base + "/data_type", "the data type " + Json.abbreviate(dataType)
                    + " has no Zarr v2 dtype");
        }
        return t.kind == Kind.OBJECT ? t.withObjectCodec(name.equals("string") ? "vlen-utf8" : "vlen-bytes") : t;
    }

    /** This type with the dtype spelled as {@code other} spells it (a previous {@code "|S10"} for {@code "|V10"}). */
    DType spelledAs(DType other) {
        return new DType(other.v2, other.kind == Kind.BYTES_S && kind == Kind.VOID ? Kind.BYTES_S : kind, size, endian, v3);
    }

    // ---- fill values ----

    /** The v3 fill value that stands for v2's {@code null} (no fill value): the type's zero. */
    JsonNode defaultFill() {
        return switch (kind) {
            case BOOL -> BooleanNode.FALSE;
            case INT, UINT, TIME -> IntNode.valueOf(0);
            case FLOAT -> DoubleNode.valueOf(0.0);
            case COMPLEX -> JSON.arrayNode().add(0.0).add(0.0);
            case UNICODE, VLEN_STRING, VLEN_BYTES, OBJECT, BYTES_S -> TextNode.valueOf("");
            case VOID -> rawFill(new byte[size]);
        };
    }

    /**
     * The v3 fill value for a v2 {@code fill_value} (not null).
     *
     * @throws InvalidMetadataException at {@code /fill_value} when it does not fit the dtype
     */
    JsonNode fillToV3(JsonNode f, Loc loc) {
        String p = "/fill_value";
        switch (kind) {
            case BOOL:
                if (f.isBoolean()) {
                    return f;
                }
                if (f.isIntegralNumber() && (f.asInt() == 0 || f.asInt() == 1) && f.canConvertToInt()) {
                    return BooleanNode.valueOf(f.asInt() == 1);
                }
                break;
            case INT:
            case UINT: {
                BigInteger v = integral(f);
                if (v != null) {
                    BigInteger min = kind == Kind.UINT ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(8 * size - 1).negate();
                    BigInteger max = kind == Kind.UINT ? BigInteger.ONE.shiftLeft(8 * size).subtract(BigInteger.ONE)
                            : BigInteger.ONE.shiftLeft(8 * size - 1).subtract(BigInteger.ONE);
                    if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
                        throw loc.invalid(p, "the fill value " + v + " is out of range for the dtype \"" + v2 + "\" ["
                                + min + ", " + max + "]");
                    }
                    return integerNode(v);
                }
                break;
            }
            case FLOAT: {
                JsonNode v = floatFill(f);
                if (v != null) {
                    return v;
                }
                break;
            }
            case COMPLEX:
                if (f.isArray() && f.size() == 2 && floatFill(f.get(0)) != null && floatFill(f.get(1)) != null) {
                    return JSON.arrayNode().add(floatFill(f.get(0))).add(floatFill(f.get(1)));
                }
                break;
            case TIME: {
                if (f.isTextual() && f.textValue().equals("NaT")) {
                    return f;
                }
                BigInteger v = integral(f);
                if (v != null && v.bitLength() < 64) {
                    return integerNode(v);
                }
                break;
            }
            case UNICODE:
                if (isZero(f)) {
                    return TextNode.valueOf("");    // zarr-python 2's default fill value, as some writers keep it
                }
                if (f.isTextual()) {
                    String s = f.textValue();
                    if (s.codePointCount(0, s.length()) > size / 4) {
                        throw loc.invalid(p, "the fill value " + Json.abbreviate(f) + " is longer than the dtype \"" + v2
                                + "\" holds (" + size / 4 + " characters)");
                    }
                    return f;
                }
                break;
            case BYTES_S:
            case VOID:
                if (isZero(f)) {
                    return kind == Kind.BYTES_S ? TextNode.valueOf("") : rawFill(new byte[size]);
                }
                if (f.isTextual()) {
                    byte[] b;
                    try {
                        b = Base64.getDecoder().decode(f.textValue());
                    } catch (IllegalArgumentException e) {
                        throw loc.invalid(p, "the fill value of the dtype \"" + v2 + "\" must be base64 text, found "
                                + Json.abbreviate(f) + " (" + e.getMessage() + ")");
                    }
                    if (b.length > size) {
                        throw loc.invalid(p, "the fill value " + Json.abbreviate(f) + " holds " + b.length
                                + " bytes; the dtype \"" + v2 + "\" holds " + size);
                    }
                    if (kind == Kind.BYTES_S) {
                        return TextNode.valueOf(Base64.getEncoder().encodeToString(stripZeros(b)));
                    }
                    byte[] padded = new byte[size];
                    System.arraycopy(b, 0, padded, 0, b.length);
                    return rawFill(padded);
                }
                break;
            case VLEN_STRING:
                if (f.isTextual()) {
                    return f;
                }
                if (isZero(f)) {
                    return TextNode.valueOf("");    // what zarr-python 2 writes for an object array by default
                }
                break;
            case VLEN_BYTES:
                if (f.isTextual()) {
                    return TextNode.valueOf(Base64.getEncoder().encodeToString(f.textValue().getBytes(StandardCharsets.UTF_8)));
                }
                if (isZero(f)) {
                    return TextNode.valueOf("");
                }
                break;
            default:
                break;
        }
        throw loc.invalid(p, "the fill value " + Json.abbreviate(f) + " does not fit the dtype \"" + v2 + "\"; "
                + switch (kind) {
                    case BOOL -> "expected true or false";
                    case INT, UINT -> "expected an integer";
                    case FLOAT -> "expected a number, \"NaN\", \"Infinity\" or \"-Infinity\"";
                    case COMPLEX -> "expected [real, imaginary], each a number, \"NaN\", \"Infinity\" or \"-Infinity\"";
                    case TIME -> "expected a 64-bit integer (-9223372036854775808 is NaT)";
                    case UNICODE, VLEN_STRING -> "expected a string or 0";
                    case BYTES_S, VOID -> "expected base64 text or 0";
                    default -> "expected 0 or a string";
                } + ", or null");
    }

    /**
     * The v2 {@code fill_value} for a v3 one (already valid for the v3 type).
     *
     * @throws UnsupportedFormatException at {@code /fill_value} when v2 cannot hold it
     */
    JsonNode fillToV2(JsonNode f, String base) {
        String p = base + "/fill_value";
        switch (kind) {
            case FLOAT:
                return f.isTextual() && f.textValue().startsWith("0x") ? hexFloat(f.textValue()) : f;
            case COMPLEX: {
                ArrayNode a = JSON.arrayNode();
                for (JsonNode c : f) {
                    a.add(c.isTextual() && c.textValue().startsWith("0x") ? hexFloat(c.textValue()) : c);
                }
                return a;
            }
            case TIME:
                return f.isTextual() ? LongNode.valueOf(Long.MIN_VALUE) : f;
            case BYTES_S:
                // null_terminated_bytes' fill value is base64 text already; NumPy's S strings drop trailing NULs
                return TextNode.valueOf(Base64.getEncoder().encodeToString(stripZeros(Base64.getDecoder().decode(f.asText()))));
            case VOID: {
                byte[] b = new byte[f.size()];
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) f.get(i).asInt();
                }
                return TextNode.valueOf(Base64.getEncoder().encodeToString(b));
            }
            case VLEN_BYTES: {
                byte[] b;
                if (f.isArray()) {
                    b = new byte[f.size()];
                    for (int i = 0; i < b.length; i++) {
                        b[i] = (byte) f.get(i).asInt();
                    }
                } else {
                    try {
                        b = Base64.getDecoder().decode(f.asText());
                    } catch (IllegalArgumentException e) {
                        throw new UnsupportedFormatException(p, "the bytes fill value " + Json.abbreviate(f)
                                + " is not base64 text");
                    }
                }
                if (b.length == 0) {
                    return IntNode.valueOf(0);
                }
                try {
                    return TextNode.valueOf(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString());
                } catch (CharacterCodingException e) {
                    throw new UnsupportedFormatException(p, "the bytes fill value " + Json.abbreviate(f) + " is no UTF-8"
                            + " text, and a v2 object array's fill value is JSON text");
                }
            }
            default:
                return f;
        }
    }

    private static byte[] stripZeros(byte[] b) {
        int n = b.length;
        while (n > 0 && b[n - 1] == 0) {
            n--;
        }
        return java.util.Arrays.copyOf(b, n);
    }

    private static boolean isZero(JsonNode f) {
        return f.isIntegralNumber() && f.canConvertToLong() && f.asLong() == 0;
    }

    private static ArrayNode rawFill(byte[] b) {
        ArrayNode a = JSON.arrayNode();
        for (byte x : b) {
            a.add(x & 0xFF);
        }
        return a;
    }

    private static BigInteger integral(JsonNode f) {
        if (f.isIntegralNumber()) {
            return f.bigIntegerValue();
        }
        if (f.isFloatingPointNumber()) {
            try {
                return f.decimalValue().toBigIntegerExact();    // 0.0 for an integer dtype, as some writers put it
            } catch (ArithmeticException e) {
                return null;
            }
        }
        return null;
    }

    private static JsonNode integerNode(BigInteger v) {
        return v.bitLength() < 64 ? LongNode.valueOf(v.longValue()) : BigIntegerNode.valueOf(v);
    }

    private static JsonNode floatFill(JsonNode f) {
        if (f.isNumber()) {
            return f;
        }
        if (f.isTextual() && Set.of("NaN", "Infinity", "-Infinity").contains(f.textValue())) {
            return f;
        }
        return null;
    }

    /** A v3 hexadecimal float fill value ({@code "0x7fc00000"}) as v2 writes floats; v2 has no NaN payloads. */
    private JsonNode hexFloat(String hex) {
        long bits = Long.parseUnsignedLong(hex.substring(2), 16);
        int bytes = kind == Kind.COMPLEX ? size / 2 : size;
        double d = switch (bytes) {
            case 2 -> halfToDouble((int) bits);
            case 4 -> Float.intBitsToFloat((int) bits);
            default -> Double.longBitsToDouble(bits);
        };
        if (Double.isNaN(d)) {
            return TextNode.valueOf("NaN");
        }
        if (Double.isInfinite(d)) {
            return TextNode.valueOf(d > 0 ? "Infinity" : "-Infinity");
        }
        return DoubleNode.valueOf(d);
    }

    private static double halfToDouble(int h) {
        int sign = (h >> 15) & 1;
        int exp = (h >> 10) & 0x1F;
        int mant = h & 0x3FF;
        double v;
        if (exp == 0) {
            v = mant * Math.pow(2, -24);
        } else if (exp == 31) {
            v = mant == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
        } else {
            v = (1 + mant / 1024.0) * Math.pow(2, exp - 15);
        }
        return sign == 1 ? -v : v;
    }
}
