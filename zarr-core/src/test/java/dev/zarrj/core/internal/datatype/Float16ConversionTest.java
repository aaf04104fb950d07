package dev.zarrj.core.internal.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.zarrj.api.datatype.Float16;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The binary16 conversions: {@code zarr-api}'s {@link Float16} and the double rounding in
 * {@link IeeeFloats#roundToHalf}, checked against an independent definition of binary16 values.
 */
class Float16ConversionTest {

    /** The exact value of finite binary16 bits, computed without any of the code under test. */
    private static double valueOf(int h) {
        int exp = (h >>> 10) & 0x1f;
        int mant = h & 0x3ff;
        double magnitude = exp == 0 ? Math.scalb((double) mant, -24) : Math.scalb((double) (1024 + mant), exp - 25);
        return (h & 0x8000) != 0 ? -magnitude : magnitude;
    }

    private static boolean isNaN(int h) {
        return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
    }

    private static boolean isInfinite(int h) {
        return (h & 0x7fff) == 0x7c00;
    }

    @Test
    void toFloatIsExactForEveryBitPattern() {
        for (int h = 0; h < 0x10000; h++) {
            float f = Float16.toFloat((short) h);
            if (isNaN(h)) {
                assertTrue(Float.isNaN(f), () -> "NaN expected");
            } else if (isInfinite(h)) {
                assertEquals((h & 0x8000) == 0 ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY, f);
            } else {
                double expected = valueOf(h);
                // Compare bits so that -0.0 and 0.0 differ.
                assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(f),
                        String.format("toFloat(0x%04x)", h));
            }
        }
    }

    @Test
    void fromFloatOfToFloatGivesTheSameBitsForEveryNonNaN() {
        for (int h = 0; h < 0x10000; h++) {
            if (isNaN(h)) {
                continue;
            }
            short back = Float16.fromFloat(Float16.toFloat((short) h));
            assertEquals(h, back & 0xffff, String.format("0x%04x came back as 0x%04x", h, back & 0xffff));
        }
    }

    @Test
    void roundToHalfOfEveryBinary16ValueIsExact() {
        for (int h = 0; h < 0x10000; h++) {
            if (isNaN(h)) {
                continue;
            }
            double d = isInfinite(h) ? ((h & 0x8000) == 0 ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY)
                    : valueOf(h);
            assertEquals(h, IeeeFloats.roundToHalf(d), String.format("0x%04x", h));
        }
    }

    /**
     * Between every two neighbouring positive binary16 values: the midpoint goes to the even one,
     * and anything just off the midpoint goes to the nearer one. Both conversions are checked.
     */
    @Test
    void everyMidpointRoundsToEvenAndItsNeighboursToTheNearer() {
        for (int h = 0; h < 0x7c00; h++) {
            double lo = valueOf(h);
            double hi = h + 1 == 0x7c00 ? 65536.0 : valueOf(h + 1); // 65536: where infinity starts rounding
            double mid = (lo + hi) / 2; // exact: 12 significant bits at most
            int even = (h & 1) == 0 ? h : h + 1;
            assertRounds(mid, even);
            assertRounds(Math.nextDown(mid), h);
            assertRounds(Math.nextUp(mid), h + 1);
            assertRounds(-mid, even | 0x8000);
            assertRounds(-Math.nextUp(mid), (h + 1) | 0x8000);
            float midF = (float) mid;
            assertRounds(Math.nextDown(midF), h);
            assertRounds(Math.nextUp(midF), h + 1);
        }
    }

    private static void assertRounds(double d, int expected) {
        int viaDouble = (int) IeeeFloats.roundToHalf(d);
        if (viaDouble != expected) {
            fail(String.format("roundToHalf(%s) = 0x%04x, expected 0x%04x", d, viaDouble, expected));
        }
        float f = (float) d;
        if (f == d) { // only where the float is the same value: otherwise rounding twice is expected to differ
            int viaFloat = Float16.fromFloat(f) & 0xffff;
            if (viaFloat != expected) {
                fail(String.format("Float16.fromFloat(%s) = 0x%04x, expected 0x%04x", f, viaFloat, expected));
            }
        }
    }

    @Test
    void roundToHalfAgreesWithFromFloatOnRandomFloats() {
        SplittableRandom random = new SplittableRandom(16);
        for (int i = 0; i < 1_000_000; i++) {
            float f = Float.intBitsToFloat(random.nextInt());
            if (Float.isNaN(f)) {
                continue;
            }
            long viaDouble = IeeeFloats.roundToHalf(f);
            int viaFloat = Float16.fromFloat(f) & 0xffff;
            assertEquals(viaDouble, viaFloat, () -> "disagree on " + f);
        }
    }

    @Test
    void fromFloatKeepsNaNPayloadsAndSigns() {
        assertEquals(0x7e00, Float16.fromFloat(Float.intBitsToFloat(0x7fc00000)) & 0xffff);
        assertEquals(0xfe00, Float16.fromFloat(Float.intBitsToFloat(0xffc00000)) & 0xffff);
        // A payload below binary16's reach is kept a NaN (quiet), never turned into infinity.
        assertEquals(0x7e00, Float16.fromFloat(Float.intBitsToFloat(0x7f800001)) & 0xffff);
        assertEquals(0x7e00, IeeeFloats.roundToHalf(Double.longBitsToDouble(0x7ff0000000000001L)));
    }

    @Test
    void roundToOddThenToHalfMatchesExactRounding() {
        // Decimals a hair either side of each midpoint in [1024, 2048): one binary16 ulp is 1.
        BigDecimal hair = new BigDecimal("1e-25");
        for (int n = 1024; n < 2048; n++) {
            BigDecimal mid = BigDecimal.valueOf(n).add(new BigDecimal("0.5"));
            long below = IeeeFloats.roundToHalf(IeeeFloats.roundToOdd(mid.subtract(hair)));
            long above = IeeeFloats.roundToHalf(IeeeFloats.roundToOdd(mid.add(hair)));
            long at = IeeeFloats.roundToHalf(IeeeFloats.roundToOdd(mid));
            long lo = IeeeFloats.roundToHalf(n);
            long hi = IeeeFloats.roundToHalf(n + 1);
            assertEquals(lo, below, mid + " - hair");
            assertEquals(hi, above, mid + " + hair");
            assertEquals((lo & 1) == 0 ? lo : hi, at, mid.toString());
        }
    }
}
