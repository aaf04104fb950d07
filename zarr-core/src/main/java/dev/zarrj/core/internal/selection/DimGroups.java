package dev.zarrj.core.internal.selection;

import dev.zarrj.api.grid.ChunkGrid;
import dev.zarrj.core.selection.Selection;
import java.util.Arrays;

/**
 * One dimension of an orthogonal selection grouped by chunk: the chunks its indices touch and,
 * per touched chunk, the result positions and chunk-local indices that fall in it, in result
 * order.
 */
final class DimGroups {
    /** The touched chunks' indices along the dimension, ascending. */
    final long[] chunks;
    /** Per touched chunk: the result positions, ascending. */
    final int[][] pos;
    /** Per touched chunk: the local index in the chunk of each position. */
    final long[][] loc;

    private DimGroups(long[] chunks, int[][] pos, long[][] loc) {
        this.chunks = chunks;
        this.pos = pos;
        this.loc = loc;
    }

    /**
     * Every dimension of an orthogonal selection grouped by chunk, and the chunks touched as the
     * outer product of the dimensions' touched chunks, numbered in row-major order.
     *
     * @param dims      per dimension, its groups
     * @param fullShape the result's shape with every dimension kept (an {@code Index} as length 1)
     * @param extents   per dimension, how many chunks it touches
     * @param total     how many chunks the selection touches
     */
    record Product(DimGroups[] dims, long[] fullShape, long[] extents, long total) {
        static Product of(Selection.Resolved sel, ChunkGrid grid, int rank) {
            DimGroups[] dims = new DimGroups[rank];
            long[] fullShape = new long[rank];
            long[] extents = new long[rank];
            long total = 1;
            for (int d = 0; d < rank; d++) {
                long[] idx = sel.indices(d);
                fullShape[d] = idx.length;
                dims[d] = DimGroups.of(idx, grid, d);
                extents[d] = dims[d].chunks.length;
                total = Math.multiplyExact(total, extents[d]);
            }
            return new Product(dims, fullShape, extents, total);
        }

        /** Per dimension, which of its touched chunks the j-th touched chunk is. */
        int[] touched(long j) {
            int[] t = new int[extents.length];
            long rest = j;
            for (int d = extents.length - 1; d >= 0; d--) {
                t[d] = (int) (rest % extents[d]);
                rest /= extents[d];
            }
            return t;
        }

        /** The grid coordinates of the j-th touched chunk. */
        long[] coords(long j) {
            int[] t = touched(j);
            long[] c = new long[t.length];
            for (int d = 0; d < t.length; d++) {
                c[d] = dims[d].chunks[t[d]];
            }
            return c;
        }
    }

    static DimGroups of(long[] indices, ChunkGrid grid, int d) {
        int n = indices.length;
        long[] chunkOf = new long[n];
        boolean sorted = true;
        for (int k = 0; k < n; k++) {
            chunkOf[k] = grid.chunkIndex(d, indices[k]);
            sorted &= k == 0 || chunkOf[k] >= chunkOf[k - 1];
        }
        long[] chunks = distinct(chunkOf, sorted);
        int[] bucket = new int[n];
        int[] count = new int[chunks.length];
        for (int k = 0, b = 0; k < n; k++) {
            if (sorted) {
                while (chunks[b] != chunkOf[k]) {
                    b++;
                }
                bucket[k] = b;
            } else {
                bucket[k] = Arrays.binarySearch(chunks, chunkOf[k]);
            }
            count[bucket[k]]++;
        }
        int[][] pos = new int[chunks.length][];
        long[][] loc = new long[chunks.length][];
        long[] start = new long[chunks.length];
        for (int b = 0; b < chunks.length; b++) {
            pos[b] = new int[count[b]];
            loc[b] = new long[count[b]];
            start[b] = grid.chunkStart(d, chunks[b]);
            count[b] = 0;
        }
        for (int k = 0; k < n; k++) {
            int b = bucket[k];
            pos[b][count[b]] = k;
            loc[b][count[b]++] = indices[k] - start[b];
        }
        return new DimGroups(chunks, pos, loc);
    }

    /** The distinct values, ascending. */
    static long[] distinct(long[] values, boolean sorted) {
        long[] v = sorted ? values : values.clone();
        if (!sorted) {
            Arrays.sort(v);
        }
        int m = 0;
        long[] out = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            if (i == 0 || v[i] != v[i - 1]) {
                out[m++] = v[i];
            }
        }
        return Arrays.copyOf(out, m);
    }

    /** Whether the touched chunk {@code t} takes consecutive local indices to consecutive positions. */
    boolean run(int t) {
        int[] p = pos[t];
        long[] l = loc[t];
        for (int i = 1; i < p.length; i++) {
            if (p[i] != p[i - 1] + 1 || l[i] != l[i - 1] + 1) {
                return false;
            }
        }
        return true;
    }

    /** How many distinct local indices the touched chunk {@code t} takes. */
    int distinctLocal(int t) {
        long[] l = loc[t];
        boolean sorted = true;
        for (int i = 1; i < l.length && sorted; i++) {
            sorted = l[i] >= l[i - 1];
        }
        return distinct(l, sorted).length;
    }

    /** How many pieces of length {@code inner} of chunk {@code t} hold indices taken. */
    int piecesTouched(int t, long inner) {
        long[] l = loc[t];
        long[] pieces = new long[l.length];
        boolean sorted = true;
        for (int i = 0; i < l.length; i++) {
            pieces[i] = l[i] / inner;
            sorted &= i == 0 || pieces[i] >= pieces[i - 1];
        }
        return distinct(pieces, sorted).length;
    }

    /**
     * The parts of chunk {@code t} (of length {@code chunkLength}) to decode: the range from the
     * first to the last index taken when {@code inner} is 0, else the runs of consecutive touched
     * pieces of length {@code inner} (a shard's inner chunks), each cut after {@code maxPieces}
     * pieces.
     */
    Segment[] segments(int t, long inner, long chunkLength, long maxPieces) {
        long[] l = loc[t];
        int[] p = pos[t];
        if (inner <= 0) {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (long v : l) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            long[] rel = new long[l.length];
            for (int i = 0; i < l.length; i++) {
                rel[i] = l[i] - min;
            }
            return new Segment[] {new Segment(min, max - min + 1, p, rel)};
        }
        long[] pieces = new long[l.length];
        boolean sorted = true;
        for (int i = 0; i < l.length; i++) {
            pieces[i] = l[i] / inner;
            sorted &= i == 0 || pieces[i] >= pieces[i - 1];
        }
        long[] touched = distinct(pieces, sorted);
        // Runs of consecutive touched pieces: [runFirst[r], runLast[r]].
        long[] runFirst = new long[touched.length];
        long[] runLast = new long[touched.length];
        int runs = 0;
        for (int i = 0; i < touched.length; i++) {
            if (runs > 0 && touched[i] == runLast[runs - 1] + 1 && touched[i] - runFirst[runs - 1] < maxPieces) {
                runLast[runs - 1] = touched[i];
            } else {
                runFirst[runs] = touched[i];
                runLast[runs++] = touched[i];
            }
        }
        int[] count = new int[runs];
        int[] runOf = new int[l.length];
        for (int i = 0; i < l.length; i++) {
            int r = Arrays.binarySearch(runFirst, 0, runs, pieces[i]);
            runOf[i] = r >= 0 ? r : -r - 2;
            count[runOf[i]]++;
        }
        Segment[] out = new Segment[runs];
        int[][] sp = new int[runs][];
        long[][] sl = new long[runs][];
        for (int r = 0; r < runs; r++) {
            sp[r] = new int[count[r]];
            sl[r] = new long[count[r]];
            count[r] = 0;
        }
        for (int i = 0; i < l.length; i++) {
            int r = runOf[i];
            sp[r][count[r]] = p[i];
            sl[r][count[r]++] = l[i] - runFirst[r] * inner;
        }
        for (int r = 0; r < runs; r++) {
            long start = runFirst[r] * inner;
            long end = Math.min((runLast[r] + 1) * inner, chunkLength);
            out[r] = new Segment(start, end - start, sp[r], sl[r]);
        }
        return out;
    }

    /**
     * The parts of chunk {@code t} to decode when the range from its first to its last index is
     * too large to decode at once: the indices taken, in increasing order, grouped greedily into
     * ranges spanning at most {@code maxSpan} indices.
     */
    Segment[] segmentsWithin(int t, long maxSpan) {
        long[] l = loc[t];
        int[] p = pos[t];
        boolean sorted = true;
        for (int i = 1; i < l.length && sorted; i++) {
            sorted = l[i] >= l[i - 1];
        }
        long[] taken = distinct(l, sorted);
        long[] first = new long[taken.length];
        long[] last = new long[taken.length];
        int ranges = 0;
        for (long v : taken) {
            if (ranges > 0 && v - first[ranges - 1] < maxSpan) {
                last[ranges - 1] = v;
            } else {
                first[ranges] = v;
                last[ranges++] = v;
            }
        }
        int[] count = new int[ranges];
        int[] rangeOf = new int[l.length];
        for (int i = 0; i < l.length; i++) {
            int r = Arrays.binarySearch(first, 0, ranges, l[i]);
            rangeOf[i] = r >= 0 ? r : -r - 2;
            count[rangeOf[i]]++;
        }
        int[][] sp = new int[ranges][];
        long[][] sl = new long[ranges][];
        for (int r = 0; r < ranges; r++) {
            sp[r] = new int[count[r]];
            sl[r] = new long[count[r]];
            count[r] = 0;
        }
        for (int i = 0; i < l.length; i++) {
            int r = rangeOf[i];
            sp[r][count[r]] = p[i];
            sl[r][count[r]++] = l[i] - first[r];
        }
        Segment[] out = new Segment[ranges];
        for (int r = 0; r < ranges; r++) {
            out[r] = new Segment(first[r], last[r] - first[r] + 1, sp[r], sl[r]);
        }
        return out;
    }

    /**
     * A range {@code [start, start + length)} of a chunk to decode, with the result positions it
     * serves and their indices relative to {@code start}, in result order.
     */
    record Segment(long start, long length, int[] pos, long[] rel) {}
}
