package dev.zarrj.spark.internal.chunks;

import dev.zarrj.spark.internal.ArrayRef;
import java.io.Serializable;
import java.util.List;

/**
 * What an executor needs to read chunk rows, sent once per task.
 *
 * @param arrays    the arrays whose values are read
 * @param columns   the output columns in order: {@link #COORDS}, {@link #SHAPE}, {@code d >= 0} the
 *                  origin along dimension {@code d}, {@code VALUES - i} the values of {@code arrays.get(i)}
 * @param shape     the arrays' shape
 * @param grid      the chunk shape of the grid (the shard shape, when sharded)
 * @param skipFill  whether chunks whose values all equal the fill value are omitted
 */
record ChunkReadSpec(List<ArrayRef> arrays, int[] columns, long[] shape, long[] grid, boolean skipFill)
        implements Serializable {
    static final int COORDS = -1;
    static final int SHAPE = -2;
    static final int VALUES = -3;

    /** The number of chunks along each dimension. */
    long[] gridShape() {
        long[] g = new long[shape.length];
        for (int d = 0; d < g.length; d++) {
            g[d] = shape[d] == 0 ? 0 : (shape[d] + grid[d] - 1) / grid[d];
        }
        return g;
    }
}
