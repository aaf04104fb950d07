package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.NdArray;
import java.util.ArrayDeque;
import java.util.function.Supplier;

/**
 * The new array of a large region read ({@link ChunkReader#readNew}), allocated by the read's
 * first piece while the other pieces decode their chunks aside: the JVM zeroes a new array on
 * the allocating thread alone (28 ms for 256 MiB here), and the other threads would otherwise
 * wait for it.
 *
 * <p>A chunk decoded before the array exists is parked here, up to a budget of decoded bytes;
 * once the array exists, the allocating piece and every later piece copy parked chunks into it
 * until none is left, and pieces that find the array allocated, or the budget spent, decode into
 * the array themselves. Only the first piece
 * allocates, and {@link ParallelTasks} claims pieces in order, so a piece that waits for the
 * array waits for a piece that has started.
 */
final class PendingResult {
    /** A chunk decoded aside: copied into the array, then released, exactly once. */
    interface Parked {
        /** What it counts against the budget: the chunk's decoded size. */
        long bytes();

        /** Copies the chunk's share into the array. */
        void copyInto(NdArray result);

        /** Gives back the memory it holds. */
        void release();
    }

    private final Supplier<NdArray> allocate;
    private final long budget;
    private final ArrayDeque<Parked> parked = new ArrayDeque<>();
    private long parkedBytes;
    private NdArray result;
    /** Whether the allocation has ended, with a result or failed. */
    private boolean settled;

    PendingResult(Supplier<NdArray> allocate, long budget) {
        this.allocate = allocate;
        this.budget = budget;
    }

    /**
     * The first piece: allocates the array, then copies chunks parked meanwhile until none is
     * left ({@link #help}). When the allocation fails, the parked chunks are released and the
     * failure thrown.
     */
    void allocateAndDrain() {
        NdArray r = null;
        try {
            r = allocate.get();
        } finally {
            synchronized (this) {
                result = r;
                settled = true;
                notifyAll();
            }
        }
        help();
    }

    /**
     * Copies parked chunks into the array until none is left, releasing each (only releasing
     * when the allocation failed): the allocating piece does, and so does every later piece
     * before its own chunk, so that the threads share the copies.
     */
    void help() {
        RuntimeException failure = null;
        for (Parked p; (p = next()) != null; ) {
            try {
                if (result != null && failure == null) {
                    p.copyInto(result);
                }
            } catch (RuntimeException e) {
                failure = e;
            } finally {
                p.release();
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** The next parked chunk to copy once the allocation has ended; null before, or when none is left. */
    private synchronized Parked next() {
        if (!settled) {
            return null;
        }
        Parked p = parked.poll();
        if (p != null) {
            parkedBytes -= p.bytes();
        }
        return p;
    }

    /** Whether a piece should decode its chunk aside: the array is not there yet and the budget has room. */
    synchronized boolean worthParking() {
        return !settled && parkedBytes < budget;
    }

    /**
     * Parks a chunk decoded aside for the pieces to copy once the array is there; when it is
     * there by now, copies the parked chunks, this one included.
     */
    void park(Parked p) {
        synchronized (this) {
            parked.add(p);
            parkedBytes += p.bytes();
            if (!settled) {
                return;
            }
        }
        help();
    }

    /**
     * The array, waiting (not interruptibly: allocating takes milliseconds) until the first piece
     * has it; null when its allocation failed, which that piece reports.
     */
    NdArray await() {
        boolean interrupted = false;
        synchronized (this) {
            while (!settled) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return result;
    }

    /** The array once every piece has run; null when its allocation failed. */
    synchronized NdArray result() {
        return result;
    }
}
