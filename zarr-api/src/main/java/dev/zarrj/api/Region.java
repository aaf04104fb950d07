package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Arrays;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A rectangular block of an N-dimensional array: where it starts ({@link #offset()}) and how far it
 * extends ({@link #shape()}) in each dimension, the block {@code [offset, offset + shape)}. The one
 * way a region travels through the SPI: a chunk's part that a read wants, the part a partial
 * decoder decodes, the part a copy moves.
 *
 * <p>Immutable. Offsets and extents are non-negative, and {@code offset + shape} never overflows.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public final class Region {
    private final long[] offset;
    private final long[] shape;

    private Region(long[] offset, long[] shape) {
        this.offset = offset;
        this.shape = shape;
    }

    /**
     * The region of this shape at this offset.
     *
     * @throws IllegalArgumentException when the ranks differ, a value is negative, or an end
     *                                  exceeds {@link Long#MAX_VALUE}
     */
    public static Region of(long[] offset, long[] shape) {
        if (offset.length != shape.length) {
            throw new IllegalArgumentException("a region with offset " + Arrays.toString(offset) + " and shape "
                    + Arrays.toString(shape) + " of different ranks");
        }
        long[] o = offset.clone();
        long[] s = shape.clone();
        for (int d = 0; d < o.length; d++) {
            if (o[d] < 0 || s[d] < 0 || o[d] > Long.MAX_VALUE - s[d]) {
                throw new IllegalArgumentException("a region with offset " + Arrays.toString(o) + " and shape "
                        + Arrays.toString(s) + ": offsets and extents must be non-negative and their sums fit a long");
            }
        }
        return new Region(o, s);
    }

    /** The whole of an array of this shape: offset zero. */
    public static Region whole(long... shape) {
        return of(new long[shape.length], shape);
    }

    /** The number of dimensions. */
    public int rank() {
        return shape.length;
    }

    /** A copy of the offset. */
    public long[] offset() {
        return offset.clone();
    }

    /** A copy of the shape (the extent in each dimension). */
    public long[] shape() {
        return shape.clone();
    }

    /** Where the region starts in one dimension. */
    public long offset(int dimension) {
        return offset[dimension];
    }

    /** The region's extent in one dimension. */
    public long shape(int dimension) {
        return shape[dimension];
    }

    /** Where the region ends (exclusive) in one dimension. */
    public long end(int dimension) {
        return offset[dimension] + shape[dimension];
    }

    /** The number of elements; 1 for a 0-d region, {@link Long#MAX_VALUE} when it would overflow. */
    public long elementCount() {
        long n = 1;
        for (long s : shape) {
            if (s == 0) {
                return 0;
            }
            n = n > Long.MAX_VALUE / s ? Long.MAX_VALUE : n * s;
        }
        return n;
    }

    /** Whether it holds no element (some extent is zero). */
    public boolean isEmpty() {
        for (long s : shape) {
            if (s == 0) {
                return true;
            }
        }
        return false;
    }

    /** Whether it is all of an array of this shape. */
    public boolean isWhole(long[] arrayShape) {
        return Arrays.equals(shape, arrayShape) && Arrays.stream(offset).allMatch(o -> o == 0);
    }

    /** Whether it lies inside an array of this shape (of the same rank). */
    public boolean isWithin(long[] arrayShape) {
        if (arrayShape.length != shape.length) {
            return false;
        }
        for (int d = 0; d < shape.length; d++) {
            if (offset[d] > arrayShape[d] - shape[d]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Fails unless it lies inside an array of this shape.
     *
     * @param what names the array in the message, e.g. {@code "the chunk"}
     * @throws IllegalArgumentException naming the region and the array's shape
     */
    public void checkWithin(long[] arrayShape, String what) {
        if (!isWithin(arrayShape)) {
            throw new IllegalArgumentException("the region " + this + " lies outside " + what + " of shape "
                    + Arrays.toString(arrayShape));
        }
    }

    /** The same shape with the offset moved by {@code delta} (which may be negative). */
    public Region translate(long[] delta) {
        checkRank(delta.length);
        long[] o = offset.clone();
        for (int d = 0; d < o.length; d++) {
            o[d] += delta[d];
        }
        return of(o, shape);
    }

    /** The same shape at another offset. */
    public Region at(long[] newOffset) {
        return of(newOffset, shape);
    }

    /**
     * The elements both regions hold, or empty when they share none (an empty region shares none).
     *
     * @throws IllegalArgumentException when the ranks differ
     */
    public Optional<Region> intersect(Region other) {
        checkRank(other.rank());
        long[] o = new long[shape.length];
        long[] s = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            long start = Math.max(offset[d], other.offset[d]);
            long end = Math.min(end(d), other.end(d));
            if (end <= start) {
                return Optional.empty();
            }
            o[d] = start;
            s[d] = end - start;
        }
        return Optional.of(new Region(o, s));
    }

    /** The region with its dimensions reordered: dimension {@code i} of the result is {@code order[i]} of this one. */
    public Region permute(int[] order) {
        checkRank(order.length);
        long[] o = new long[order.length];
        long[] s = new long[order.length];
        for (int i = 0; i < order.length; i++) {
            o[i] = offset[order[i]];
            s[i] = shape[order[i]];
        }
        return new Region(o, s);
    }

    private void checkRank(int rank) {
        if (rank != shape.length) {
            throw new IllegalArgumentException("rank " + rank + " for the rank-" + shape.length + " region " + this);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Region r && Arrays.equals(offset, r.offset) && Arrays.equals(shape, r.shape);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(offset) + Arrays.hashCode(shape);
    }

    /** In slice notation, e.g. {@code [0:10, 5:7]}. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("[");
        for (int d = 0; d < shape.length; d++) {
            b.append(d == 0 ? "" : ", ").append(offset[d]).append(':').append(end(d));
        }
        return b.append(']').toString();
    }
}
