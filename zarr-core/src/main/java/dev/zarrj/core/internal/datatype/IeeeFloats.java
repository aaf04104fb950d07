package dev.zarrj.core.internal.datatype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.Float16;
import java.math.BigDecimal;
import java.util.HexFormat;

/**
 * The JSON forms of one IEEE 754 value of 2, 4 or 8 bytes (data-types.rst, "Permitted fill
 * values"), handled as raw bit patterns so that NaN payloads are never touched by float arithmetic.
 */
final class IeeeFloats {
    private IeeeFloats() {}

    /** The quiet NaN that the string {@code "NaN"} denotes, for a value of {@code width} bytes. */
    static long canonicalNaN(int width) {
        return switch (width) {
            case 2 -> 0x7e00L;
            case 4 -> 0x7fc00000L;
            case 8 -> 0x7ff8000000000000L;
            default -> throw new IllegalArgumentException("no IEEE 754 format of " + width + " bytes");
        };
    }

    private static long infinity(int width) {
        return switch (width) {
            case 2 -> 0x7c00L;
            case 4 -> 0x7f800000L;
            default -> 0x7ff0000000000000L;
        };
    }

    private static long signBit(int width) {
        return 1L << (8 * width - 1);
    }

    /**
     * Parses one value and returns its bit pattern in the low {@code 8 * width} bits.
     *
     * @param what names the value in messages, e.g. {@code "the float32 fill value"}
     */
    static long parse(JsonNode json, int width, String pointer, String what) {
        if (json.isTextual()) {
            String s = json.textValue();
            if (s.equals("NaN")) {
                return canonicalNaN(width);
            } else if (s.equals("Infinity")) {
                return infinity(width);
            } else if (s.equals("-Infinity")) {
                return infinity(width) | signBit(width);
            } else if (isHex(s, width)) {
                return Long.parseUnsignedLong(s.substring(2), 16);
            }
            throw notAllowed(json, width, pointer, what);
        }
        if (json.isFloat() || json.isDouble()) {
            double d = json.doubleValue();
            if (Double.isNaN(d)) {
                // Only a node built in code (or a lenient parser) holds this: JSON numbers are never NaN.
                throw notAllowed(json, width, pointer, what);
            }
            return fromDouble(d, width);
        }
        if (json.isNumber()) {
            // Integers and BigDecimals: round the exact decimal value once, to the target format.
            return fromDecimal(json.decimalValue(), width);
        }
        throw notAllowed(json, width, pointer, what);
    }

    private static boolean isHex(String s, int width) {
        if (s.length() != 2 + 2 * width || !s.startsWith("0x")) {
            return false;
        }
        for (int i = 2; i < s.length(); i++) {
            char c = s.charAt(i);
            // ASCII only: Character.digit would also take full-width and other Unicode digits.
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
                return false;
            }
        }
        return true;
    }

    private static InvalidMetadataException notAllowed(JsonNode json, int width, String pointer, String what) {
        return new InvalidMetadataException(pointer, what + " must be a JSON number, \"NaN\", \"Infinity\", "
                + "\"-Infinity\" or \"0x\" followed by " + 2 * width + " hex digits; found " + CoreDataType.show(json));
    }

    /**
     * A double from the JSON parser, already rounded once from the decimal text: rounded here once
     * more, directly to the target width (for binary16 not through float, which would be a third).
     */
    private static long fromDouble(double d, int width) {
        return switch (width) {
            case 2 -> roundToHalf(d);
            case 4 -> Float.floatToRawIntBits((float) d) & 0xffffffffL;
            default -> Double.doubleToRawLongBits(d);
        };
    }

    private static long fromDecimal(BigDecimal v, int width) {
        return switch (width) {
            // Both parsers round the decimal string correctly (to nearest, ties to even).
            case 8 -> Double.doubleToRawLongBits(Double.parseDouble(v.toString()));
            case 4 -> Float.floatToRawIntBits(Float.parseFloat(v.toString())) & 0xffffffffL;
            default -> roundToHalf(roundToOdd(v));
        };
    }

    /**
     * The double next to {@code v} whose last significand bit is 1, or {@code v} itself when exact.
     * Rounding to odd at 53 bits and then to nearest at 11 bits gives the binary16 value nearest to
     * {@code v}, which rounding to nearest twice does not (2049.0000000000000001 would become 2048).
     */
    static double roundToOdd(BigDecimal v) {
        double d = Double.parseDouble(v.toString());
        if (Double.isInfinite(d)) {
            return d; // beyond Double.MAX_VALUE, far past binary16's overflow threshold
        }
        int cmp = v.compareTo(new BigDecimal(d));
        if (cmp == 0 || (Double.doubleToRawLongBits(d) & 1) != 0) {
            return d;
        }
        return cmp > 0 ? Math.nextUp(d) : Math.nextDown(d);
    }

    /** The binary16 bits nearest to {@code d}: ties to even, overflow to infinity, one rounding. */
    static long roundToHalf(double d) {
        long bits = Double.doubleToRawLongBits(d);
        int sign = (int) (bits >>> 48) & 0x8000;
        int exp = (int) (bits >>> 52) & 0x7ff;
        long mant = bits & 0xfffffffffffffL;
        if (exp == 0x7ff) {
            if (mant == 0) {
                return sign | 0x7c00;
            }
            int payload = (int) (mant >>> 42);
            return sign | 0x7c00 | (payload == 0 ? 0x200 : payload);
        }
        int e = exp - 1023 + 15; // the binary16 biased exponent
        if (e >= 0x1f) {
            return sign | 0x7c00;
        }
        int half;
        long rem;
        long mid;
        if (e <= 0) {
            if (e < -10) {
                return sign; // below 2^-25, half the smallest subnormal: rounds to zero
            }
            // Subnormal result in units of 2^-24: the significand with its hidden bit, shifted.
            long m = mant | (1L << 52);
            int shift = 43 - e;
            half = (int) (m >>> shift);
            rem = m & ((1L << shift) - 1);
            mid = 1L << (shift - 1);
        } else {
            half = (e << 10) | (int) (mant >>> 42);
            rem = mant & ((1L << 42) - 1);
            mid = 1L << 41;
        }
        if (rem > mid || (rem == mid && (half & 1) != 0)) {
            half++; // may carry into the exponent, up to infinity, which is right
        }
        return sign | half;
    }

    /** The canonical JSON form of a bit pattern of {@code width} bytes. */
    static JsonNode toJson(long bits, int width) {
        int exponentBits = width == 2 ? 5 : width == 4 ? 8 : 11;
        int mantissaBits = 8 * width - 1 - exponentBits;
        long expField = (bits >>> mantissaBits) & ((1L << exponentBits) - 1);
        long mantissa = bits & ((1L << mantissaBits) - 1);
        if (expField == (1L << exponentBits) - 1) {
            if (mantissa == 0) {
                return TextNode.valueOf((bits & signBit(width)) == 0 ? "Infinity" : "-Infinity");
            }
            return bits == canonicalNaN(width) ? TextNode.valueOf("NaN") : TextNode.valueOf(hex(bits, width));
        }
        // Finite from here on, so the float conversions below cannot disturb a NaN.
        return switch (width) {
            case 2 -> shortestDecimal(Float16.toFloat((short) bits));
            case 4 -> shortestDecimal(Float.intBitsToFloat((int) bits));
            default -> DoubleNode.valueOf(Double.longBitsToDouble(bits));
        };
    }

    /**
     * A float as the double nearest to its {@link Float#toString} digits: it prints as those digits
     * (0.1f as {@code 0.1}), and equals the node a JSON parser produces when reading them back.
     */
    private static JsonNode shortestDecimal(float f) {
        return DoubleNode.valueOf(Double.parseDouble(Float.toString(f)));
    }

    /** {@code "0x"} and the bit pattern as {@code 2 * width} lower-case hex digits. */
    static String hex(long bits, int width) {
        String all = HexFormat.of().toHexDigits(bits);
        return "0x" + all.substring(all.length() - 2 * width);
    }
}
