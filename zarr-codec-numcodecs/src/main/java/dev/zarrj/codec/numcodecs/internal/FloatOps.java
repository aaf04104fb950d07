package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.datatype.Float16;

/**
 * Float arithmetic in the precision of a numpy float type: float64 as is, float32 rounded after
 * every operation, float16 computed in float32 and rounded to binary16 after every operation (as
 * numpy's float16 loops do).
 */
final class FloatOps {
    private FloatOps() {}

    /** {@code v} rounded to the type (the value a Python float scalar takes when numpy casts it). */
    static double round(NumpyType t, double v) {
        return switch (t) {
            case FLOAT16 -> Float16.toFloat(NumpyType.halfOf(v));
            case FLOAT32 -> (float) v;
            default -> v;
        };
    }

    private static double result(NumpyType t, float single, double exact) {
        return switch (t) {
            case FLOAT16 -> Float16.toFloat(Float16.fromFloat(single));
            case FLOAT32 -> single;
            default -> exact;
        };
    }

    static double sub(NumpyType t, double a, double b) {
        return isNaN(a, b) ? nanOperand(a, b) : result(t, (float) a - (float) b, a - b);
    }

    static double add(NumpyType t, double a, double b) {
        return isNaN(a, b) ? nanOperand(a, b) : result(t, (float) a + (float) b, a + b);
    }

    static double mul(NumpyType t, double a, double b) {
        return isNaN(a, b) ? nanOperand(a, b) : result(t, (float) a * (float) b, a * b);
    }

    static double div(NumpyType t, double a, double b) {
        return isNaN(a, b) ? nanOperand(a, b) : result(t, (float) a / (float) b, a / b);
    }

    private static boolean isNaN(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b);
    }

    /**
     * The NaN operand of {@code a op b}, the first when both are, as x86 hardware gives numpy. Java
     * leaves which NaN an operation returns unspecified, and the JIT and the interpreter differ
     * (a commutative operation may have its operands swapped), which would make encoding the same
     * chunk differ from run to run.
     */
    private static double nanOperand(double a, double b) {
        return Double.isNaN(a) ? a : b;
    }

    /**
     * numpy's around to 0 decimals: round half to even; exact in every precision. A NaN is
     * returned as it is: {@code Math.rint} keeps a NaN's sign when the JIT compiles it to the
     * hardware instruction, and drops it in the interpreter's Java implementation.
     */
    static double rint(double v) {
        return Double.isNaN(v) ? v : Math.rint(v);
    }
}
