package dev.zarrj.codec.blosc.internal;

import com.sun.jna.Memory;
import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A block of native working memory for one blosc call, from a small bounded pool.
 *
 * <p>c-blosc reads and writes native memory, and JNA hands it a {@link ByteBuffer} without a copy
 * only when the buffer is direct (JNI would copy a heap buffer's whole backing array, both ways).
 * So a heap input is copied into a scratch block once, and c-blosc writes its output into another.
 * Blocks are {@code malloc}ed by JNA and freed as soon as the pool does not keep them, not
 * whenever a collection happens to run.
 *
 * <p>A call takes at most two blocks (input and output), so the pool keeps {@link #CAPACITY}
 * {@code = 2 × cores} of them: with one call in flight per core, none is allocated or freed after
 * the first calls. Sizes are rounded up to {@link #GRAIN} bytes, not to a power of two (which
 * would double a 2 MiB chunk plus its header), and a call asks for both of its blocks with the
 * same size, so that blocks for chunks of one size are interchangeable: a block taken for one
 * call's input serves as the next one's output. A block too small for a request is freed and
 * replaced, so with chunks of several sizes the pool settles on the largest.
 *
 * <p>Memory bound: idle, the pool holds at most {@code CAPACITY × MAX_POOLED} bytes ({@code 2 ×
 * cores × (8 MiB + 64 KiB)}); in use, each call holds at most two blocks of its own size. Larger
 * requests get a block of their own, freed by {@link #close()}. Unlike a {@code ThreadLocal}, this
 * stays bounded with many (or virtual) threads. One thread uses a scratch between {@link #take}
 * and {@link #close}.
 */
final class Scratch implements AutoCloseable {
    static final int CAPACITY = 2 * Math.max(1, Runtime.getRuntime().availableProcessors());
    /** Block sizes are multiples of this: 16 pages, so a 2 MiB chunk plus the header wastes under 4%. */
    static final int GRAIN = 64 << 10;
    /** Blocks up to this size are kept for reuse: an 8 MiB chunk with its header. */
    static final int MAX_POOLED = (8 << 20) + GRAIN;

    private static final ArrayBlockingQueue<Scratch> POOL = new ArrayBlockingQueue<>(CAPACITY);

    private final Memory memory;
    /** One view of the whole block: JNA registers every view it makes in a global map. */
    private final ByteBuffer whole;

    private Scratch(int size) {
        this.memory = new Memory(size);
        this.whole = memory.getByteBuffer(0, size);
    }

    /**
     * The block size for a request of {@code bytes} (1 or more): a multiple of {@link #GRAIN} up to
     * {@link #MAX_POOLED}, the request itself beyond.
     */
    static int size(int bytes) {
        if (bytes > MAX_POOLED) {
            return bytes;
        }
        return (bytes + GRAIN - 1) / GRAIN * GRAIN;
    }

    /** A scratch of at least {@code bytes} (1 or more) bytes; its content is undefined. */
    static Scratch take(int bytes) {
        Scratch s = POOL.poll();
        if (s != null && s.whole.capacity() >= bytes) {
            return s;
        }
        if (s != null) {
            s.memory.close();
        }
        return new Scratch(size(bytes));
    }

    /** A direct view of the first {@code length} bytes, at position 0; valid until {@link #close()}. */
    ByteBuffer buffer(int length) {
        return whole.slice(0, length);
    }

    /** Returns the block to the pool, or frees it. */
    @Override
    public void close() {
        if (whole.capacity() > MAX_POOLED || !POOL.offer(this)) {
            memory.close();
        }
    }
}
