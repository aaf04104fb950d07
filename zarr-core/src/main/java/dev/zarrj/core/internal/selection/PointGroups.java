package dev.zarrj.core.internal.selection;

import dev.zarrj.core.internal.metadata.ArrayMetadata;
import dev.zarrj.core.selection.Selection;
import java.util.Arrays;

/** The points of a selection grouped by chunk, each group in the points' order. */
final class PointGroups {
    private final long[][] coordinates;
    private final long[] grid;
    private final long[] chunkIds;
    private final int[] order;
    private final int[] offsets;
    private final ArrayMetadata meta;

    private PointGroups(ArrayMetadata meta, long[][] coordinates, long[] grid, long[] chunkIds, int[] order,
                        int[] offsets) {
        this.meta = meta;
        this.coordinates = coordinates;
        this.grid = grid;
        this.chunkIds = chunkIds;
        this.order = order;
        this.offsets = offsets;
    }

    static PointGroups of(ArrayMetadata meta, Selection.Resolved sel) {
        int rank = meta.rank();
        long[][] c = new long[rank][];
        for (int d = 0; d < rank; d++) {
            c[d] = sel.indices(d);
        }
        int n = c[0].length;
        long[] grid = meta.chunkGrid().gridShape(meta.shape());
        long[] ids = new long[n];
        for (int k = 0; k < n; k++) {
            long id = 0;
            for (int d = 0; d < rank; d++) {
                id = Math.addExact(Math.multiplyExact(id, grid[d]), meta.chunkGrid().chunkIndex(d, c[d][k]));
            }
            ids[k] = id;
        }
        long[] chunkIds = DimGroups.distinct(ids, false);
        int[][] grouped = group(ids, chunkIds);
        return new PointGroups(meta, c, grid, chunkIds, grouped[0], grouped[1]);
    }

    /**
     * The indices {@code 0..ids.length-1} ordered by the position of their id in {@code distinct}
     * (sorted), stably, and the offsets where each id's indices start (one more than ids).
     */
    private static int[][] group(long[] ids, long[] distinct) {
        int[] bucket = new int[ids.length];
        int[] offsets = new int[distinct.length + 1];
        for (int k = 0; k < ids.length; k++) {
            bucket[k] = Arrays.binarySearch(distinct, ids[k]);
            offsets[bucket[k] + 1]++;
        }
        for (int b = 0; b < distinct.length; b++) {
            offsets[b + 1] += offsets[b];
        }
        int[] next = Arrays.copyOf(offsets, distinct.length);
        int[] order = new int[ids.length];
        for (int k = 0; k < ids.length; k++) {
            order[next[bucket[k]]++] = k;
        }
        return new int[][] {order, offsets};
    }

    int chunkCount() {
        return chunkIds.length;
    }

    /** The grid coordinates of the {@code b}-th touched chunk. */
    long[] coords(long b) {
        long[] out = new long[grid.length];
        long rest = chunkIds[(int) b];
        for (int d = grid.length - 1; d >= 0; d--) {
            out[d] = rest % grid[d];
            rest /= grid[d];
        }
        return out;
    }

    /** The points (their numbers in the selection) in the {@code b}-th touched chunk, in order. */
    int[] points(long b) {
        return Arrays.copyOfRange(order, offsets[(int) b], offsets[(int) b + 1]);
    }

    long coordinate(int d, int k) {
        return coordinates[d][k];
    }

    /**
     * The points of one chunk (origin {@code start}) grouped by the piece of shape {@code inner}
     * holding them (pieces at the chunk's far edges may be cut short).
     */
    int[][] byPiece(int[] points, long[] start, long[] chunkShape, long[] inner) {
        int rank = start.length;
        long[] ids = new long[points.length];
        for (int i = 0; i < points.length; i++) {
            long id = 0;
            for (int d = 0; d < rank; d++) {
                id = id * (chunkShape[d] / inner[d] + (chunkShape[d] % inner[d] == 0 ? 0 : 1)) + (coordinates[d][points[i]] - start[d]) / inner[d];
            }
            ids[i] = id;
        }
        long[] distinct = DimGroups.distinct(ids, false);
        int[][] grouped = group(ids, distinct);
        int[][] out = new int[distinct.length][];
        for (int b = 0; b < distinct.length; b++) {
            out[b] = new int[grouped[1][b + 1] - grouped[1][b]];
            for (int i = 0; i < out[b].length; i++) {
                out[b][i] = points[grouped[0][grouped[1][b] + i]];
            }
        }
        return out;
    }

    /**
     * Whether the points of the {@code b}-th chunk cover every element of it that lies in the
     * array, so that a write need not read it.
     */
    boolean covers(long b) {
        int[] pts = points(b);
        long[] coords = coords(b);
        long[] origin = meta.chunkGrid().chunkOrigin(coords);
        long[] shape = meta.chunkGrid().chunkShape(coords);
        long[] arrayShape = meta.shape();
        long inArray = 1;
        for (int d = 0; d < grid.length; d++) {
            inArray *= Math.min(shape[d], arrayShape[d] - origin[d]);
        }
        if (pts.length < inArray) {
            return false;
        }
        long[] local = new long[pts.length];
        long[] strides = Elements.strides(shape);
        for (int i = 0; i < pts.length; i++) {
            for (int d = 0; d < grid.length; d++) {
                local[i] += (coordinates[d][pts[i]] - origin[d]) * strides[d];
            }
        }
        return DimGroups.distinct(local, false).length == inArray;
    }
}
