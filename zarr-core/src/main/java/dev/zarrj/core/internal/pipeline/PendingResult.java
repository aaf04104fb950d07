package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.NdArray;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The new array of a large region read ({@link ChunkReader#readNew}), allocated by the read's
 * first piece while the other pieces read their chunks aside: the JVM zeroes a new array on
 * the allocating thread alone (28 ms for 256 MiB here), and the other threads would otherwise
 * wait for it.
 *
 * <p>A chunk read before the array exists (decoded, or only fetched) is parked here, up to a
 * budget of the bytes they hold; once the array exists, the allocating piece and every later
 * piece put parked chunks into it until none is left, and pieces that find the array allocated,
 * or the budget spent, decode into the array themselves.
 *
 * <p>Nothing waits for an allocation that has not started: {@link ParallelTasks} may skip a
 * claimed piece (after a failure, an interrupt or a cancellation), so a piece that needs the
 * array and finds the allocation not started allocates it itself, and {@link #close} (after the
 * read's pieces, however they ended) releases whatever is still parked.
 */
final class PendingResult implements AutoCloseable {
    /** A chunk read aside: put into the array, then released, exactly once. */
    interface Parked {
        /** What it counts against the budget: the memory it holds, decoded or stored bytes. */
        long bytes();

        /** Puts the chunk's share into the array: copies it, or decodes it there. */
        void putInto(NdArray result);

        /** Gives back the memory it holds. */
        void release();
    }

    /** Chunks parked by every read in this process: what tests check the path is taken by. */
    private static final AtomicLong PARKED = new AtomicLong();

    private final Supplier<NdArray> allocate;
    private final long budget;
    private final ArrayDeque<Parked> parked = new ArrayDeque<>();
    private long parkedBytes;
    /** Whether a thread has taken the allocation on. */
    private boolean allocating;
    private NdArray result;
    /** Whether the allocation has ended, with a result or failed (or was given up by {@link #close}). */
    private boolean settled;

    PendingResult(Supplier<NdArray> allocate, long budget) {
        this.allocate = allocate;
        this.budget = budget;
    }

    /** How many chunks reads have parked in this process. */
    static long parkedSoFar() {
        return PARKED.get();
    }

    /**
     * The first piece: allocates the array unless another piece already has, then copies
     * chunks parked meanwhile until none is left ({@link #help}). When the allocation fails, the
     * parked chunks are released and the failure thrown.
     */
    void allocateAndDrain() {
        if (takeAllocation()) {
            allocateHere();
        }
        help();
    }

    private synchronized boolean takeAllocation() {
        if (allocating || settled) {
            return false;
        }
        allocating = true;
        return true;
    }

    /** Allocates, settles, and on failure releases what is parked before throwing. */
    private void allocateHere() {
        NdArray r = null;
        try {
            r = allocate.get();
        } finally {
            settle(r);
            if (r == null) {
                help();
            }
        }
    }

    private synchronized void settle(NdArray r) {
        result = r;
        settled = true;
        notifyAll();
    }

    /**
     * Puts parked chunks into the array until none is left, releasing each (only releasing
     * when there is no array): the allocating piece does, and so does every later piece before
     * its own chunk, so that the threads share that work. Goes through every parked chunk even
     * when one fails, then throws the first failure.
     */
    void help() {
        Throwable failure = null;
        for (Parked p; (p = next()) != null; ) {
            try {
                if (result != null && failure == null) {
                    p.putInto(result);
                }
            } catch (RuntimeException | Error e) {
                failure = first(failure, e);
            } finally {
                try {
                    p.release();
                } catch (RuntimeException | Error e) {
                    failure = first(failure, e);
                }
            }
        }
        if (failure instanceof RuntimeException re) {
            throw re;
        }
        if (failure instanceof Error err) {
            throw err;
        }
    }

    private static Throwable first(Throwable failure, Throwable e) {
        if (failure == null) {
            return e;
        }
        if (failure != e) {
            failure.addSuppressed(e);
        }
        return failure;
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

    /** Whether a piece should read its chunk aside: the array is not there yet and the budget has room. */
    synchronized boolean worthParking() {
        return !settled && parkedBytes < budget;
    }

    /**
     * Parks a chunk read aside for the pieces to put in once the array is there; when it is
     * there by now, puts the parked chunks in, this one included.
     */
    void park(Parked p) {
        PARKED.incrementAndGet();
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
     * The array: allocated here when no piece has started allocating it, else waited for (not
     * interruptibly: a started allocation ends within milliseconds). Null when its allocation
     * failed, which the piece that allocated reports.
     */
    NdArray await() {
        if (takeAllocation()) {
            allocateHere();
            return result();
        }
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
        return result();
    }

    /** The array once every piece has run; null when its allocation failed or never ran. */
    synchronized NdArray result() {
        return result;
    }

    /**
     * After the read's pieces, however they ended: copies in, or with no array releases, what is
     * still parked (pieces that park after the array exists copy their own, so something is
     * left only when the allocating piece was skipped or failed).
     */
    @Override
    public void close() {
        synchronized (this) {
            settled = true;
        }
        help();
    }
}
