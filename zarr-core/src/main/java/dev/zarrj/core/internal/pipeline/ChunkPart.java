package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.Region;
import dev.zarrj.core.internal.metadata.ArrayMetadata;

/**
 * One chunk's share of a region {@code [offset, offset + shape)} of an array: where it lies in
 * the chunk and in the region, and whether it covers the whole chunk.
 *
 * @param coords     the chunk's grid coordinates
 * @param inChunk    where the share starts in the chunk
 * @param inRegion   where the share starts in the region
 * @param extent     the share's shape
 * @param wholeChunk whether the share covers every element of the chunk that lies inside the
 *                   array (so a write need not read the chunk first)
 */
record ChunkPart(long[] coords, long[] inChunk, long[] inRegion, long[] extent, boolean wholeChunk) {
    /** The share of the chunk at {@code coords} in the region {@code [offset, offset + shape)}. */
    static ChunkPart of(ArrayMetadata meta, long[] coords, long[] offset, long[] shape) {
        int rank = coords.length;
        long[] arrayShape = meta.shape();
        long[] inChunk = new long[rank];
        long[] inRegion = new long[rank];
        long[] extent = new long[rank];
        boolean whole = true;
        for (int d = 0; d < rank; d++) {
            long cs = meta.chunkGrid().chunkStart(d, coords[d]);
            long cl = meta.chunkGrid().chunkLength(d, coords[d]);
            long start = Math.max(offset[d], cs);
            long end = Math.min(offset[d] + shape[d], cs + cl);
            inChunk[d] = start - cs;
            inRegion[d] = start - offset[d];
            extent[d] = end - start;
            long inArrayEnd = Math.min(cs + cl, arrayShape[d]);
            if (start != cs || end != inArrayEnd) {
                whole = false;
            }
        }
        return new ChunkPart(coords, inChunk, inRegion, extent, whole);
    }

    /** The share as a region of its chunk. */
    Region ofChunk() {
        return Region.of(inChunk, extent);
    }

    /** The share as a region of the caller's array, which holds the whole region. */
    Region ofRegion() {
        return Region.of(inRegion, extent);
    }
}
