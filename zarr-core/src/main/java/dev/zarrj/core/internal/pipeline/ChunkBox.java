package dev.zarrj.core.internal.pipeline;

import dev.zarrj.core.internal.metadata.ArrayMetadata;
import java.util.Arrays;

/**
 * The box of chunk grid coordinates that a region touches, numbered in C order from 0 to
 * {@link #count()} - 1.
 *
 * @param first   the grid coordinates of the box's first chunk
 * @param extents the number of chunks along each dimension
 * @param count   the number of chunks
 */
record ChunkBox(long[] first, long[] extents, long count) {
    /**
     * The chunks that the region {@code [offset, offset + shape)} touches, or null when the region
     * is empty.
     *
     * @throws IllegalArgumentException when the region lies outside the array
     */
    static ChunkBox of(ArrayMetadata meta, long[] offset, long[] shape) {
        long[] arrayShape = meta.shape();
        int rank = arrayShape.length;
        if (offset.length != rank || shape.length != rank) {
            throw new IllegalArgumentException("region of rank " + offset.length + "/" + shape.length
                    + " for an array of rank " + rank);
        }
        for (int d = 0; d < rank; d++) {
            if (offset[d] < 0 || shape[d] < 0 || shape[d] > arrayShape[d] - offset[d]) {
                throw new IllegalArgumentException("region offset " + Arrays.toString(offset) + " shape "
                        + Arrays.toString(shape) + " lies outside the array's shape " + Arrays.toString(arrayShape));
            }
        }
        for (int d = 0; d < rank; d++) {
            if (shape[d] == 0) {
                return null;
            }
        }
        long[] first = new long[rank];
        long[] extents = new long[rank];
        long count = 1;
        for (int d = 0; d < rank; d++) {
            first[d] = meta.chunkGrid().chunkIndex(d, offset[d]);
            long last = meta.chunkGrid().chunkIndex(d, offset[d] + shape[d] - 1);
            extents[d] = last - first[d] + 1;
            count = Math.multiplyExact(count, extents[d]);
        }
        return new ChunkBox(first, extents, count);
    }

    /** The grid coordinates of the {@code i}-th chunk. */
    long[] coords(long i) {
        long[] coords = new long[first.length];
        long rest = i;
        for (int d = first.length - 1; d >= 0; d--) {
            coords[d] = first[d] + rest % extents[d];
            rest /= extents[d];
        }
        return coords;
    }

    /** The number of the chunk at these grid coordinates, or -1 when it lies outside the box. */
    long indexOf(long[] coords) {
        if (coords.length != first.length) {
            return -1;
        }
        long i = 0;
        for (int d = 0; d < first.length; d++) {
            long c = coords[d] - first[d];
            if (c < 0 || c >= extents[d]) {
                return -1;
            }
            i = i * extents[d] + c;
        }
        return i;
    }
}
