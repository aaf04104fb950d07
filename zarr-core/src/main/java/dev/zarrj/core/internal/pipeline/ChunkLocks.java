package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The in-process locks that order every write of a chunk made by this process: a partial update
 * (read, modify, write) is exclusive, and a whole-chunk write is ordered with it, so that
 * concurrent writers of one chunk lose nothing. Without the second rule a whole-chunk write could
 * land between a partial update's read and its write and be overwritten by the old chunk with the
 * update's part in it (on stores without conditional writes, which would otherwise catch that).
 *
 * <p>A lock stands for a key in a stored place, not for a handle: every array handle, every
 * storage transformer's wrapper and every {@code Zarr} instance that reaches the same chunk must
 * take the same lock. The place is the underlying store as it describes itself
 * ({@link Store#describe()}, for example {@code file:/data/set.zarr}), which is the same for two
 * store objects opened on one location and differs, for the stores zarrj ships, between
 * locations. Two places that describe themselves alike only share locks, which costs waiting,
 * never data. Locks are striped: a fixed number serve every key, so none is ever created or
 * dropped.
 *
 * <p>A whole-chunk write stored through {@link Store#setAsync} cannot hold a lock until its
 * request completes (a lock belongs to a thread); it {@linkplain #startWhole registers} under the
 * lock instead, and a partial update of the same stripe waits, holding the lock, until every
 * registered request has {@linkplain #endWhole completed} before it reads the chunk. Locks order
 * writers of one process only: across processes, conditional writes do
 * ({@link dev.zarrj.api.store.ConditionalWrites}).
 */
final class ChunkLocks {
    private static final int STRIPES = 1024;
    private static final ReentrantLock[] LOCKS = new ReentrantLock[STRIPES];
    /** Per stripe: whole-chunk writes handed to the store and not yet completed. */
    private static final AtomicIntegerArray IN_FLIGHT = new AtomicIntegerArray(STRIPES);
    /** Per stripe: where a partial update waits for {@link #IN_FLIGHT} to drain. */
    private static final Object[] DRAINED = new Object[STRIPES];

    static {
        for (int i = 0; i < STRIPES; i++) {
            LOCKS[i] = new ReentrantLock();
            DRAINED[i] = new Object();
        }
    }

    private final int place;

    /** @param underlying the store beneath any wrappers and storage transformers */
    ChunkLocks(Store underlying) {
        this.place = underlying.describe().hashCode();
    }

    private int stripe(StoreKey key) {
        return Math.floorMod(place * 31 + key.hashCode(), STRIPES);
    }

    /**
     * Runs the partial update {@code update} holding the lock of {@code key}, once no whole-chunk
     * write of its stripe is in flight.
     */
    void update(StoreKey key, Runnable update) {
        int s = stripe(key);
        ReentrantLock lock = LOCKS[s];
        lock.lock();
        try {
            awaitDrained(s);
            update.run();
        } finally {
            lock.unlock();
        }
    }

    /** Runs the whole-chunk write {@code write} (a blocking store request) holding the lock of {@code key}. */
    void whole(StoreKey key, Runnable write) {
        ReentrantLock lock = LOCKS[stripe(key)];
        lock.lock();
        try {
            write.run();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Registers a whole-chunk write of {@code key} about to be handed to the store asynchronously;
     * the caller calls {@link #endWhole} exactly once when its request has completed (or was never
     * made).
     */
    void startWhole(StoreKey key) {
        int s = stripe(key);
        ReentrantLock lock = LOCKS[s];
        lock.lock();
        try {
            IN_FLIGHT.incrementAndGet(s);
        } finally {
            lock.unlock();
        }
    }

    /** Ends what {@link #startWhole} registered. */
    void endWhole(StoreKey key) {
        int s = stripe(key);
        if (IN_FLIGHT.decrementAndGet(s) == 0) {
            synchronized (DRAINED[s]) {
                DRAINED[s].notifyAll();
            }
        }
    }

    /**
     * Waits, holding the stripe's lock (so no new whole write registers), until its whole writes in
     * flight have completed. Not interruptible: the requests complete on their own; the interrupt
     * status is kept.
     */
    private static void awaitDrained(int s) {
        if (IN_FLIGHT.get(s) == 0) {
            return;
        }
        boolean interrupted = false;
        synchronized (DRAINED[s]) {
            while (IN_FLIGHT.get(s) > 0) {
                try {
                    DRAINED[s].wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
