package dev.zarrj.core.internal.selection;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.grid.ChunkGrid;
import dev.zarrj.core.internal.metadata.ArrayMetadata;
import dev.zarrj.core.internal.pipeline.ChunkWriter;
import dev.zarrj.core.selection.Selection;

/**
 * Writes a resolved selection chunk by chunk ({@link ChunkWriter#updateChunk}), grouped as
 * {@link SelectionReader} groups reads: a chunk whose every element in the array is selected is
 * encoded without reading it; any other is read, changed and written under the chunk's lock (and
 * conditionally when the store can), so that concurrent writers in one process lose nothing.
 * Within a chunk the elements are set in the data's C order, so an element selected twice gets
 * the later occurrence's value.
 */
public final class SelectionWriter {
    private SelectionWriter() {}

    /** Writes {@code data}, of the selection's shape, into the elements {@code sel} takes. */
    public static void write(ChunkWriter writer, ArrayMetadata meta, Selection.Resolved sel, NdArray data) {
        if (sel.elementCount() == 0) {
            return;
        }
        int rank = meta.rank();
        if (rank == 0) {
            NdArray value = data.reshape();
            writer.updateChunk(new long[0], true, chunk -> new Elements(value, chunk).copy(0, 0));
            return;
        }
        if (sel.kind() == Selection.Kind.POINTS) {
            writePoints(writer, meta, sel, data);
        } else {
            writeOrthogonal(writer, meta, sel, data);
        }
    }

    private static void writeOrthogonal(ChunkWriter writer, ArrayMetadata meta, Selection.Resolved sel, NdArray data) {
        int rank = meta.rank();
        ChunkGrid grid = meta.chunkGrid();
        long[] arrayShape = meta.shape();
        DimGroups.Product product = DimGroups.Product.of(sel, grid, rank);
        DimGroups[] groups = product.dims();
        boolean[][] covers = new boolean[rank][];
        for (int d = 0; d < rank; d++) {
            covers[d] = new boolean[groups[d].chunks.length];
            for (int t = 0; t < covers[d].length; t++) {
                long c = groups[d].chunks[t];
                long inArray = Math.min(grid.chunkLength(d, c), arrayShape[d] - grid.chunkStart(d, c));
                covers[d][t] = groups[d].loc[t].length >= inArray && groups[d].distinctLocal(t) == inArray;
            }
        }
        NdArray full = data.reshape(product.fullShape());
        long[] fullStrides = Elements.strides(product.fullShape());
        writer.forEachChunk(product.total(), j -> {
            int[] t = product.touched(j);
            long[] coords = product.coords(j);
            boolean covered = true;
            long[][] pos = new long[rank][];
            long[][] loc = new long[rank][];
            for (int d = 0; d < rank; d++) {
                covered &= covers[d][t[d]];
                pos[d] = Elements.asLongs(groups[d].pos[t[d]]);
                loc[d] = groups[d].loc[t[d]];
            }
            long[] chunkStrides = Elements.strides(grid.chunkShape(coords));
            writer.updateChunk(coords, covered, chunk ->
                    Elements.outer(new Elements(full, chunk), pos, fullStrides, loc, chunkStrides, true));
        });
    }

    private static void writePoints(ChunkWriter writer, ArrayMetadata meta, Selection.Resolved sel, NdArray data) {
        PointGroups g = PointGroups.of(meta, sel);
        NdArray flat = data.reshape(data.elementCount());
        int rank = meta.rank();
        writer.forEachChunk(g.chunkCount(), b -> {
            long[] coords = g.coords(b);
            long[] origin = meta.chunkGrid().chunkOrigin(coords);
            long[] strides = Elements.strides(meta.chunkGrid().chunkShape(coords));
            int[] points = g.points(b);
            writer.updateChunk(coords, g.covers(b), chunk -> {
                Elements e = new Elements(flat, chunk);
                for (int k : points) {
                    long at = 0;
                    for (int d = 0; d < rank; d++) {
                        at += (g.coordinate(d, k) - origin[d]) * strides[d];
                    }
                    e.copy(k, at);
                }
            });
        });
    }
}
