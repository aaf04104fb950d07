package dev.zarrj.ext.mldtypes.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.InvalidMetadataException;
import java.math.BigDecimal;
import java.util.HexFormat;

/**
 * A binary floating-point format of at most 16 bits: sign (unless unsigned), {@code expBits}
 * exponent bits with a bias, {@code mantBits} mantissa bits, subnormals when the exponent field is
 * 0, and one of four conventions for the special values ({@link Style}).
 *
 * <p>Decoding is exact (every value is a double, and a float). Encoding rounds to nearest, ties
 * to even, once, from the double; beyond the largest finite value it gives infinity (IEEE
 * formats), NaN (formats with NaN but no infinity) or the largest finite value (formats with
 * neither, the MX {@code float6}/{@code float4} types), with the sign kept.
 */
record MiniFloat(String name, int bits, int expBits, int mantBits, int bias, Style style, long nanPattern)
        implements Component {
    /** Which patterns are special. */
    enum Style {
        /** IEEE 754: exponent all ones is infinity (mantissa 0) or NaN. */
        IEEE,
        /** fnuz: no infinity, no negative zero; {@code 0x80} is the only NaN. */
        FNUZ,
        /** fn (MX float6/float4): every pattern is a finite number. */
        FINITE,
        /** e8m0fnu: unsigned powers of two 2^-127..2^127, no zero, {@code 0xff} is NaN. */
        E8M0
    }

    static final MiniFloat BFLOAT16 = new MiniFloat("bfloat16", 16, 8, 7, 127, Style.IEEE, 0x7fc0);
    static final MiniFloat FLOAT16 = new MiniFloat("float16", 16, 5, 10, 15, Style.IEEE, 0x7e00);
    static final MiniFloat FLOAT8_E3M4 = new MiniFloat("float8_e3m4", 8, 3, 4, 3, Style.IEEE, 0x78);
    static final MiniFloat FLOAT8_E4M3 = new MiniFloat("float8_e4m3", 8, 4, 3, 7, Style.IEEE, 0x7c);
    static final MiniFloat FLOAT8_E4M3B11FNUZ = new MiniFloat("float8_e4m3b11fnuz", 8, 4, 3, 11, Style.FNUZ, 0x80);
    static final MiniFloat FLOAT8_E4M3FNUZ = new MiniFloat("float8_e4m3fnuz", 8, 4, 3, 8, Style.FNUZ, 0x80);
    static final MiniFloat FLOAT8_E5M2 = new MiniFloat("float8_e5m2", 8, 5, 2, 15, Style.IEEE, 0x7e);
    static final MiniFloat FLOAT8_E5M2FNUZ = new MiniFloat("float8_e5m2fnuz", 8, 5, 2, 16, Style.FNUZ, 0x80);
    static final MiniFloat FLOAT8_E8M0FNU = new MiniFloat("float8_e8m0fnu", 8, 8, 0, 127, Style.E8M0, 0xff);
    static final MiniFloat FLOAT6_E2M3FN = new MiniFloat("float6_e2m3fn", 6, 2, 3, 1, Style.FINITE, -1);
    static final MiniFloat FLOAT6_E3M2FN = new MiniFloat("float6_e3m2fn", 6, 3, 2, 3, Style.FINITE, -1);
    static final MiniFloat FLOAT4_E2M1FN = new MiniFloat("float4_e2m1fn", 4, 2, 1, 1, Style.FINITE, -1);

    private static final long OVERFLOW = -1;

    private long mask() {
        return (1L << bits) - 1;
    }

    private boolean signed() {
        return style != Style.E8M0;
    }

    private long signBit() {
        return 1L << (bits - 1);
    }

    /** The largest finite magnitude's pattern. */
    private long maxFinite() {
        return switch (style) {
            case IEEE -> (((1L << expBits) - 1) << mantBits) - 1;
            case FNUZ, FINITE -> signBit() - 1;
            case E8M0 -> 0xfe;
        };
    }

    private long infinity() {
        return ((1L << expBits) - 1) << mantBits;
    }

    boolean hasNaN() {
        return nanPattern >= 0;
    }

    boolean hasInfinity() {
        return style == Style.IEEE;
    }

    @Override
    public boolean isInteger() {
        return false;
    }

    @Override
    public double decode(long pattern) {
        long p = pattern & mask();
        if (style == Style.E8M0) {
            return p == 0xff ? Double.NaN : Math.scalb(1.0, (int) p - 127);
        }
        if (style == Style.FNUZ && p == signBit()) {
            return Double.NaN;
        }
        boolean negative = (p & signBit()) != 0;
        long mag = p & (signBit() - 1);
        int e = (int) (mag >>> mantBits);
        long m = mag & ((1L << mantBits) - 1);
        double v;
        if (style == Style.IEEE && e == (1 << expBits) - 1) {
            v = m == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
        } else if (e == 0) {
            v = Math.scalb((double) m, 1 - bias - mantBits);
        } else {
            v = Math.scalb((double) ((1L << mantBits) | m), e - bias - mantBits);
        }
        return negative ? -v : v;
    }

    @Override
    public long encode(double value) {
        if (Double.isNaN(value)) {
            if (!hasNaN()) {
                throw new IllegalArgumentException(name + " has no NaN");
            }
            return nanPattern;
        }
        boolean negative = Double.doubleToRawLongBits(value) < 0;
        if (style == Style.E8M0 && (negative || value == 0)) {
            return nanPattern; // unsigned and without zero: no nearer value exists
        }
        long mag = magnitude(Math.abs(value));
        if (mag == OVERFLOW) {
            return switch (style) {
                case IEEE -> infinity() | (negative ? signBit() : 0);
                case FNUZ, E8M0 -> nanPattern;
                case FINITE -> maxFinite() | (negative ? signBit() : 0);
            };
        }
        if (mag == 0 && style == Style.FNUZ) {
            return 0; // no negative zero: 0x80 is NaN
        }
        return negative && signed() ? mag | signBit() : mag;
    }

    /** The pattern of the magnitude nearest {@code a} (ties to even), or {@link #OVERFLOW}. */
    private long magnitude(double a) {
        if (Double.isInfinite(a)) {
            return OVERFLOW;
        }
        if (a == 0) {
            return 0;
        }
        int e = Math.getExponent(a);
        if (style == Style.E8M0) {
            // Significand in [1, 2) rounds to 1 or 2 (a tie to 2, the even one).
            int exp = e + (Math.rint(Math.scalb(a, -e)) == 2 ? 1 : 0);
            if (exp > 127) {
                return OVERFLOW;
            }
            return Math.max(exp, -127) + 127;
        }
        int minExp = 1 - bias;
        int quantum = Math.max(e, minExp) - mantBits;
        long n = (long) Math.rint(Math.scalb(a, -quantum)); // the significand in units of the last place
        long mag = e < minExp ? n : ((long) (e + bias) << mantBits) + n - (1L << mantBits);
        return mag > maxFinite() ? OVERFLOW : mag; // a carry past the largest value is an overflow
    }

    @Override
    public long parse(JsonNode json, String pointer, String what) {
        if (json.isTextual()) {
            String s = json.textValue();
            if (s.equals("NaN") && hasNaN()) {
                return nanPattern;
            }
            if (hasInfinity() && (s.equals("Infinity") || s.equals("-Infinity"))) {
                return infinity() | (s.startsWith("-") ? signBit() : 0);
            }
            if (isHex(s)) {
                return Long.parseLong(s.substring(2), 16);
            }
            throw notAllowed(json, pointer, what);
        }
        if (!json.isNumber()) {
            throw notAllowed(json, pointer, what);
        }
        double d;
        if (json.isFloat() || json.isDouble()) {
            d = json.doubleValue();
            if (Double.isNaN(d)) {
                throw notAllowed(json, pointer, what);
            }
        } else {
            d = roundToOdd(json.decimalValue());
        }
        if (style == Style.E8M0 && !(d > 0)) {
            throw new InvalidMetadataException(pointer, what + " must be positive: " + name + " has no zero and no sign;"
                    + " found " + json);
        }
        if (!hasInfinity() && magnitude(Math.abs(d)) == OVERFLOW) {
            throw new InvalidMetadataException(pointer, what + " " + json + " is beyond the largest " + name + " value, "
                    + decode(maxFinite()) + ", and " + name + " has no infinity");
        }
        return encode(d);
    }

    private boolean isHex(String s) {
        if (s.length() != 2 + 2 * bytes() || !s.startsWith("0x")) {
            return false;
        }
        for (int i = 2; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
                return false;
            }
        }
        return Long.parseLong(s.substring(2), 16) <= mask();
    }

    private InvalidMetadataException notAllowed(JsonNode json, String pointer, String what) {
        StringBuilder forms = new StringBuilder("a JSON number");
        if (hasNaN()) {
            forms.append(", \"NaN\"");
        }
        if (hasInfinity()) {
            forms.append(", \"Infinity\", \"-Infinity\"");
        }
        forms.append(" or \"0x\" followed by ").append(2 * bytes()).append(" hex digits");
        if (bits % 8 != 0) {
            forms.append(" up to 0x").append(Long.toHexString(mask()));
        }
        String s = json.toString();
        return new InvalidMetadataException(pointer, what + " must be " + forms + "; found "
                + (s.length() <= 80 ? s : s.substring(0, 77) + "..."));
    }

    @Override
    public JsonNode toJson(long pattern) {
        long p = pattern & mask();
        double v = decode(p);
        if (Double.isNaN(v)) {
            return p == nanPattern ? TextNode.valueOf("NaN") : TextNode.valueOf(hex(p));
        }
        if (Double.isInfinite(v)) {
            return TextNode.valueOf(v > 0 ? "Infinity" : "-Infinity");
        }
        return DoubleNode.valueOf(v);
    }

    String hex(long pattern) {
        String all = HexFormat.of().toHexDigits(pattern);
        return "0x" + all.substring(all.length() - 2 * bytes());
    }

    /**
     * The double next to {@code v} whose last significand bit is 1, or {@code v} itself when exact:
     * rounding that once more to at most 16 bits gives the value nearest {@code v}.
     */
    static double roundToOdd(BigDecimal v) {
        double d = Double.parseDouble(v.toString());
        if (Double.isInfinite(d)) {
            return d;
        }
        int cmp = v.compareTo(new BigDecimal(d));
        if (cmp == 0 || (Double.doubleToRawLongBits(d) & 1) != 0) {
            return d;
        }
        return cmp > 0 ? Math.nextUp(d) : Math.nextDown(d);
    }
}
