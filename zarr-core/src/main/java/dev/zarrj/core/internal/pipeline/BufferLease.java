package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.codec.BufferLender;
import dev.zarrj.api.store.ReadMemory;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@link ChunkBuffers} lent to one store read or one encode, all given back at
 * {@link #close()}: a store may ask more than once (S23), and codecs may ask from several threads
 * (sharding's inner chunks). Nothing may keep a view of a lent buffer after the lease is closed.
 * As the {@link ReadMemory} of {@link dev.zarrj.api.store.Store#getLent}, it also runs what the
 * store registered (unmapping a file) when it closes.
 *
 * <pre>{@code
 * try (BufferLease lease = new BufferLease()) {
 *     Optional<ByteBuffer> bytes = store.get(key, lease::borrow);
 *     ...
 * }
 * }</pre>
 */
final class BufferLease implements BufferLender, ReadMemory, AutoCloseable {
    /** Buffers lent by every lease and not yet given back, process-wide: what tests check returns to its start. */
    private static final AtomicLong OUTSTANDING = new AtomicLong();

    private final Queue<ByteBuffer> lent = new ConcurrentLinkedQueue<>();
    private final Queue<Runnable> releases = new ConcurrentLinkedQueue<>();

    /** How many buffers leases have lent and not yet given back, in this process. */
    static long outstanding() {
        return OUTSTANDING.get();
    }

    /** A buffer with position 0 and limit {@code size} ({@link ChunkBuffers#take(int)}). */
    @Override
    public ByteBuffer borrow(int size) {
        ByteBuffer b = ChunkBuffers.take(size);
        lent.add(b);
        OUTSTANDING.incrementAndGet();
        return b;
    }

    /** Gives {@code buffer} back to the pool now; it must be one this lease lent and still holds. */
    @Override
    public void giveBack(ByteBuffer buffer) {
        // By identity: ByteBuffer.equals compares contents.
        for (Iterator<ByteBuffer> it = lent.iterator(); it.hasNext(); ) {
            if (it.next() == buffer) {
                it.remove();
                OUTSTANDING.decrementAndGet();
                ChunkBuffers.give(buffer);
                return;
            }
        }
        throw new IllegalArgumentException("a buffer given back that this lease did not lend, or already has back");
    }

    @Override
    public ByteBuffer allocate(int size) {
        return borrow(size);
    }

    @Override
    public void onRelease(Runnable release) {
        releases.add(release);
    }

    /** Whether any buffer lent is direct memory, which goes back to the pool for reuse. */
    boolean lentDirect() {
        for (ByteBuffer b : lent) {
            if (b.isDirect()) {
                return true;
            }
        }
        return false;
    }

    /** The capacity of the buffers lent and not yet given back: the memory this lease holds. */
    long lentBytes() {
        long n = 0;
        for (ByteBuffer b : lent) {
            n += b.capacity();
        }
        return n;
    }

    /** Runs what stores registered, then gives every lent buffer back. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (Runnable r; (r = releases.poll()) != null; ) {
            try {
                r.run();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        for (ByteBuffer b; (b = lent.poll()) != null; ) {
            OUTSTANDING.decrementAndGet();
            ChunkBuffers.give(b);
        }
        if (failure != null) {
            throw failure;
        }
    }
}
