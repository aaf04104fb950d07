package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.FillValue;
import java.util.Arrays;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The decoded representation of a chunk as a codec sees it: data type, shape and fill value.
 * The spec's {@code decoded_representation_type}, passed to every codec operation so that codec
 * instances hold no array state.
 *
 * <p>Its size in bytes always fits in a {@code long}, so {@link #elementCount()} and
 * {@link #byteSize()} never overflow: a shape that would is refused here, and array metadata that
 * implies one is refused when it is opened.
 *
 * @param dataType  the element type, never null
 * @param shape     the chunk's shape (zero-length for a 0-d chunk); not modified by anyone
 * @param fillValue the array's fill value, never null
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public record ChunkSpec(DataType dataType, long[] shape, FillValue fillValue) {
    /**
     * @throws IllegalArgumentException when a dimension is negative, or the chunk would hold more
     *                                  than {@link Long#MAX_VALUE} bytes
     */
    public ChunkSpec {
        Objects.requireNonNull(dataType, "dataType");
        Objects.requireNonNull(fillValue, "fillValue");
        shape = shape.clone();
        for (long s : shape) {
            if (s < 0) {
                throw new IllegalArgumentException("negative chunk dimension in " + Arrays.toString(shape));
            }
        }
        if (product(shape, dataType.size()) < 0) {
            throw new IllegalArgumentException("a chunk of shape " + Arrays.toString(shape) + " of " + dataType.name()
                    + " would hold more than 2^63 - 1 bytes");
        }
    }

    /**
     * The product of {@code factor} and every element of {@code dims} (all non-negative), or -1
     * when it exceeds {@link Long#MAX_VALUE}.
     */
    private static long product(long[] dims, long factor) {
        for (long d : dims) {
            if (d == 0) {
                return 0;
            }
        }
        long n = factor;
        for (long d : dims) {
            if (n > Long.MAX_VALUE / d) {
                return -1;
            }
            n *= d;
        }
        return n;
    }

    /** A copy of the shape. */
    @Override
    public long[] shape() {
        return shape.clone();
    }

    /** The number of dimensions. */
    public int rank() {
        return shape.length;
    }

    /** The number of elements (1 for a 0-d chunk). */
    public long elementCount() {
        return product(shape, 1);
    }

    /** The decoded size in bytes. */
    public long byteSize() {
        return product(shape, dataType.size());
    }

    /** The same type and fill value with another shape. */
    public ChunkSpec withShape(long[] newShape) {
        return new ChunkSpec(dataType, newShape, fillValue);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkSpec c && dataType.equals(c.dataType) && Arrays.equals(shape, c.shape)
                && fillValue.equals(c.fillValue);
    }

    @Override
    public int hashCode() {
        return Objects.hash(dataType, Arrays.hashCode(shape), fillValue);
    }

    @Override
    public String toString() {
        return "ChunkSpec[" + dataType.name() + " " + Arrays.toString(shape) + "]";
    }
}
