package dev.zarrj.spark.internal.read;

import dev.zarrj.api.NdArray;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.spark.internal.ExecutorArrays;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads one partition's chunks, region by region: the part of each chunk the pushed filters keep
 * (in slabs of at most {@code regionBytes}), one region read per array, the next regions on
 * other threads while the caller consumes the current one. Where the reading of a partition
 * ends; what the rows become ({@link ChunkBatchReader}, {@link AggregateReader}) is the caller's.
 */
final class RegionReader implements AutoCloseable {
    /** The most decoded bytes read ahead of the region being consumed. */
    private static final long AHEAD_BYTES = 64L << 20;
    private static final ExecutorService PREFETCH = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "zarrj-spark-read");
        t.setDaemon(true);
        return t;
    });

    private final ReadSpec spec;
    private final long[] chunks;
    private final long[] gridShape;
    private final Deque<Future<Region>> ahead = new ArrayDeque<>();
    private final Deque<long[][]> pieces = new ArrayDeque<>();
    private final long elementBytes;
    private final int readAhead;
    private final ZarrArray[] arrays;
    private final ValueColumn[] values;
    private int nextChunk;
    /**
     * Buffers of whole chunks, one per array, that a region handed out has given back: decoding
     * into them again spares the garbage collector a large allocation per chunk. Used on the
     * consumer's thread only (taken when a read is submitted, returned by {@link #next}).
     */
    private final Deque<NdArray[]> free = new ArrayDeque<>();
    private final boolean poolable;
    private Region current;

    /**
     * A region read: its place, its values per array, and the rows it gives: all its elements
     * ({@code rows} null) or, with skipFill, those listed (flat C-order indices).
     */
    record Region(long[] offset, long[] shape, NdArray[] data, long count, int[] rows, boolean pooled) {}

    RegionReader(ReadSpec spec, ChunkRun run) {
        this.spec = spec;
        this.chunks = run.chunks();
        long[] shape = spec.shape();
        this.gridShape = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            gridShape[d] = shape[d] == 0 ? 0 : (shape[d] + spec.grid()[d] - 1) / spec.grid()[d];
        }
        // A region's row list, when it needs one, takes 4 bytes an element: count them too.
        this.elementBytes = Math.max(4, spec.elementBytes());
        long chunkBytes = elementBytes;
        for (long g : spec.grid()) {
            chunkBytes = Math.multiplyHigh(chunkBytes, g) != 0 ? Long.MAX_VALUE : chunkBytes * g;
        }
        // Read ahead to hide a remote store's latency, two regions at most, within the byte budget.
        this.readAhead = (int) Math.max(1, Math.min(2, AHEAD_BYTES / Math.max(1, Math.min(chunkBytes, spec.regionBytes()))));
        this.arrays = new ZarrArray[spec.arrays().size()];
        this.values = new ValueColumn[arrays.length];
        boolean fixedSize = true;
        for (int i = 0; i < arrays.length; i++) {
            arrays[i] = ExecutorArrays.readArray(spec.arrays().get(i));
            values[i] = ValueColumn.of(arrays[i].dataType(), arrays[i].fillValue(), arrays[i].path());
            fixedSize &= !arrays[i].dataType().kind().isVariableLength();
        }
        this.poolable = fixedSize && arrays.length > 0;
    }

    /** The value columns of the arrays read, in {@link ReadSpec#arrays()} order. */
    ValueColumn[] values() {
        return values;
    }

    /** The arrays read, in {@link ReadSpec#arrays()} order. */
    ZarrArray[] arrays() {
        return arrays;
    }

    /** The next region with at least one row, or null when the partition is done. */
    Region next() throws IOException {
        release(current); // the caller is done with it: a region stays valid until the next call
        current = null;
        while (true) {
            fillAhead();
            if (ahead.isEmpty()) {
                return null;
            }
            Region r = await(ahead.poll());
            if (r.count() > 0) {
                current = r;
                return r;
            }
            release(r);
        }
    }

    private void release(Region r) {
        if (r != null && r.pooled()) {
            free.push(r.data());
        }
    }

    /** Buffers for a whole chunk, given back or new; null for other boxes (edges, filtered parts, slabs). */
    private NdArray[] buffers(long[] shape) {
        if (!poolable || !Arrays.equals(shape, spec.grid())) {
            return null;
        }
        if (!free.isEmpty()) {
            return free.pop();
        }
        NdArray[] b = new NdArray[arrays.length];
        for (int a = 0; a < arrays.length; a++) {
            b[a] = NdArray.allocate(arrays[a].dataType(), shape);
        }
        return b;
    }

    private void fillAhead() {
        while (ahead.size() < readAhead) {
            if (pieces.isEmpty()) {
                if (nextChunk >= chunks.length) {
                    return;
                }
                pieces.addAll(pieces(chunks[nextChunk++]));
                continue;
            }
            long[][] box = pieces.poll();
            NdArray[] into = buffers(box[1]);
            ahead.add(PREFETCH.submit(() -> read(box[0], box[1], into)));
        }
    }

    /**
     * The boxes ({offset, shape}) to read of a chunk: the part the filters keep, cut into slabs of
     * at most {@code regionBytes} decoded (at inner-chunk boundaries of a shard, so that no inner
     * chunk is decoded twice) when it is larger.
     */
    private List<long[][]> pieces(long linear) {
        int rank = gridShape.length;
        long[] coords = new long[rank];
        long rest = linear;
        for (int d = rank - 1; d >= 0; d--) {
            coords[d] = rest % gridShape[d];
            rest /= gridShape[d];
        }
        long[] offset = new long[rank];
        long[] shape = new long[rank];
        for (int d = 0; d < rank; d++) {
            long from = coords[d] * spec.grid()[d];
            long to = Math.min(from + spec.grid()[d], spec.shape()[d]);
            long[] kept = spec.selection()[d].boundsWithin(from, to);
            if (kept == null) {
                return List.of();
            }
            offset[d] = kept[0];
            shape[d] = kept[1] - kept[0];
        }
        List<long[][]> out = new ArrayList<>();
        split(offset, shape, 0, out);
        return out;
    }

    private void split(long[] offset, long[] shape, int from, List<long[][]> out) {
        long bytes = elementBytes;
        for (long n : shape) {
            bytes = Math.multiplyHigh(bytes, n) != 0 ? Long.MAX_VALUE : bytes * n;
        }
        if (bytes <= spec.regionBytes() || from >= shape.length) {
            out.add(new long[][] {offset.clone(), shape.clone()});
            return;
        }
        int d = from;
        long slab = bytes / shape[d];
        long align = spec.inner() == null ? 1 : spec.inner()[d];
        long thickness = Math.max(1, spec.regionBytes() / Math.max(1, slab));
        thickness = Math.max(align, thickness / align * align);
        if (thickness >= shape[d] && shape[d] > 1) {
            thickness = (shape[d] + 1) / 2;
        }
        long start = offset[d];
        long end = offset[d] + shape[d];
        // Cut at multiples of the alignment counted from the array's origin, as inner chunks are.
        long cut = start;
        while (cut < end) {
            long next = Math.min(end, (cut / align) * align + thickness);
            if (next <= cut) {
                next = Math.min(end, cut + thickness);
            }
            long[] o = offset.clone();
            long[] s = shape.clone();
            o[d] = cut;
            s[d] = next - cut;
            split(o, s, d + 1, out);
            cut = next;
        }
    }

    private static Region await(Future<Region> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading a Zarr chunk");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IOException(c);
        }
    }

    /** Reads a box of every array; with skipFill, the rows whose values are not all fill. */
    private Region read(long[] offset, long[] shape, NdArray[] into) {
        long count = 1;
        for (long n : shape) {
            count *= n;
        }
        boolean pooled = into != null;
        NdArray[] data = pooled ? into : new NdArray[arrays.length];
        for (int a = 0; a < arrays.length; a++) {
            if (pooled) {
                arrays[a].readInto(offset, data[a]);
            } else {
                data[a] = arrays[a].read(offset, shape);
            }
        }
        // The box holds every kept index along each dimension; where it holds others too (an IN
        // list, ORed ranges), the rows are those whose indices are all kept.
        int rank = shape.length;
        boolean[][] kept = new boolean[rank][];
        boolean masked = false;
        for (int d = 0; d < rank; d++) {
            IndexSet s = spec.selection()[d];
            if (s.countWithin(offset[d], offset[d] + shape[d]) != shape[d]) {
                kept[d] = new boolean[(int) shape[d]];
                for (int i = 0; i < shape[d]; i++) {
                    kept[d][i] = s.contains(offset[d] + i);
                }
                masked = true;
            }
        }
        if (!masked && !spec.skipFill()) {
            return new Region(offset, shape, data, count, null, pooled);
        }
        int[] rows = new int[(int) count];
        int n = 0;
        long[] at = new long[rank];
        for (int i = 0; i < count; i++) {
            boolean keep = true;
            for (int d = 0; d < rank && keep; d++) {
                keep = kept[d] == null || kept[d][(int) at[d]];
            }
            if (keep && spec.skipFill()) {
                boolean allFill = true;
                for (int a = 0; a < data.length && allFill; a++) {
                    allFill = values[a].isFill(data[a], i);
                }
                keep = !allFill;
            }
            if (keep) {
                rows[n++] = i;
            }
            for (int d = rank - 1; d >= 0; d--) {
                if (++at[d] < shape[d]) {
                    break;
                }
                at[d] = 0;
            }
        }
        return new Region(offset, shape, data, n, Arrays.copyOf(rows, n), pooled);
    }

    @Override
    public void close() {
        for (Future<Region> f : ahead) {
            f.cancel(true);
        }
        ahead.clear();
        pieces.clear();
        free.clear();
        current = null;
    }
}
