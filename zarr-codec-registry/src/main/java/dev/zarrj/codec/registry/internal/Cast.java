package dev.zarrj.codec.registry.internal;


/**
 * The value conversion of {@code cast_value}, after its scalar map: a value the target holds
 * exactly is kept; otherwise it is rounded with {@link Rounding} and, when the result lies outside
 * the target's range, handled by {@link OutOfRange} (or refused when that is not set). NaN and
 * infinities pass only to a format that has them. Refusals are {@link IllegalArgumentException}s
 * naming the value and the target type; the codec turns them into its own errors.
 *
 * @param rounding   how inexact values are rounded
 * @param outOfRange what happens beyond the target's range; null to refuse
 */
record Cast(Rounding rounding, OutOfRange outOfRange) {
    /** The rounding modes of the specification. */
    enum Rounding {
        NEAREST_EVEN("nearest-even"), TOWARDS_ZERO("towards-zero"), TOWARDS_POSITIVE("towards-positive"),
        TOWARDS_NEGATIVE("towards-negative"), NEAREST_AWAY("nearest-away");

        final String json;

        Rounding(String json) {
            this.json = json;
        }

        static Rounding of(String json) {
            for (Rounding r : values()) {
                if (r.json.equals(json)) {
                    return r;
                }
            }
            throw new IllegalArgumentException(json);
        }
    }

    /** What happens to values beyond the target's range. */
    enum OutOfRange {
        CLAMP("clamp"), WRAP("wrap");

        final String json;

        OutOfRange(String json) {
            this.json = json;
        }

        static OutOfRange of(String json) {
            return json.equals("clamp") ? CLAMP : WRAP;
        }
    }

    private static final double TWO_63 = 0x1p63;
    private static final double TWO_64 = 0x1p64;

    /** Converts element {@code i} of {@code in} (of type {@code from}) into element {@code i} of {@code out}. */
    void convert(Elements in, RealType from, int i, Elements out, RealType to) {
        if (from.integer) {
            long v = in.getLong(i);
            if (to.integer) {
                out.setLong(i, integerToInteger(v, from.unsigned64(), to));
            } else {
                out.setDouble(i, integerToFloat(v, from.unsigned64(), to));
            }
        } else {
            double x = in.getDouble(i);
            if (to.integer) {
                out.setLong(i, floatToInteger(x, to));
            } else {
                out.setDouble(i, floatToFloat(x, to));
            }
        }
    }

    long integerToInteger(long v, boolean unsigned, RealType to) {
        if (to.holds(v, unsigned)) {
            return v;
        }
        if (outOfRange == null) {
            throw beyond(unsigned ? Long.toUnsignedString(v) : Long.toString(v), to);
        }
        if (outOfRange == OutOfRange.CLAMP) {
            return unsigned || v >= 0 ? to.max() : to.min();
        }
        return to.wrap(v);
    }

    long floatToInteger(double x, RealType to) {
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException(x + " has no value in " + to + " (map it in scalar_map)");
        }
        double r = switch (rounding) {
            case NEAREST_EVEN -> Math.rint(x);
            case TOWARDS_ZERO -> x < 0 ? Math.ceil(x) : Math.floor(x);
            case TOWARDS_POSITIVE -> Math.ceil(x);
            case TOWARDS_NEGATIVE -> Math.floor(x);
            case NEAREST_AWAY -> {
                double a = Math.abs(x);
                double f = Math.floor(a);
                yield Math.copySign(a - f >= 0.5 ? f + 1 : f, x);
            }
        };
        boolean inRange;
        if (to.bits == 64) {
            inRange = to.signed ? r >= -TWO_63 && r < TWO_63 : r >= 0 && r < TWO_64;
        } else {
            inRange = r >= to.min() && r <= to.max();
        }
        if (inRange) {
            return r >= TWO_63 ? (long) (r - TWO_63) ^ Long.MIN_VALUE : (long) r;
        }
        if (outOfRange == null) {
            throw beyond(Double.toString(x), to);
        }
        if (outOfRange == OutOfRange.CLAMP) {
            return r < 0 ? to.min() : to.max();
        }
        return to.wrap(lowBits(r));
    }

    /** The low 64 bits of the two's complement of an integral double. */
    private static long lowBits(double r) {
        if (Math.abs(r) < TWO_63) {
            return (long) r;
        }
        int shift = Math.getExponent(r) - 52;
        long significand = (Double.doubleToRawLongBits(r) & ((1L << 52) - 1)) | (1L << 52);
        long low = shift >= 64 ? 0 : significand << shift;
        return r < 0 ? -low : low;
    }

    double integerToFloat(long v, boolean unsigned, RealType to) {
        boolean negative = !unsigned && v < 0;
        long m = negative ? -v : v; // unsigned magnitude; Long.MIN_VALUE stays 2^63
        if (Long.compareUnsigned(m, 1L << 53) <= 0) {
            return floatToFloat(negative ? -(double) m : (double) m, to);
        }
        int shift = 63 - Long.numberOfLeadingZeros(m) - to.precision + 1;
        if (shift <= 0) {
            return floatToFloat(negative ? -unsigned(m) : unsigned(m), to);
        }
        long step = 1L << shift;
        long low = m & -step;
        long rest = m - low;
        double a = unsigned(low);
        double b = a + (double) step;
        if (rest == 0) {
            return inRange(negative ? -a : a, negative, to);
        }
        int cmp = Long.compareUnsigned(rest, step >>> 1);
        double lo = negative ? -b : a;
        double hi = negative ? -a : b;
        double x = negative ? -a - 1 : a + 1; // stands for the exact value when only its side matters
        return inRange(choose(x, lo, hi, negative ? -cmp : cmp, to), negative, to);
    }

    double floatToFloat(double x, RealType to) {
        if (to.precision == 53) {
            return x; // every value of every source format is a double
        }
        if (to.precision == 24) {
            float f = (float) x;
            if (f == x || Double.isNaN(x) || Double.isInfinite(x)) {
                return f;
            }
        }
        if (Double.isNaN(x)) {
            if (to.hasNaN) {
                return x;
            }
            throw new IllegalArgumentException("NaN has no value in " + to + " (map it in scalar_map)");
        }
        if (Double.isInfinite(x)) {
            if (to.hasInfinity) {
                return x;
            }
            throw new IllegalArgumentException(x + " has no value in " + to + " (map it in scalar_map)");
        }
        if (to.holds(x)) {
            return x;
        }
        double[] n = to.neighbours(x);
        if (n[0] == n[1]) {
            return inRange(x, x < 0, to);
        }
        double below = x - n[0];
        double above = n[1] - x;
        int cmp = below < above ? -1 : below > above ? 1 : 0;
        double r = choose(x, n[0], n[1], cmp, to);
        return inRange(r == 0 ? Math.copySign(0.0, x) : r, x < 0, to);
    }

    /** Picks {@code lo} or {@code hi} around {@code x}; {@code cmp} orders x's distance to lo against hi's. */
    private double choose(double x, double lo, double hi, int cmp, RealType to) {
        return switch (rounding) {
            case TOWARDS_NEGATIVE -> lo;
            case TOWARDS_POSITIVE -> hi;
            case TOWARDS_ZERO -> x > 0 ? lo : hi;
            case NEAREST_EVEN -> cmp < 0 ? lo : cmp > 0 ? hi : to.even(lo) ? lo : hi;
            case NEAREST_AWAY -> cmp < 0 ? lo : cmp > 0 ? hi : x > 0 ? hi : lo;
        };
    }

    /** {@code r} when the format holds it; otherwise the out-of-range rule's value or a refusal. */
    private double inRange(double r, boolean negative, RealType to) {
        if (to.holds(r)) {
            return r;
        }
        if (outOfRange == OutOfRange.CLAMP) {
            if (to.hasInfinity) {
                return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
            return negative ? to.minFinite() : to.maxFinite;
        }
        throw beyond(Double.toString(r), to);
    }

    private IllegalArgumentException beyond(String value, RealType to) {
        return new IllegalArgumentException(value + " is outside the range of " + to
                + (outOfRange == null ? " and out_of_range is not set" : " and wrap applies to integer types only"));
    }

    private static double unsigned(long m) {
        return m < 0 ? (double) (m >>> 1) * 2 + (m & 1) : (double) m;
    }
}
