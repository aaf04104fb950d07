package dev.zarrj.core.internal.metadata;

import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.grid.ChunkGrid;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Locale;

/**
 * The sizes that reading and writing derive from array metadata, checked when the metadata is
 * opened: the end of each dimension's last chunk, elements and bytes per chunk, and chunks per
 * array must each fit in a {@code long}. Metadata that implies more is refused naming the field
 * and the value, so that no later arithmetic on these sizes can overflow.
 *
 * <p>A grid whose chunks differ in shape is checked at its first chunk here and chunk by chunk
 * where chunks are described ({@link dev.zarrj.api.ChunkSpec} refuses what does not fit).
 */
final class ArrayLimits {
    private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final String REGULAR_CHUNK_SHAPE = "/chunk_grid/configuration/chunk_shape";

    private ArrayLimits() {}

    /**
     * Checks the sizes derived from a shape, a data type and a chunk grid of the same rank.
     *
     * @throws InvalidMetadataException naming {@code /shape} or the chunk grid's field, its value
     *         and the size it implies
     */
    static void check(long[] shape, DataType dataType, ChunkGrid grid) {
        boolean regular = grid.name().equals("regular");
        String chunkPointer = regular ? REGULAR_CHUNK_SHAPE : "/chunk_grid";
        String chunkField = regular ? "chunk_grid.configuration.chunk_shape" : "the chunk grid's first chunk";
        long[] gridShape = new long[shape.length];
        long[] chunkShape;
        try {
            for (int d = 0; d < shape.length; d++) {
                long n = grid.gridLength(d, shape[d]);
                gridShape[d] = n;
                if (n < 0) {
                    throw new InvalidMetadataException("/chunk_grid", "the chunk grid gives " + n
                            + " chunks along dimension " + d + " of shape " + Arrays.toString(shape));
                }
                if (n > 0) {
                    long start = grid.chunkStart(d, n - 1);
                    long length = grid.chunkLength(d, n - 1);
                    if (start < 0 || length < 0 || start > Long.MAX_VALUE - length) {
                        throw new InvalidMetadataException("/shape/" + d, "shape " + Arrays.toString(shape) + " in "
                                + describeGrid(grid) + ": the last chunk along dimension " + d + " starts at " + start
                                + " and is " + length + " long, so it ends past 2^63 - 1, beyond what zarrj can"
                                + " address; use a smaller shape or chunk length");
                    }
                }
            }
            chunkShape = grid.chunkShape(new long[shape.length]);
        } catch (ArithmeticException e) {
            throw new InvalidMetadataException("/chunk_grid", describeGrid(grid) + " overflows for shape "
                    + Arrays.toString(shape) + ": " + e.getMessage(), e);
        }
        BigInteger elements = product(chunkShape);
        BigInteger bytes = elements.multiply(BigInteger.valueOf(dataType.size()));
        if (bytes.compareTo(MAX) > 0) {
            throw new InvalidMetadataException(chunkPointer, chunkField + " " + Arrays.toString(chunkShape) + " of "
                    + dataType.name() + " is " + approximately(bytes) + " bytes, more than a chunk can hold"
                    + " (2^63 - 1 bytes); use smaller chunks");
        }
        BigInteger chunks = product(gridShape);
        if (chunks.compareTo(MAX) > 0) {
            throw new InvalidMetadataException("/shape", "shape " + Arrays.toString(shape) + " in chunks of "
                    + Arrays.toString(chunkShape) + " makes " + approximately(chunks) + " chunks ("
                    + Arrays.toString(gridShape) + "), more than an array can hold (2^63 - 1); use larger chunks");
        }
    }

    private static String describeGrid(ChunkGrid grid) {
        return grid.name().equals("regular") ? "chunk_grid.configuration.chunk_shape "
                + Arrays.toString(grid.chunkShape(new long[grid.rank()])) : "the chunk grid '" + grid.name() + "'";
    }

    private static BigInteger product(long[] values) {
        BigInteger p = BigInteger.ONE;
        for (long v : values) {
            p = p.multiply(BigInteger.valueOf(v));
        }
        return p;
    }

    /** A large number for messages: {@code 1.8e19}. */
    static String approximately(BigInteger n) {
        return String.format(Locale.ROOT, "%.1e", n.doubleValue()).replace("e+", "e");
    }
}
