package dev.zarrj.codec.blosc.internal;

import com.sun.jna.Memory;
import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A block of native working memory for one blosc call, from a small bounded pool.
 *
 * <p>c-blosc reads and writes native memory, and JNA hands it a {@link ByteBuffer} without a copy
 * only when the buffer is direct (JNI would copy a heap buffer's whole backing array, both ways).
 * So a heap input is copied into a scratch block once, c-blosc writes its output into another,
 * and the result is copied once to the heap, where the garbage collector owns it. Blocks are
 * {@code malloc}ed by JNA and freed as soon as the pool does not keep them, not whenever a
 * collection happens to run.
 *
 * <p>The pool keeps at most {@link #CAPACITY} blocks of at most {@link #MAX_POOLED} bytes;
 * larger requests get a block of their own, freed by {@link #close()}. Unlike a
 * {@code ThreadLocal}, this stays bounded with many (or virtual) threads. One thread uses a
 * scratch between {@link #take} and {@link #close}.
 */
final class Scratch implements AutoCloseable {
    static final int CAPACITY = Math.max(2, Runtime.getRuntime().availableProcessors());
    /** Blocks up to this size are kept for reuse. */
    static final int MAX_POOLED = 8 << 20;
    private static final int MIN_BLOCK = 64 << 10;

    private static final ArrayBlockingQueue<Scratch> POOL = new ArrayBlockingQueue<>(CAPACITY);

    private final Memory memory;
    /** One view of the whole block: JNA registers every view it makes in a global map. */
    private final ByteBuffer whole;

    private Scratch(int size) {
        this.memory = new Memory(size);
        this.whole = memory.getByteBuffer(0, size);
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
        return new Scratch(bytes <= MAX_POOLED ? Math.max(MIN_BLOCK, roundUpToPowerOfTwo(bytes)) : bytes);
    }

    private static int roundUpToPowerOfTwo(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
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
