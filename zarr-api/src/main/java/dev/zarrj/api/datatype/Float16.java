package dev.zarrj.api.datatype;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Conversions between IEEE 754 binary16 bits and {@code float} (Java 17 has none; Java 20 added
 * {@code Float.float16ToFloat}). Rounding is to nearest, ties to even; NaN payloads keep their
 * top bits.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Float16 {
    private Float16() {}

    /** The float value of binary16 bits (exact: every binary16 value is a float). */
    public static float toFloat(short bits) {
        int h = bits & 0xffff;
        int sign = (h & 0x8000) << 16;
        int exp = (h >>> 10) & 0x1f;
        int mant = h & 0x3ff;
        if (exp == 0x1f) {
            // Infinity or NaN: keep the payload in the top mantissa bits.
            return Float.intBitsToFloat(sign | 0x7f800000 | (mant << 13));
        }
        if (exp == 0) {
            if (mant == 0) {
                return Float.intBitsToFloat(sign);
            }
            // Subnormal: value = mant * 2^-24.
            float v = mant * 0x1p-24f;
            return sign != 0 ? -v : v;
        }
        return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
    }

    /** The binary16 bits nearest to a float (round to nearest even; overflow gives infinity). */
    public static short fromFloat(float value) {
        int f = Float.floatToRawIntBits(value);
        int sign = (f >>> 16) & 0x8000;
        int exp = (f >>> 23) & 0xff;
        int mant = f & 0x7fffff;
        if (exp == 0xff) {
            if (mant == 0) {
                return (short) (sign | 0x7c00);
            }
            int payload = mant >>> 13;
            return (short) (sign | 0x7c00 | (payload == 0 ? 0x200 : payload));
        }
        int e = exp - 127 + 15;
        if (e >= 0x1f) {
            return (short) (sign | 0x7c00);
        }
        if (e <= 0) {
            if (e < -10) {
                return (short) sign;
            }
            // Subnormal result: shift the full significand (with hidden bit) into place.
            int m = mant | 0x800000;
            int shift = 14 - e;
            int half = m >>> shift;
            int rem = m & ((1 << shift) - 1);
            int mid = 1 << (shift - 1);
            if (rem > mid || (rem == mid && (half & 1) != 0)) {
                half++;
            }
            return (short) (sign | half);
        }
        int half = (e << 10) | (mant >>> 13);
        int rem = mant & 0x1fff;
        if (rem > 0x1000 || (rem == 0x1000 && (half & 1) != 0)) {
            half++; // may carry into the exponent, up to infinity, which is correct
        }
        return (short) (sign | half);
    }
}
