package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import dev.zarrj.api.datatype.FillValue;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * Moves, fills and compares {@link Region}s of C-ordered {@link NdArray}s in whole contiguous runs:
 * trailing dimensions that both arrays hold whole merge into one run, so copying a chunk into a
 * larger array costs one bulk copy per row of the chunk, or one for the whole of it.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public final class RegionCopy {
    private RegionCopy() {}

    /**
     * Copies {@code region} of {@code src} to {@code dstOffset} in {@code dst} (a block of the same
     * shape).
     *
     * @throws IllegalArgumentException when the element sizes or ranks differ, a region lies
     *                                  outside its array, or one array holds strings and the other
     *                                  byte strings or bytes
     */
    public static void copy(NdArray src, Region region, NdArray dst, long[] dstOffset) {
        int rank = region.rank();
        int es = src.dataType().size();
        if (dst.dataType().size() != es || src.holdsObjects() != dst.holdsObjects()
                || src.holdsObjects() && src.dataType().kind() != dst.dataType().kind()) {
            throw new IllegalArgumentException("copy between " + src.dataType().name() + " and "
                    + dst.dataType().name() + " arrays, whose elements differ in size");
        }
        if (src.rank() != rank || dst.rank() != rank || dstOffset.length != rank) {
            throw new IllegalArgumentException("copy of a rank-" + rank + " region between arrays of rank "
                    + src.rank() + " and " + dst.rank());
        }
        long[] srcShape = src.shape();
        long[] dstShape = dst.shape();
        for (int d = 0; d < rank; d++) {
            // Compared as offset > shape - extent, which cannot overflow (shape, extent >= 0).
            if (region.offset(d) > srcShape[d] - region.shape(d) || dstOffset[d] < 0
                    || dstOffset[d] > dstShape[d] - region.shape(d)) {
                throw new IllegalArgumentException("region " + region + " to " + Arrays.toString(dstOffset)
                        + " lies outside " + Arrays.toString(srcShape) + " / " + Arrays.toString(dstShape));
            }
        }
        if (region.isEmpty()) {
            return;
        }
        if (src.holdsObjects()) {
            // Element references, never shared mutable state: strings are immutable and a byte
            // string is never changed in place once set.
            Object[] from = src.objects();
            Object[] to = dst.objects();
            int fromBase = src.base();
            int toBase = dst.base();
            if (rank == 0) {
                to[toBase] = from[fromBase];
                return;
            }
            walkRuns(srcShape, region.offset(), dstShape, dstOffset, region.shape(), 1, (srcAt, dstAt, n) -> {
                System.arraycopy(from, fromBase + srcAt, to, toBase + dstAt, n);
                return true;
            });
            return;
        }
        ByteBuffer from = src.bytes();
        ByteBuffer to = dst.bytes();
        if (rank == 0) {
            to.put(0, from, 0, es);
            return;
        }
        // The runs are often short (a chunk's rows, hundreds of thousands of them in a large read):
        // the array forms of the bulk copies check less per call than ByteBuffer.put(int,
        // ByteBuffer, int, int), and the loops below call no visitor, whose call site the JIT may
        // find megamorphic (every caller's lambda) and then dispatch for every run.
        Runs runs = new Runs(srcShape, region.offset(), dstShape, dstOffset, region.shape(), es);
        int n = runs.bytes;
        if (to.hasArray() && !to.isReadOnly()) {
            byte[] toArray = to.array();
            int toBase = to.arrayOffset();
            if (from.hasArray()) {
                byte[] fromArray = from.array();
                int fromBase = from.arrayOffset();
                do {
                    System.arraycopy(fromArray, fromBase + runs.a(), toArray, toBase + runs.b(), n);
                } while (runs.next());
            } else {
                do {
                    from.get(runs.a(), toArray, toBase + runs.b(), n);
                } while (runs.next());
            }
            return;
        }
        do {
            to.put(runs.b(), from, runs.a(), n);
        } while (runs.next());
    }

    /**
     * The runs of {@link #walkRuns} as a cursor, for loops that copy without a visitor: the
     * current run's byte positions in both arrays, then {@link #next()}. The block is checked and
     * non-empty, the rank at least 1.
     */
    private static final class Runs {
        /** Bytes in each run. */
        final int bytes;
        private final int es;
        private final int inner;
        private final long[] region;
        private final long[] aStride;
        private final long[] bStride;
        private final long[] idx;
        private long aPos;
        private long bPos;

        Runs(long[] a, long[] aOffset, long[] b, long[] bOffset, long[] region, int es) {
            int rank = region.length;
            int in = rank - 1;
            long run = region[in];
            while (in > 0 && region[in] == a[in] && region[in] == b[in]) {
                in--;
                run *= region[in];
            }
            this.inner = in;
            this.region = region;
            this.es = es;
            this.bytes = (int) (run * es);
            this.aStride = strides(a);
            this.bStride = strides(b);
            for (int d = 0; d < rank; d++) {
                aPos += aOffset[d] * aStride[d];
                bPos += bOffset[d] * bStride[d];
            }
            this.idx = new long[in];
        }

        int a() {
            return (int) (aPos * es);
        }

        int b() {
            return (int) (bPos * es);
        }

        /** Moves to the next run; false after the last. */
        boolean next() {
            int d = inner - 1;
            while (d >= 0) {
                idx[d]++;
                aPos += aStride[d];
                bPos += bStride[d];
                if (idx[d] < region[d]) {
                    return true;
                }
                aPos -= region[d] * aStride[d];
                bPos -= region[d] * bStride[d];
                idx[d] = 0;
                d--;
            }
            return false;
        }
    }

    /**
     * Sets every element of {@code region} of {@code array} to {@code value}.
     *
     * @throws IllegalArgumentException when the region lies outside the array or the value's size
     *                                  differs from the element size
     */
    public static void fill(NdArray array, Region region, FillValue value) {
        region.checkWithin(array.shape(), "the array");
        copy(NdArray.filled(array.dataType(), value, region.shape()), Region.whole(region.shape()), array,
                region.offset());
    }

    /**
     * Whether every element of {@code region} of {@code array} equals {@code value} bit for bit;
     * stops at the first run that does not.
     *
     * @throws IllegalArgumentException when the region lies outside the array
     */
    public static boolean allEqual(NdArray array, Region region, FillValue value) {
        region.checkWithin(array.shape(), "the array");
        if (array.rank() == 0) {
            return array.isAll(value);
        }
        if (region.isEmpty()) {
            return true;
        }
        if (array.holdsObjects()) {
            Object element = array.objectOf(value);
            long[] shape = array.shape();
            long[] offset = region.offset();
            return walkRuns(shape, offset, shape, offset, region.shape(), 1,
                    (at, same, n) -> array.allEqual(element, at, n));
        }
        ByteBuffer data = array.bytes();
        long[] shape = array.shape();
        long[] offset = region.offset();
        return walkRuns(shape, offset, shape, offset, region.shape(), array.dataType().size(),
                (at, same, bytes) -> value.fillsAll(data.slice(at, bytes)));
    }

    /** The element strides of a C-ordered array of this shape (the last dimension's stride is 1). */
    public static long[] strides(long[] shape) {
        long[] s = new long[shape.length];
        long acc = 1;
        for (int d = shape.length - 1; d >= 0; d--) {
            s[d] = acc;
            acc *= shape[d];
        }
        return s;
    }

    /** What {@link #walkRuns} does with one contiguous run: byte positions in both arrays and its length. */
    @FunctionalInterface
    private interface RunVisitor {
        /** @return whether to go on to the next run */
        boolean visit(int aAt, int bAt, int bytes);
    }

    /**
     * Visits the block of shape {@code region} at {@code aOffset} in an array of shape {@code a}
     * and at {@code bOffset} in one of shape {@code b} in C order, as the longest runs contiguous
     * in both. The block is checked and non-empty, the rank at least 1.
     *
     * @return false when the visitor stopped early
     */
    private static boolean walkRuns(long[] a, long[] aOffset, long[] b, long[] bOffset, long[] region, int es,
                                    RunVisitor visitor) {
        Runs runs = new Runs(a, aOffset, b, bOffset, region, es);
        do {
            if (!visitor.visit(runs.a(), runs.b(), runs.bytes)) {
                return false;
            }
        } while (runs.next());
        return true;
    }
}
