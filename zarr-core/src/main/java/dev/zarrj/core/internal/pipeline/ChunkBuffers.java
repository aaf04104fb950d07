package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.InsufficientMemoryException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Direct buffers reused from chunk to chunk for decoded bytes on their way into a caller's array,
 * so that a read allocates no chunk-sized buffer per chunk and native decompressors (c-blosc,
 * libzstd, zlib) write into memory they can address without a copy.
 *
 * <p>Process-wide and bounded: at most {@link #BUDGET} bytes of direct memory are ever held,
 * counting buffers in use and free ones. A request that does not fit, or is smaller than
 * {@link #MIN_POOLED}, gets a plain heap buffer, which the collector reclaims as usual, so the pool
 * never makes a read fail for want of direct memory; a heap that cannot give the buffer is an
 * {@link InsufficientMemoryException}, never an {@link OutOfMemoryError}. Capacities come in bands
 * ({@link #capacity}) and free buffers are kept per band, so that finding one costs a lookup and
 * values of similar sizes (compressed chunks) share buffers. A free buffer is only dropped to make room for one of another band: direct
 * memory is freed by a collection, not when a buffer is dropped, so dropping them often would let
 * it pile up.
 *
 * <p>A buffer handed out by {@link #take} belongs to the caller until it hands it to
 * {@link #give}, exactly once; nothing may keep a view of it after that.
 */
final class ChunkBuffers {
    /** One sixteenth of the maximum heap, between 8 and 256 MiB. */
    static final long BUDGET = Math.max(8L << 20, Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 16));
    /** Smaller requests are served from the heap: allocating them costs less than pooling them. */
    static final int MIN_POOLED = 64 << 10;

    /** Free buffers by capacity. */
    private static final Map<Integer, ArrayDeque<ByteBuffer>> FREE = new HashMap<>();
    /** Capacity of every direct buffer this pool allocated and has not dropped, in use or free. */
    private static long held;

    private ChunkBuffers() {}

    /**
     * A buffer with position 0 and limit {@code size}; its content is unspecified.
     *
     * @throws InsufficientMemoryException when neither the pool nor the heap can give it
     */
    static ByteBuffer take(int size) {
        return take(size, null);
    }

    /**
     * As {@link #take(int)}, running {@code beforeAllocating} (when not null) only if new memory
     * must be allocated: a buffer reused from the pool costs no check, an allocation is checked
     * first (the pipeline asks whether the encoded bytes can decode to {@code size}).
     */
    static ByteBuffer take(int size, Runnable beforeAllocating) {
        if (size < MIN_POOLED) {
            return ByteBuffer.allocate(size);
        }
        ByteBuffer pooled = takeFree(size);
        if (pooled != null) {
            return pooled;
        }
        if (beforeAllocating != null) {
            beforeAllocating.run();
        }
        ByteBuffer direct = allocateDirect(size);
        return direct != null ? direct : Memory.heap(size, "a chunk buffer");
    }

    /** A free pooled buffer of the band of {@code size}, or null. */
    private static synchronized ByteBuffer takeFree(int size) {
        ArrayDeque<ByteBuffer> band = FREE.get(capacity(size));
        return band != null && !band.isEmpty() ? band.pop().clear().limit(size) : null;
    }

    /** A new pooled direct buffer, or null when the budget (or the JVM's direct memory) has no room. */
    private static synchronized ByteBuffer allocateDirect(int size) {
        int capacity = capacity(size);
        ArrayDeque<ByteBuffer> band = FREE.get(capacity);
        if (band != null && !band.isEmpty()) {
            return band.pop().clear().limit(size); // given back meanwhile
        }
        for (Iterator<ArrayDeque<ByteBuffer>> it = FREE.values().iterator(); held + capacity > BUDGET && it.hasNext(); ) {
            ArrayDeque<ByteBuffer> other = it.next();
            while (held + capacity > BUDGET && !other.isEmpty()) {
                held -= other.pop().capacity();
            }
        }
        if (held + capacity > BUDGET) {
            return null;
        }
        ByteBuffer b;
        try {
            b = ByteBuffer.allocateDirect(capacity);
        } catch (OutOfMemoryError e) {
            return null; // -XX:MaxDirectMemorySize is reached; the heap may still have room
        }
        held += capacity;
        return b.limit(size);
    }

    /**
     * The capacity of the pooled direct buffers taken and not yet given back, in this process: what
     * tests check returns to its start once the reads and writes using them have ended, however
     * they ended. Counts from the pool's own books, so it costs the hot path nothing.
     */
    static synchronized long bytesInUse() {
        long free = 0;
        for (ArrayDeque<ByteBuffer> band : FREE.values()) {
            for (ByteBuffer b : band) {
                free += b.capacity();
            }
        }
        return held - free;
    }

    /** Returns a buffer from {@link #take}. */
    static synchronized void give(ByteBuffer buffer) {
        if (buffer.isDirect()) {
            FREE.computeIfAbsent(buffer.capacity(), c -> new ArrayDeque<>()).push(buffer);
        }
    }

    /**
     * The capacity to allocate for {@code size} bytes: rounded up to a quarter of its highest
     * power of two (at most 25 % more), so that a few bands cover all sizes.
     */
    static int capacity(int size) {
        int grain = Math.max(4096, Integer.highestOneBit(Math.max(size, 1)) / 4);
        long rounded = ((long) size + grain - 1) / grain * grain;
        return (int) Math.min(rounded, Integer.MAX_VALUE - 16);
    }
}
