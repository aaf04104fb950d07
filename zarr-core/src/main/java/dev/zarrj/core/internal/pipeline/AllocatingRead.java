package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.NdArray;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The two pieces of {@link ChunkReader}'s one-chunk read, for {@link ParallelTasks#forEach}{@code (2, ...)}:
 * piece 0 allocates the result, piece 1 reads the stored value; then, for a value that is the
 * elements' own bytes, the two threads copy it into the result together, without handing the
 * copy to the executor again (waking a parked helper costs as much as copying a quarter of a 4
 * MiB chunk). The thread that allocated copies from the end, whose zeroed lines its cache still
 * holds, and is the faster for it; the other from the start, until they meet.
 *
 * <p>A piece waits for the other only once that one has started, on a thread that is running it;
 * when the other has not started, the piece returns and whichever thread claims the other next
 * runs it and then copies the whole value. So nothing ever waits for a piece still queued.
 */
final class AllocatingRead {
    private static final int NOT_STARTED = 0;
    private static final int RUNNING = 1;
    private static final int DONE = 2;
    /** How long a finished piece spins for the other before it parks. */
    private static final long SPIN_NANOS = 50_000;
    /** The bytes a thread claims for copying at a time. */
    private static final int COPY_PIECE = 256 << 10;

    private final Supplier<NdArray> allocate;
    private final Supplier<Optional<ByteBuffer>> read;
    /** The value's size when it is to be copied into the result; else -1. */
    private final int copySize;
    /** Per piece: NOT_STARTED, RUNNING or DONE. */
    private final AtomicIntegerArray state = new AtomicIntegerArray(2);
    /** The pieces of the copy not yet claimed, [front, back): front in the high 32 bits, back in the low. */
    private final AtomicLong pieces;
    private volatile NdArray result;
    private volatile Optional<ByteBuffer> value;
    private volatile boolean failed;
    private volatile Thread waiter;

    /**
     * @param copySize the value's size when it is the elements' own bytes, to be copied into the
     *                 result where the read returns a direct buffer of exactly that size; -1 to
     *                 leave the value to the caller
     */
    AllocatingRead(Supplier<NdArray> allocate, Supplier<Optional<ByteBuffer>> read, int copySize) {
        this.allocate = allocate;
        this.read = read;
        this.copySize = copySize;
        this.pieces = new AtomicLong(copySize < 0 ? 0 : (copySize + COPY_PIECE - 1) / COPY_PIECE);
    }

    /** Runs piece {@code i}: 0 allocates, 1 reads; then its share of the copy. */
    void run(int i) {
        state.set(i, RUNNING);
        try {
            if (i == 0) {
                result = allocate.get();
            } else {
                value = read.get();
            }
        } catch (RuntimeException | Error e) {
            failed = true;
            throw e;
        } finally {
            state.set(i, DONE);
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }
        if (copySize < 0 || !awaitOther(1 - i) || !copyable()) {
            return;
        }
        copy(i == 0);
    }

    /** The result, once both pieces ran. */
    NdArray result() {
        return result;
    }

    /** The value read, once both pieces ran. */
    Optional<ByteBuffer> value() {
        return value;
    }

    /** Whether the value went into the result: present, direct, and of the size to copy. */
    boolean copied() {
        return copySize >= 0 && copyable();
    }

    private boolean copyable() {
        Optional<ByteBuffer> v = value;
        return v != null && v.isPresent() && v.get().isDirect() && v.get().remaining() == copySize;
    }

    /**
     * Waits until piece {@code other} is done when it is running on another thread.
     *
     * @return whether both pieces are done and neither failed
     */
    private boolean awaitOther(int other) {
        if (state.get(other) == NOT_STARTED) {
            return false;
        }
        long spinUntil = System.nanoTime() + SPIN_NANOS;
        boolean interrupted = false;
        while (state.get(other) != DONE) {
            if (System.nanoTime() < spinUntil) {
                Thread.onSpinWait();
                continue;
            }
            waiter = Thread.currentThread();
            if (state.get(other) != DONE) {
                LockSupport.park(this);
                // Kept for the caller, not to spin: the other piece ends on its own.
                interrupted |= Thread.interrupted();
            }
        }
        waiter = null;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return !failed;
    }

    /**
     * Copies pieces of the value until none is left: the thread that allocated takes them from
     * the end backwards, the other from the start forwards, so that each finishes when they meet
     * whatever their speeds.
     */
    private void copy(boolean fromEnd) {
        ByteBuffer src = value.get();
        ByteBuffer dst = result.bytes();
        int from = src.position();
        for (long b = pieces.get(); ; b = pieces.get()) {
            int front = (int) (b >>> 32);
            int back = (int) b;
            if (front >= back) {
                return;
            }
            int p = fromEnd ? back - 1 : front;
            long next = fromEnd ? ((long) front << 32) | (back - 1) : ((long) (front + 1) << 32) | back;
            if (!pieces.compareAndSet(b, next)) {
                continue;
            }
            int start = p * COPY_PIECE;
            int length = Math.min(COPY_PIECE, copySize - start);
            dst.put(start, src, from + start, length);
        }
    }
}
