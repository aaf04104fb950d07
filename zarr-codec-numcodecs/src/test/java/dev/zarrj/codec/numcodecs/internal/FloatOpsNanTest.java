package dev.zarrj.codec.numcodecs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The float arithmetic of fixedscaleoffset and quantize returns NaN operands as they are, sign and
 * payload included. {@code Math.rint}'s Java implementation, which the interpreter runs, turns a
 * negative NaN positive while the JIT's instruction keeps it: a chunk encoded once interpreted and
 * once compiled differed (the conformance runner saw AA07 fail once).
 */
class FloatOpsNanTest {
    private static final long NEGATIVE_NAN = 0xfff8_0000_0000_1234L;

    @Test
    void roundingKeepsANegativeNan() {
        double nan = Double.longBitsToDouble(NEGATIVE_NAN);
        assertEquals(NEGATIVE_NAN, Double.doubleToRawLongBits(FloatOps.rint(nan)));
    }

    @Test
    void everyOperationReturnsTheNanOperandTheFirstWhenBothAre() {
        double nan = Double.longBitsToDouble(NEGATIVE_NAN);
        double other = Double.longBitsToDouble(0x7ff8_0000_0000_0042L);
        for (NumpyType t : new NumpyType[] {NumpyType.FLOAT64, NumpyType.FLOAT32, NumpyType.FLOAT16}) {
            assertEquals(NEGATIVE_NAN, Double.doubleToRawLongBits(FloatOps.sub(t, nan, 0.5)), t + " sub");
            assertEquals(NEGATIVE_NAN, Double.doubleToRawLongBits(FloatOps.mul(t, 4, nan)), t + " mul");
            assertEquals(NEGATIVE_NAN, Double.doubleToRawLongBits(FloatOps.div(t, nan, other)), t + " div");
            assertEquals(Double.doubleToRawLongBits(other), Double.doubleToRawLongBits(FloatOps.add(t, other, nan)),
                    t + " add");
        }
    }
}
