package dev.zarrj.ext.strings;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The reference the selection properties compare zarrj with: an array as one value per flat index
 * (C order), and the selection rules written out independently of {@code dev.zarrj.core.selection}
 * (Python's {@code slice.indices}, NumPy's negative indices, zarr-python's {@code oindex},
 * {@code vindex} and {@code blocks}).
 */
final class SelectionReference {
    private SelectionReference() {}

    /** What one dimension of an orthogonal or block selection is, as plain data. */
    sealed interface Dim permits Idx, Sl, Lst, Msk {}

    /** One index, which the result drops. */
    record Idx(long index) implements Dim {}

    /** {@code start:stop:step}, null for an absent bound (and an absent step is 1). */
    record Sl(Long start, Long stop, long step) implements Dim {}

    /** A list of indices. */
    record Lst(long[] indices) implements Dim {
        @Override
        public String toString() {
            return "Lst" + Arrays.toString(indices);
        }
    }

    /** A boolean mask. */
    record Msk(boolean[] mask) implements Dim {
        @Override
        public String toString() {
            StringBuilder s = new StringBuilder("Msk[");
            for (boolean b : mask) {
                s.append(b ? '1' : '0');
            }
            return s.append(']').toString();
        }
    }

    /** Thrown where the reference finds the selection invalid in one dimension (-1: not one dimension). */
    static final class Invalid extends RuntimeException {
        final int dimension;

        Invalid(int dimension, String message) {
            super(message);
            this.dimension = dimension;
        }
    }

    /** Python's {@code range(*slice(start, stop, step).indices(length))}, as CPython computes it. */
    static long[] sliceIndices(Long start, Long stop, long step, long length) {
        if (step == 0) {
            throw new Invalid(-1, "step 0");
        }
        long lower = step < 0 ? -1 : 0;
        long upper = step < 0 ? length - 1 : length;
        long a;
        if (start == null) {
            a = step < 0 ? upper : lower;
        } else if (start < 0) {
            a = Math.max(start + length, lower);
        } else {
            a = Math.min(start, upper);
        }
        long b;
        if (stop == null) {
            b = step < 0 ? lower : upper;
        } else if (stop < 0) {
            b = Math.max(stop + length, lower);
        } else {
            b = Math.min(stop, upper);
        }
        List<Long> out = new ArrayList<>();
        // Walk without overflowing: stop before stepping past b.
        if (step > 0) {
            for (long i = a; i < b; ) {
                out.add(i);
                if (b - i <= step) {
                    break;
                }
                i += step;
            }
        } else {
            for (long i = a; i > b; ) {
                out.add(i);
                if (i - b <= -step) {
                    break;
                }
                i += step;
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /** A NumPy index in a dimension of this length, made non-negative, or {@link Invalid}. */
    static long normalize(long index, long length, int dimension) {
        if (index < -length || index >= length) {
            throw new Invalid(dimension, "index " + index + " out of [" + -length + ", " + length + ")");
        }
        return index < 0 ? index + length : index;
    }

    /** The indices one dimension selection takes in a dimension of this length. */
    static long[] indices(Dim dim, long length, int d) {
        if (dim instanceof Idx i) {
            return new long[] {normalize(i.index(), length, d)};
        }
        if (dim instanceof Sl s) {
            return sliceIndices(s.start(), s.stop(), s.step(), length);
        }
        if (dim instanceof Lst l) {
            long[] out = new long[l.indices().length];
            for (int k = 0; k < out.length; k++) {
                out[k] = normalize(l.indices()[k], length, d);
            }
            return out;
        }
        boolean[] m = ((Msk) dim).mask();
        if (m.length != length) {
            throw new Invalid(d, "mask of length " + m.length + " for " + length);
        }
        long[] out = new long[m.length];
        int n = 0;
        for (int k = 0; k < m.length; k++) {
            if (m[k]) {
                out[n++] = k;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** A selection resolved by the reference: result shape and the flat array index of each result element. */
    record Expected(long[] shape, int[] flat) {}

    static int flatIndex(long[] shape, long[] at) {
        long f = 0;
        for (int d = 0; d < shape.length; d++) {
            f = f * shape[d] + at[d];
        }
        return (int) f;
    }

    /** Orthogonal selection: {@code dims} for the first dimensions, the rest whole. */
    static Expected orthogonal(long[] shape, List<Dim> dims) {
        int rank = shape.length;
        if (dims.size() > rank) {
            throw new Invalid(-1, dims.size() + " dimensions for rank " + rank);
        }
        long[][] idx = new long[rank][];
        List<Long> resultShape = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            Dim dim = d < dims.size() ? dims.get(d) : new Sl(null, null, 1);
            idx[d] = indices(dim, shape[d], d);
            if (!(dim instanceof Idx)) {
                resultShape.add((long) idx[d].length);
            }
        }
        return product(shape, idx, resultShape.stream().mapToLong(Long::longValue).toArray());
    }

    private static Expected product(long[] shape, long[][] idx, long[] resultShape) {
        int rank = shape.length;
        long n = 1;
        for (long[] i : idx) {
            n *= i.length;
        }
        int[] flat = new int[(int) n];
        int[] pos = new int[rank];
        long[] at = new long[rank];
        for (int k = 0; k < n; k++) {
            for (int d = 0; d < rank; d++) {
                at[d] = idx[d][pos[d]];
            }
            flat[k] = flatIndex(shape, at);
            for (int d = rank - 1; d >= 0 && ++pos[d] == idx[d].length; d--) {
                pos[d] = 0;
            }
        }
        return new Expected(resultShape, flat);
    }

    /** Points by coordinates, one array per dimension. */
    static Expected points(long[] shape, long[][] coords) {
        if (coords.length != shape.length) {
            throw new Invalid(-1, coords.length + " coordinate arrays for rank " + shape.length);
        }
        int n = coords.length == 0 ? 0 : coords[0].length;
        for (long[] c : coords) {
            if (c.length != n) {
                throw new Invalid(-1, "coordinate arrays of different lengths");
            }
        }
        int[] flat = new int[n];
        long[] at = new long[shape.length];
        for (int k = 0; k < n; k++) {
            for (int d = 0; d < shape.length; d++) {
                at[d] = normalize(coords[d][k], shape[d], d);
            }
            flat[k] = flatIndex(shape, at);
        }
        return new Expected(new long[] {n}, flat);
    }

    /** Points where a mask of the array's shape (flat, C order) is true. */
    static Expected pointMask(long[] shape, long[] maskShape, boolean[] mask) {
        if (!Arrays.equals(shape, maskShape)) {
            throw new Invalid(-1, "mask shape " + Arrays.toString(maskShape));
        }
        int n = 0;
        int[] flat = new int[mask.length];
        for (int i = 0; i < mask.length; i++) {
            if (mask[i]) {
                flat[n++] = i;
            }
        }
        return new Expected(new long[] {n}, Arrays.copyOf(flat, n));
    }

    /** Blocks: whole chunks of a regular grid by chunk index (an index or a step-1 slice per dimension). */
    static Expected blocks(long[] shape, long[] chunkShape, List<Dim> dims) {
        int rank = shape.length;
        if (dims.size() > rank) {
            throw new Invalid(-1, dims.size() + " dimensions for rank " + rank);
        }
        long[][] idx = new long[rank][];
        long[] resultShape = new long[rank];
        for (int d = 0; d < rank; d++) {
            Dim dim = d < dims.size() ? dims.get(d) : new Sl(null, null, 1);
            if (dim instanceof Sl s && s.step() != 1 || dim instanceof Lst || dim instanceof Msk) {
                throw new Invalid(d, "not a block selection");
            }
            long grid = (shape[d] + chunkShape[d] - 1) / chunkShape[d];
            long[] chunks = indices(dim, grid, d);
            long from = chunks.length == 0 ? 0 : chunks[0] * chunkShape[d];
            long to = chunks.length == 0 ? 0 : Math.min(shape[d], (chunks[chunks.length - 1] + 1) * chunkShape[d]);
            idx[d] = new long[(int) (to - from)];
            for (int k = 0; k < idx[d].length; k++) {
                idx[d][k] = from + k;
            }
            resultShape[d] = idx[d].length;
        }
        return product(shape, idx, resultShape);
    }
}
