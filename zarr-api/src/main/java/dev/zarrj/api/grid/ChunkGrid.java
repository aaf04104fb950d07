package dev.zarrj.api.grid;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.Extension;
import dev.zarrj.api.InvalidMetadataException;
import org.apiguardian.api.API;

/**
 * How an array's index space is cut into chunks (the {@code chunk_grid} of array metadata).
 *
 * <p>Expressed per dimension, which covers regular and rectilinear grids: chunk {@code i} along
 * dimension {@code d} starts at {@link #chunkStart} and is {@link #chunkLength} long; its chunk
 * shape is the full length even where it overhangs the array's edge. Immutable and thread-safe.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface ChunkGrid extends Extension {
    /** The number of dimensions this grid has. */
    int rank();

    /**
     * Checks that this grid fits an array of this shape.
     *
     * @throws InvalidMetadataException naming the field that does not fit
     */
    void validate(long[] arrayShape);

    /** The number of chunks along dimension {@code d} for an array of length {@code arrayLength}. */
    long gridLength(int d, long arrayLength);

    /** The chunk index along dimension {@code d} that holds array coordinate {@code coordinate}. */
    long chunkIndex(int d, long coordinate);

    /** The array coordinate where chunk {@code index} starts along dimension {@code d}. */
    long chunkStart(int d, long index);

    /** The length of chunk {@code index} along dimension {@code d}. */
    long chunkLength(int d, long index);

    /** The grid's shape for an array shape. */
    default long[] gridShape(long[] arrayShape) {
        long[] g = new long[arrayShape.length];
        for (int d = 0; d < g.length; d++) {
            g[d] = gridLength(d, arrayShape[d]);
        }
        return g;
    }

    /** The shape of one chunk. */
    default long[] chunkShape(long[] chunkCoords) {
        long[] s = new long[chunkCoords.length];
        for (int d = 0; d < s.length; d++) {
            s[d] = chunkLength(d, chunkCoords[d]);
        }
        return s;
    }

    /** The array coordinates of a chunk's first element. */
    default long[] chunkOrigin(long[] chunkCoords) {
        long[] s = new long[chunkCoords.length];
        for (int d = 0; d < s.length; d++) {
            s[d] = chunkStart(d, chunkCoords[d]);
        }
        return s;
    }
}
