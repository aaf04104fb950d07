package dev.zarrj.core.internal.selection;

import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.grid.ChunkGrid;
import dev.zarrj.core.internal.metadata.ArrayMetadata;
import dev.zarrj.core.internal.pipeline.ChunkReader;
import dev.zarrj.core.internal.pipeline.ParallelTasks;
import dev.zarrj.core.internal.selection.DimGroups.Segment;
import dev.zarrj.core.selection.Selection;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Reads a resolved selection chunk by chunk: only the chunks it touches, each fetched and
 * decoded once ({@link ChunkReader#readChunks}) however many of its elements are taken.
 *
 * <p>Orthogonal selections are grouped per dimension by chunk. A chunk whose selected indices
 * are, in every dimension, consecutive and in natural order is decoded straight into the result,
 * as a region read does. Otherwise the chunk's parts holding selected elements are decoded into a
 * scratch array and gathered: per dimension the range from the first to the last index taken, or,
 * for a chunk read in pieces (a shard's inner chunks, {@code ArrayPartialDecoder.innerChunkShape}),
 * the runs of consecutive touched pieces, one decode per box of the outer product of runs, so that
 * a shard is asked only for the inner chunks holding selected elements; a chunk read in pieces
 * whose selection touches at least half of them (a strided selection of a shard, say) is fetched
 * whole in one request instead, and decoded a piece at a time into a scratch array of the
 * piece's size, gathered while it is in the cache, the pieces shared among the read's threads
 * (a read of fewer chunks than threads keeps every thread busy). Points are grouped by
 * chunk, and within a chunk read in pieces by piece. Either way a box larger than
 * {@link #SCRATCH_BYTES} is cut (into fewer pieces per box, or ranges of the indices taken, or
 * boxes of points), so that a few elements of a huge chunk never need a scratch array of its
 * size. Absent chunks read as the fill value.
 */
public final class SelectionReader {
    private SelectionReader() {}

    /**
     * Reads {@code sel} into {@code out}, an array of the selection's shape.
     *
     * @param outZeroed whether {@code out} holds zeros (freshly allocated)
     */
    public static void read(ChunkReader reader, ArrayMetadata meta, Selection.Resolved sel, NdArray out,
                            boolean outZeroed) {
        if (sel.elementCount() == 0) {
            return;
        }
        int rank = meta.rank();
        if (rank == 0) {
            reader.read(new long[0], out.reshape(), outZeroed);
            return;
        }
        FillValue fill = outZeroed && NdArray.holdsAfterAllocate(meta.dataType(), meta.fillValue()) ? null
                : meta.fillValue();
        if (sel.kind() == Selection.Kind.POINTS) {
            readPoints(reader, meta, sel, out, fill);
        } else {
            readOrthogonal(reader, meta, sel, out, fill);
        }
    }

    private static void readOrthogonal(ChunkReader reader, ArrayMetadata meta, Selection.Resolved sel, NdArray out,
                                       FillValue fill) {
        int rank = meta.rank();
        ChunkGrid grid = meta.chunkGrid();
        DimGroups.Product product = DimGroups.Product.of(sel, grid, rank);
        DimGroups[] groups = product.dims();
        NdArray full = out.reshape(product.fullShape());
        long[] fullStrides = Elements.strides(product.fullShape());
        boolean[][] runs = new boolean[rank][];
        for (int d = 0; d < rank; d++) {
            runs[d] = new boolean[groups[d].chunks.length];
            for (int t = 0; t < runs[d].length; t++) {
                runs[d][t] = groups[d].run(t);
            }
        }
        reader.readChunks(product.total(), product::coords, j -> {
            int[] t = product.touched(j);
            long[] coords = product.coords(j);
            long[] chunkShape = grid.chunkShape(coords);
            long[] origin = grid.chunkOrigin(coords);
            boolean direct = true;
            long volume = 1;
            long needed = 1;
            for (int d = 0; d < rank; d++) {
                long[] l = groups[d].loc[t[d]];
                // Whole as region reads count it: every element of the chunk inside the array.
                direct &= runs[d][t[d]] && l.length == Math.min(chunkShape[d], meta.shape()[d] - origin[d]);
                volume *= chunkShape[d];
                needed *= Arrays.stream(l).max().getAsLong() - Arrays.stream(l).min().getAsLong() + 1;
            }
            Optional<long[]> inner = reader.innerChunkShape(coords);
            return direct || (inner.isEmpty() ? 2 * needed >= volume
                    : byPiece(meta.chunkSpec(coords).byteSize(), groups, t, inner.get(), chunkShape));
        }, (j, chunk) -> {
            int[] t = product.touched(j);
            long[] chunkShape = chunk.spec().shape();
            boolean direct = true;
            for (int d = 0; d < rank; d++) {
                direct &= runs[d][t[d]];
            }
            if (direct) {
                long[] inChunk = new long[rank];
                long[] shape = new long[rank];
                long[] at = new long[rank];
                for (int d = 0; d < rank; d++) {
                    inChunk[d] = groups[d].loc[t[d]][0];
                    shape[d] = groups[d].loc[t[d]].length;
                    at[d] = groups[d].pos[t[d]][0];
                }
                if (!chunk.decodeInto(Region.of(inChunk, shape), full, at) && fill != null) {
                    full.fill(fill, Region.of(at, shape));
                }
                return;
            }
            Optional<long[]> inner = reader.innerChunkShape(chunk.coords());
            // A chunk read in pieces whose selection touches most of them is fetched whole once and
            // decoded a piece at a time, each gathered while it is still in the cache; otherwise
            // runs of touched pieces are decoded as boxes, one request each.
            boolean byPiece = inner.isPresent()
                    && byPiece(chunk.spec().byteSize(), groups, t, inner.get(), chunkShape);
            if (byPiece) {
                chunk.fetchWhole();
            }
            Segment[][] segments = new Segment[rank][];
            long[] longest = new long[rank];
            for (int d = 0; d < rank; d++) {
                segments[d] = groups[d].segments(t[d], inner.isPresent() ? inner.get()[d] : 0, chunkShape[d],
                        byPiece ? 1 : Long.MAX_VALUE);
                longest[d] = longest(segments[d]);
            }
            // Decoded a box at a time: boxes of a large chunk are cut so that the scratch stays bounded.
            long size = meta.dataType().size();
            for (int d = 0; d < rank; d++) {
                size = multiplyCapped(size, longest[d]);
            }
            for (int d = 0; d < rank && size > SCRATCH_BYTES; d++) {
                if (inner.isPresent()) {
                    long pieces = Math.max(1, longest[d] / inner.get()[d] * SCRATCH_BYTES / size);
                    segments[d] = groups[d].segments(t[d], inner.get()[d], chunkShape[d], pieces);
                } else {
                    segments[d] = groups[d].segmentsWithin(t[d], span(longest[d], size));
                }
                long shorter = longest(segments[d]);
                size = size / longest[d] * shorter;
                longest[d] = shorter;
            }
            int parts = 1;
            for (int d = 0; d < rank; d++) {
                parts = Math.multiplyExact(parts, segments[d].length);
            }
            chunk.expectParts(parts);
            Segment[][] segs = segments;
            PartDecoder decode = (p, lender) -> {
                long[] offset = new long[rank];
                long[] shape = new long[rank];
                long[][] rel = new long[rank][];
                long[][] pos = new long[rank][];
                for (int d = rank - 1, rest = p; d >= 0; d--) {
                    Segment seg = segs[d][rest % segs[d].length];
                    rest /= segs[d].length;
                    offset[d] = seg.start();
                    shape[d] = seg.length();
                    rel[d] = seg.rel();
                    pos[d] = Elements.asLongs(seg.pos());
                }
                NdArray scratch = lender.apply(shape);
                boolean stored = chunk.decodeInto(Region.of(offset, shape), scratch, new long[rank]);
                if (stored || fill != null) {
                    if (!stored) {
                        scratch.fill(fill);
                    }
                    Elements.outer(new Elements(scratch, full), rel, Elements.strides(shape), pos, fullStrides, true);
                }
            };
            // The first part fetches the chunk; then, read by pieces, the others are decoded in
            // parallel, so that threads left without chunks of their own help with this one.
            decode.part(0, chunk::scratch);
            ParallelTasks tasks = reader.tasks();
            if (!byPiece || parts <= 2 || tasks.parallelism() == 1) {
                for (int p = 1; p < parts; p++) {
                    decode.part(p, chunk::scratch);
                }
                return;
            }
            AtomicInteger next = new AtomicInteger(1);
            int all = parts;
            tasks.forEach(Math.min(tasks.parallelism(), parts - 1), w -> {
                Function<long[], NdArray> lender = w == 0 ? chunk::scratch : chunk.scratchLender();
                for (int p; (p = next.getAndIncrement()) < all; ) {
                    decode.part(p, lender);
                }
            });
        });
    }

    /** Decodes part {@code p} of a chunk into a scratch array from {@code lender} and gathers it. */
    @FunctionalInterface
    private interface PartDecoder {
        void part(int p, Function<long[], NdArray> lender);
    }

    /**
     * Whether the touched chunk {@code t} (per dimension), of {@code bytes} decoded bytes, is read
     * whole and decoded piece by piece: when it takes elements from at least half of its pieces
     * of shape {@code inner}, and is no larger than a box ({@link #SCRATCH_BYTES}), so that
     * holding its stored bytes costs no more memory than decoding a box of it did.
     */
    static boolean byPiece(long bytes, DimGroups[] groups, int[] t, long[] inner, long[] chunkShape) {
        if (bytes > SCRATCH_BYTES) {
            return false;
        }
        long touched = 1;
        long all = 1;
        for (int d = 0; d < groups.length; d++) {
            touched *= groups[d].piecesTouched(t[d], inner[d]);
            all *= (chunkShape[d] + inner[d] - 1) / inner[d];
        }
        return 2 * touched >= all;
    }

    /** The most bytes of one decoded box of a chunk read in pieces (a shard), before it is cut. */
    static final long SCRATCH_BYTES = 64L << 20;

    private static long longest(Segment[] segments) {
        long n = 0;
        for (Segment s : segments) {
            n = Math.max(n, s.length());
        }
        return n;
    }

    /** How much of a dimension whose boxes are {@code longest} long a box may span so that boxes of {@code size} bytes shrink to the bound. */
    private static long span(long longest, long size) {
        return Math.max(1, (long) (longest * ((double) SCRATCH_BYTES / size)));
    }

    private static long multiplyCapped(long a, long b) {
        return b != 0 && a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }

    /**
     * The points of a chunk without inner pieces as one group, or, when the box around them holds
     * more than {@link #SCRATCH_BYTES}, grouped by boxes of the chunk small enough to decode at once.
     */
    private static int[][] boundedPieces(PointGroups g, int[] points, long[] start, long[] chunkShape, long elementSize) {
        int rank = start.length;
        long[] extent = new long[rank];
        for (int d = 0; d < rank; d++) {
            long lo = Long.MAX_VALUE;
            long hi = Long.MIN_VALUE;
            for (int k : points) {
                lo = Math.min(lo, g.coordinate(d, k));
                hi = Math.max(hi, g.coordinate(d, k));
            }
            extent[d] = hi - lo + 1;
        }
        long size = elementSize;
        for (long e : extent) {
            size = multiplyCapped(size, e);
        }
        if (size <= SCRATCH_BYTES) {
            return new int[][] {points};
        }
        long[] box = chunkShape.clone();
        for (int d = 0; d < rank && size > SCRATCH_BYTES; d++) {
            box[d] = Math.min(chunkShape[d], span(extent[d], size));
            size = size / extent[d] * Math.min(extent[d], box[d]);
        }
        return g.byPiece(points, start, chunkShape, box);
    }

    private static void readPoints(ChunkReader reader, ArrayMetadata meta, Selection.Resolved sel, NdArray out,
                                   FillValue fill) {
        PointGroups g = PointGroups.of(meta, sel);
        NdArray flat = out.reshape(out.elementCount());
        int rank = meta.rank();
        // A chunk without inner pieces is fetched whole, ahead when that is on: its decoder needs all of it.
        reader.readChunks(g.chunkCount(), g::coords, b -> reader.innerChunkShape(g.coords(b)).isEmpty(), (b, chunk) -> {
            long[] start = meta.chunkGrid().chunkOrigin(chunk.coords());
            int[] points = g.points(b);
            Optional<long[]> inner = reader.innerChunkShape(chunk.coords());
            int[][] pieces = inner.isPresent() ? g.byPiece(points, start, chunk.spec().shape(), inner.get())
                    : boundedPieces(g, points, start, chunk.spec().shape(), meta.dataType().size());
            chunk.expectParts(pieces.length);
            for (int[] piece : pieces) {
                long[] lo = new long[rank];
                long[] hi = new long[rank];
                Arrays.fill(lo, Long.MAX_VALUE);
                for (int k : piece) {
                    for (int d = 0; d < rank; d++) {
                        long l = g.coordinate(d, k) - start[d];
                        lo[d] = Math.min(lo[d], l);
                        hi[d] = Math.max(hi[d], l + 1);
                    }
                }
                long[] shape = new long[rank];
                for (int d = 0; d < rank; d++) {
                    shape[d] = hi[d] - lo[d];
                }
                NdArray scratch = chunk.scratch(shape);
                boolean stored = chunk.decodeInto(Region.of(lo, shape), scratch, new long[rank]);
                if (!stored && fill == null) {
                    continue;
                }
                if (!stored) {
                    scratch.fill(fill);
                }
                Elements e = new Elements(scratch, flat);
                long[] strides = Elements.strides(shape);
                for (int k : piece) {
                    long s = 0;
                    for (int d = 0; d < rank; d++) {
                        s += (g.coordinate(d, k) - start[d] - lo[d]) * strides[d];
                    }
                    e.copy(s, k);
                }
            }
        });
    }
}
