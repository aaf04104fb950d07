package dev.zarrj.core.internal.grid.regular;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.grid.ChunkGrid;
import java.util.Arrays;

/**
 * The {@code regular} chunk grid: every chunk is a hyperrectangle of one shape, aligned with the
 * array's origin; chunks at the far edges overhang the array and still have the full shape.
 *
 * <p>Spec: {@code chunk-grids-regular-grid.rst}
 * (<a href="https://zarr-specs.readthedocs.io/en/latest/v3/chunk-grids/regular-grid/">regular grid</a>).
 * Name: {@code regular}; no aliases.
 *
 * <pre>{@code
 * "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [5, 20, 400]}}
 * }</pre>
 *
 * <p>A 0-d array has the grid {@code "chunk_shape": []} and one chunk. Immutable and thread-safe.
 */
public final class RegularChunkGrid implements ChunkGrid {
    /** Where the grid's chunk shape sits in array metadata; the grid only ever appears there. */
    static final String CHUNK_SHAPE_POINTER = "/chunk_grid/configuration/chunk_shape";

    private final long[] chunkShape;

    RegularChunkGrid(long[] chunkShape) {
        this.chunkShape = chunkShape;
    }

    /**
     * A grid of this chunk shape.
     *
     * @throws InvalidMetadataException when a chunk length is below 1
     */
    public static RegularChunkGrid of(long... chunkShape) {
        long[] shape = chunkShape.clone();
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] < 1) {
                throw new InvalidMetadataException(CHUNK_SHAPE_POINTER + "/" + d, "regular: 'chunk_shape' must hold"
                        + " integers >= 1, found " + shape[d] + " in " + Arrays.toString(shape));
            }
        }
        return new RegularChunkGrid(shape);
    }

    @Override
    public String name() {
        return RegularChunkGridProvider.NAME;
    }

    @Override
    public ObjectNode configuration() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        ArrayNode shape = node.putArray("chunk_shape");
        for (long s : chunkShape) {
            // The node type a JSON parser gives, so that read-then-written metadata compares equal.
            if (s <= Integer.MAX_VALUE) {
                shape.add((int) s);
            } else {
                shape.add(s);
            }
        }
        return node;
    }

    /** A copy of the chunk shape. */
    public long[] chunkShape() {
        return chunkShape.clone();
    }

    @Override
    public int rank() {
        return chunkShape.length;
    }

    @Override
    public void validate(long[] arrayShape) {
        if (arrayShape.length != chunkShape.length) {
            throw new InvalidMetadataException(CHUNK_SHAPE_POINTER, "regular: 'chunk_shape' "
                    + Arrays.toString(chunkShape) + " has rank " + chunkShape.length + " but the array shape "
                    + Arrays.toString(arrayShape) + " has rank " + arrayShape.length
                    + "; give one chunk length per array dimension");
        }
    }

    @Override
    public long gridLength(int d, long arrayLength) {
        long c = chunkShape[d];
        // ceil(len / c) without the overflow of (len + c - 1) / c.
        return arrayLength / c + (arrayLength % c == 0 ? 0 : 1);
    }

    @Override
    public long chunkIndex(int d, long coordinate) {
        return Math.floorDiv(coordinate, chunkShape[d]);
    }

    @Override
    public long chunkStart(int d, long index) {
        return index * chunkShape[d];
    }

    @Override
    public long chunkLength(int d, long index) {
        return chunkShape[d];
    }

    @Override
    public long[] chunkShape(long[] chunkCoords) {
        return chunkShape.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RegularChunkGrid g && Arrays.equals(chunkShape, g.chunkShape);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(chunkShape);
    }

    @Override
    public String toString() {
        return "regular" + Arrays.toString(chunkShape);
    }
}
