package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InsufficientMemoryException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import java.nio.ByteBuffer;
import java.util.function.Supplier;

/**
 * Allocations whose size comes from metadata or from a caller's region: a size larger than the
 * heap is refused before allocating, and an {@link OutOfMemoryError} becomes an
 * {@link InsufficientMemoryException} naming what needed the memory, so that it never reaches a
 * user.
 */
public final class Memory {
    private Memory() {}

    /**
     * A heap buffer of {@code size} bytes (position 0, limit {@code size}).
     *
     * @param what what needs it, for the message
     * @throws InsufficientMemoryException when the heap cannot give it
     */
    static ByteBuffer heap(int size, String what) {
        long max = Runtime.getRuntime().maxMemory();
        if (size > max) {
            throw new InsufficientMemoryException(what, size, max, null);
        }
        try {
            return ByteBuffer.allocate(size);
        } catch (OutOfMemoryError e) {
            throw new InsufficientMemoryException(what, size, max, e);
        }
    }

    /**
     * {@link NdArray#allocate}: a zero-filled array.
     *
     * @param what what needs it, for the message
     * @throws InsufficientMemoryException when the heap cannot give it
     * @throws IllegalArgumentException    when it is larger than one buffer can be (2 GiB)
     */
    public static NdArray array(DataType dataType, long[] shape, Supplier<String> what) {
        long bytes = dataType.size();
        for (long d : shape) {
            bytes = d <= 0 ? 0 : bytes > Long.MAX_VALUE / d ? Long.MAX_VALUE : bytes * d;
        }
        long max = Runtime.getRuntime().maxMemory();
        if (bytes > max && bytes <= Integer.MAX_VALUE - 8) {
            throw new InsufficientMemoryException(what.get(), bytes, max, null);
        }
        try {
            return NdArray.allocate(dataType, shape);
        } catch (OutOfMemoryError e) {
            throw new InsufficientMemoryException(what.get(), bytes, max, e);
        }
    }

    /**
     * A chunk-sized array whose content is unspecified: in memory lent by {@code lease} for a type
     * of fixed-size elements, a new array of objects for a variable-length one.
     */
    static NdArray chunk(ChunkSpec spec, BufferLease lease) {
        if (spec.dataType().kind().isVariableLength()) {
            return NdArray.allocate(spec.dataType(), spec.shape());
        }
        return NdArray.wrap(spec.dataType(), lease.borrow((int) spec.byteSize()), spec.shape());
    }
}
