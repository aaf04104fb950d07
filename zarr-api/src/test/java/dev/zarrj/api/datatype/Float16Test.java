package dev.zarrj.api.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;
import org.junit.jupiter.api.Test;

class Float16Test {

    /** The value of binary16 bits from the definition; exponent 31 is read as 2^16 (for rounding). */
    static double reference(int bits) {
        int sign = (bits >> 15) & 1;
        int exp = (bits >> 10) & 0x1f;
        int mant = bits & 0x3ff;
        double v = exp == 0 ? mant * 0x1p-24 : (1 + mant / 1024.0) * Math.pow(2, exp - 15);
        return sign == 1 ? -v : v;
    }

    /** The correctly rounded (nearest, ties to even) binary16 bits of a finite float, by search. */
    static short referenceFromFloat(float f) {
        int sign = Float.floatToRawIntBits(f) < 0 ? 0x8000 : 0;
        double x = Math.abs((double) f);
        // Positive finite halves are ordered like their bits; 0x7c00 stands for 2^16, the
        // overflow threshold's upper neighbour (IEEE rounds as if the exponent were unbounded).
        int lo = 0;
        int hi = 0x7c00;
        if (x >= reference(hi)) {
            return (short) (sign | 0x7c00);
        }
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (reference(mid) <= x) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        double below = x - reference(lo);
        double above = reference(hi) - x;
        int r = below < above ? lo : below > above ? hi : ((lo & 1) == 0 ? lo : hi);
        return (short) (sign | r);
    }

    @Test
    void toFloatMatchesTheDefinitionForEveryBitPattern() {
        for (int b = 0; b < 0x10000; b++) {
            float f = Float16.toFloat((short) b);
            int exp = (b >> 10) & 0x1f;
            if (exp == 0x1f) {
                if ((b & 0x3ff) == 0) {
                    assertEquals((b & 0x8000) == 0 ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY, f);
                } else {
                    assertTrue(Float.isNaN(f), Integer.toHexString(b));
                }
                continue;
            }
            assertEquals(reference(b), (double) f, 0.0, Integer.toHexString(b));
            assertEquals((b & 0x8000) != 0, Float.floatToRawIntBits(f) < 0, "sign of " + Integer.toHexString(b));
        }
    }

    @Test
    void everyBitPatternRoundTrips() {
        for (int b = 0; b < 0x10000; b++) {
            short bits = (short) b;
            float f = Float16.toFloat(bits);
            short back = Float16.fromFloat(f);
            if (Float.isNaN(f)) {
                assertTrue(Float.isNaN(Float16.toFloat(back)), "NaN stays NaN: " + Integer.toHexString(b));
                if ((b & 0x200) != 0) {
                    assertEquals(bits, back, "quiet NaN keeps its payload: " + Integer.toHexString(b));
                }
            } else {
                assertEquals(bits, back, "round trip of 0x" + Integer.toHexString(b));
            }
        }
    }

    @Test
    void negativeZero() {
        assertEquals((short) 0x8000, Float16.fromFloat(-0f));
        assertEquals((short) 0x0000, Float16.fromFloat(0f));
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(Float16.toFloat((short) 0x8000)));
        assertEquals((short) 0x8000, Float16.fromFloat(-1e-10f), "a tiny negative rounds to -0");
    }

    @Test
    void overflowToInfinity() {
        assertEquals((short) 0x7bff, Float16.fromFloat(65504f));
        assertEquals((short) 0x7bff, Float16.fromFloat(65519f));
        assertEquals((short) 0x7bff, Float16.fromFloat(Math.nextDown(65520f)));
        assertEquals((short) 0x7c00, Float16.fromFloat(65520f), "the tie above the largest half rounds to infinity");
        assertEquals((short) 0x7c00, Float16.fromFloat(1e10f));
        assertEquals((short) 0xfc00, Float16.fromFloat(-65520f));
        assertEquals((short) 0x7c00, Float16.fromFloat(Float.POSITIVE_INFINITY));
        assertEquals((short) 0xfc00, Float16.fromFloat(Float.NEGATIVE_INFINITY));
        assertEquals((short) 0x7c00, Float16.fromFloat(Float.MAX_VALUE));
    }

    @Test
    void subnormals() {
        assertEquals((short) 0x0001, Float16.fromFloat(0x1p-24f), "smallest subnormal");
        assertEquals((short) 0x03ff, Float16.fromFloat(0x3ffp-24f), "largest subnormal");
        assertEquals((short) 0x0400, Float16.fromFloat(0x1p-14f), "smallest normal");
        assertEquals((short) 0x0000, Float16.fromFloat(0x1p-25f), "half the smallest subnormal ties to even 0");
        assertEquals((short) 0x0001, Float16.fromFloat(Math.nextUp(0x1p-25f)));
        assertEquals((short) 0x0002, Float16.fromFloat(0x3p-25f), "1.5 units ties to even 2");
        assertEquals((short) 0x0002, Float16.fromFloat(0x5p-25f), "2.5 units ties to even 2");
        assertEquals((short) 0x0400, Float16.fromFloat(0x7ffp-25f), "rounds up out of the subnormals");
        assertEquals((short) 0x0000, Float16.fromFloat(Float.MIN_VALUE), "a float subnormal is far below");
        assertEquals((float) 0x1p-24, Float16.toFloat((short) 0x0001));
        assertEquals(-0x3ffp-24f, Float16.toFloat((short) 0x83ff));
    }

    @Test
    void tiesToEvenBetweenNormals() {
        // Between 1 (0x3c00) and 1 + 2^-10 (0x3c01): the midpoint goes to 0x3c00 (even).
        assertEquals((short) 0x3c00, Float16.fromFloat(1 + 0x1p-11f));
        assertEquals((short) 0x3c01, Float16.fromFloat(Math.nextUp(1 + 0x1p-11f)));
        assertEquals((short) 0x3c00, Float16.fromFloat(Math.nextDown(1 + 0x1p-11f)));
        // Between 0x3c01 and 0x3c02: the midpoint goes up to 0x3c02 (even).
        assertEquals((short) 0x3c02, Float16.fromFloat(1 + 0x3p-11f));
        // Rounding up carries into the exponent: the tie between 0x3fff (2 - 2^-10) and 2 goes to 2.
        assertEquals((short) 0x4000, Float16.fromFloat(2 - 0x1p-11f));
        assertEquals((short) 0x3fff, Float16.fromFloat(Math.nextDown(2 - 0x1p-11f)));
    }

    @Test
    void everyMidpointAndItsNeighboursRoundCorrectly() {
        for (int b = 0; b < 0x7c00; b++) {
            float mid = (float) ((reference(b) + reference(b + 1)) / 2); // exact: 12 bits of precision
            for (float f : new float[] {mid, Math.nextUp(mid), Math.nextDown(mid), (float) reference(b)}) {
                for (float s : new float[] {f, -f}) {
                    short want = referenceFromFloat(s);
                    short got = Float16.fromFloat(s);
                    if (want != got) {
                        fail("fromFloat(" + s + ") = 0x" + Integer.toHexString(got & 0xffff) + ", want 0x"
                                + Integer.toHexString(want & 0xffff));
                    }
                }
            }
        }
    }

    @Test
    void randomFloatsRoundCorrectly() {
        Random rnd = new Random(16);
        for (int i = 0; i < 1_000_000; i++) {
            // Exponents around the float16 range, plus fully random bit patterns.
            float f = i % 2 == 0
                    ? Float.intBitsToFloat(rnd.nextInt())
                    : (float) (rnd.nextDouble() * Math.pow(2, rnd.nextInt(46) - 28)) * (rnd.nextBoolean() ? 1 : -1);
            if (Float.isNaN(f)) {
                assertTrue(Float.isNaN(Float16.toFloat(Float16.fromFloat(f))));
                continue;
            }
            if (Float.isInfinite(f)) {
                continue;
            }
            short want = referenceFromFloat(f);
            short got = Float16.fromFloat(f);
            if (want != got) {
                fail("fromFloat(" + f + ") = 0x" + Integer.toHexString(got & 0xffff) + ", want 0x"
                        + Integer.toHexString(want & 0xffff));
            }
        }
    }

    @Test
    void nanPayloadsAndQuieting() {
        assertTrue(Float.isNaN(Float16.toFloat(Float16.fromFloat(Float.NaN))));
        assertEquals((short) 0x7e00, Float16.fromFloat(Float.NaN), "the canonical NaN");
        // A float NaN whose payload sits below float16's mantissa still becomes a NaN, not infinity.
        short low = Float16.fromFloat(Float.intBitsToFloat(0x7f800001));
        assertEquals(0x7c00, low & 0x7c00);
        assertTrue((low & 0x3ff) != 0, "NaN, not infinity: 0x" + Integer.toHexString(low & 0xffff));
        short neg = Float16.fromFloat(Float.intBitsToFloat(0xffc00000));
        assertEquals((short) 0xfe00, neg, "the sign of a NaN is kept");
        assertEquals(0x7fc02000, Float.floatToRawIntBits(Float16.toFloat((short) 0x7e01)), "payload to top bits");
    }
}
