package dev.zarrj.core.internal.selection;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.RegionCopy;
import dev.zarrj.core.selection.Selection;
import java.util.function.BiFunction;
import java.util.function.BiConsumer;

/**
 * Reads and writes a resolved selection through region reads and writes.
 *
 * <p>PLACEHOLDER: reads the selection's bounding box and gathers element by element; to be
 * replaced by the chunk-wise engine (decode each chunk once, only the inner chunks needed).
 */
public final class SelectionIo {
    private SelectionIo() {}

    /** Reads a resolved selection with {@code readRegion(offset, shape)}. */
    public static NdArray read(Selection.Resolved sel, long[] arrayShape, NdArray result,
                               BiFunction<long[], long[], NdArray> readRegion) {
        int rank = arrayShape.length;
        long n = sel.elementCount();
        if (n == 0) {
            return result;
        }
        long[] lo = new long[rank];
        long[] hi = new long[rank];
        long[][] idx = new long[rank][];
        for (int d = 0; d < rank; d++) {
            idx[d] = sel.indices(d);
            lo[d] = Long.MAX_VALUE;
            for (long i : idx[d]) {
                lo[d] = Math.min(lo[d], i);
                hi[d] = Math.max(hi[d], i + 1);
            }
        }
        long[] box = new long[rank];
        for (int d = 0; d < rank; d++) {
            box[d] = hi[d] - lo[d];
        }
        NdArray region = readRegion.apply(lo, box);
        NdArray flatOut = result.reshape(n);
        long[] one = new long[rank];
        java.util.Arrays.fill(one, 1);
        forEach(sel, rank, (k, at) -> {
            long[] off = new long[rank];
            for (int d = 0; d < rank; d++) {
                off[d] = at[d] - lo[d];
            }
            RegionCopy.copy(region, Region.of(off, one), flatOut.reshape(n), new long[] {k});
        });
        return result;
    }

    /**
     * Writes {@code data} (of the selection's shape) through {@code readRegion} and
     * {@code writeRegion}: reads the bounding box, puts the elements, writes the box back.
     */
    public static void write(Selection.Resolved sel, long[] arrayShape, NdArray data,
                             BiFunction<long[], long[], NdArray> readRegion, BiConsumer<long[], NdArray> writeRegion) {
        int rank = arrayShape.length;
        long n = sel.elementCount();
        if (n == 0) {
            return;
        }
        long[] lo = new long[rank];
        long[] box = new long[rank];
        for (int d = 0; d < rank; d++) {
            long min = Long.MAX_VALUE;
            long max = 0;
            for (long i : sel.indices(d)) {
                min = Math.min(min, i);
                max = Math.max(max, i + 1);
            }
            lo[d] = min;
            box[d] = max - min;
        }
        NdArray region = readRegion.apply(lo, box);
        NdArray flat = data.reshape(n);
        long[] one = new long[rank];
        java.util.Arrays.fill(one, 1);
        forEach(sel, rank, (k, at) -> {
            long[] off = new long[rank];
            for (int d = 0; d < rank; d++) {
                off[d] = at[d] - lo[d];
            }
            RegionCopy.copy(flat, Region.of(new long[] {k}, new long[] {1}), region.reshape(box), off);
        });
        writeRegion.accept(lo, region);
    }

    /** Visits each selected element: its flat index in the result and its array coordinates. */
    static void forEach(Selection.Resolved sel, int rank, BiConsumer<Long, long[]> visit) {
        long[][] idx = new long[rank][];
        for (int d = 0; d < rank; d++) {
            idx[d] = sel.indices(d);
        }
        long n = sel.elementCount();
        if (sel.kind() == Selection.Kind.POINTS) {
            for (int k = 0; k < n; k++) {
                long[] at = new long[rank];
                for (int d = 0; d < rank; d++) {
                    at[d] = idx[d][k];
                }
                visit.accept((long) k, at);
            }
            return;
        }
        int[] pos = new int[rank];
        for (long k = 0; k < n; k++) {
            long[] at = new long[rank];
            for (int d = 0; d < rank; d++) {
                at[d] = idx[d][pos[d]];
            }
            visit.accept(k, at);
            for (int d = rank - 1; d >= 0 && ++pos[d] == idx[d].length; d--) {
                pos[d] = 0;
            }
        }
    }
}
