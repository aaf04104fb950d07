package dev.zarrj.core.selection;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A range of a dimension with a step, as Python's slice {@code start:stop:step}: negative bounds
 * count from the end, bounds beyond the dimension are clamped, a negative step walks backwards
 * (from the end when no start is given). An absent bound is the natural one for the step's
 * direction.
 *
 * <pre>{@code
 * Slice.of(2, 10)        // 2:10
 * Slice.of(0, 100, 4)    // 0:100:4, every 4th
 * Slice.all()            // :
 * Slice.step(-1)         // ::-1, reversed
 * Slice.from(5, -2)      // 5::-2, 5, 3, 1
 * Slice.to(-1)           // :-1, all but the last
 * }</pre>
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Slice implements DimSelection {
    private static final Slice ALL = new Slice(null, null, 1);

    private final Long start;
    private final Long stop;
    private final long step;

    private Slice(Long start, Long stop, long step) {
        if (step == 0) {
            throw new IllegalArgumentException("a slice step of 0");
        }
        if (step == Long.MIN_VALUE) {
            throw new IllegalArgumentException("a slice step of " + step);
        }
        this.start = start;
        this.stop = stop;
        this.step = step;
    }

    /** {@code start:stop}. */
    public static Slice of(long start, long stop) {
        return new Slice(start, stop, 1);
    }

    /**
     * {@code start:stop:step}.
     *
     * @throws IllegalArgumentException when {@code step} is 0
     */
    public static Slice of(long start, long stop, long step) {
        return new Slice(start, stop, step);
    }

    /** {@code :}, the whole dimension. */
    public static Slice all() {
        return ALL;
    }

    /** {@code ::step}: every step-th element, from the end when the step is negative. */
    public static Slice step(long step) {
        return new Slice(null, null, step);
    }

    /** {@code start:}. */
    public static Slice from(long start) {
        return new Slice(start, null, 1);
    }

    /** {@code start::step}. */
    public static Slice from(long start, long step) {
        return new Slice(start, null, step);
    }

    /** {@code :stop}. */
    public static Slice to(long stop) {
        return new Slice(null, stop, 1);
    }

    /** {@code :stop:step}. */
    public static Slice to(long stop, long step) {
        return new Slice(null, stop, step);
    }

    /** The step, never 0. */
    public long stepSize() {
        return step;
    }

    /** The first index selected in a dimension of this length (meaningless when {@link #count} is 0). */
    public long first(long length) {
        return bound(start, length, step < 0 ? length - 1 : 0);
    }

    /** How many indices this selects in a dimension of this length. */
    public long count(long length) {
        long a = first(length);
        long b = bound(stop, length, step < 0 ? -1 : length);
        if (step > 0) {
            return b > a ? (b - a - 1) / step + 1 : 0;
        }
        return a > b ? (a - b - 1) / -step + 1 : 0;
    }

    /** A bound resolved Python's way: negative counts from the end, then clamped to the range a step may reach. */
    private long bound(Long value, long length, long absent) {
        if (value == null) {
            return absent;
        }
        long lower = step < 0 ? -1 : 0;
        long upper = step < 0 ? length - 1 : length;
        long v = value;
        if (v < 0) {
            v = Math.max(v + length, lower);
        } else {
            v = Math.min(v, upper);
        }
        return v;
    }

    @Override
    public long[] indices(long length) {
        long n = count(length);
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a slice of " + n + " indices");
        }
        long[] out = new long[(int) n];
        long v = first(length);
        for (int i = 0; i < out.length; i++, v += step) {
            out[i] = v;
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Slice s && Objects.equals(start, s.start) && Objects.equals(stop, s.stop) && step == s.step;
    }

    @Override
    public int hashCode() {
        return Objects.hash(start, stop, step);
    }

    @Override
    public String toString() {
        return (start == null ? "" : start) + ":" + (stop == null ? "" : stop) + (step == 1 ? "" : ":" + step);
    }
}
