package dev.zarrj.core.internal.pipeline;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * Direct buffers reused from chunk to chunk for decoded bytes on their way into a caller's array,
 * so that a read allocates no chunk-sized buffer per chunk and native decompressors (c-blosc,
 * libzstd, zlib) write into memory they can address without a copy.
 *
 * <p>Process-wide and bounded: at most {@link #BUDGET} bytes of direct memory are ever held,
 * counting buffers in use and free ones. A request that does not fit gets a plain heap buffer,
 * which the collector reclaims as usual, so the pool never makes a large read fail. A direct
 * buffer is only dropped to make room for one of another size: direct memory is freed by a
 * collection, not when a buffer is dropped, so dropping them often would let it pile up.
 *
 * <p>A buffer handed out by {@link #take} belongs to the caller until it hands it to
 * {@link #give}, exactly once; nothing may keep a view of it after that.
 */
final class ChunkBuffers {
    /** One sixteenth of the maximum heap, between 8 and 256 MiB. */
    static final long BUDGET = Math.max(8L << 20, Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 16));

    private static final ArrayDeque<ByteBuffer> FREE = new ArrayDeque<>();
    /** Capacity of every direct buffer this pool allocated and has not dropped. */
    private static long held;

    private ChunkBuffers() {}

    /** A buffer with position 0 and limit {@code size}; its content is unspecified. */
    static synchronized ByteBuffer take(int size) {
        for (Iterator<ByteBuffer> it = FREE.iterator(); it.hasNext(); ) {
            ByteBuffer b = it.next();
            // A free buffer at most twice the size, so that small chunks do not hold large buffers.
            if (b.capacity() >= size && b.capacity() / 2 <= size) {
                it.remove();
                return b.clear().limit(size);
            }
        }
        while (held + size > BUDGET && !FREE.isEmpty()) {
            held -= FREE.pollLast().capacity();
        }
        int capacity = capacity(size);
        if (size > 0 && held + capacity <= BUDGET) {
            held += capacity;
            return ByteBuffer.allocateDirect(capacity).limit(size);
        }
        return ByteBuffer.allocate(size);
    }

    /**
     * The capacity to allocate for {@code size} bytes: rounded up to a quarter of its highest
     * power of two, so that values of similar but different sizes (compressed chunks) reuse one
     * buffer instead of dropping it for one a little larger: dropped direct buffers hold their
     * memory until a collection.
     */
    static int capacity(int size) {
        int grain = Math.max(4096, Integer.highestOneBit(Math.max(size, 1)) / 4);
        long rounded = ((long) size + grain - 1) / grain * grain;
        return (int) Math.min(rounded, Integer.MAX_VALUE - 16);
    }

    /** Returns a buffer from {@link #take}. */
    static synchronized void give(ByteBuffer buffer) {
        if (buffer.isDirect()) {
            FREE.push(buffer);
        }
    }
}
