package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The in-process locks that make a partial update of a chunk (read, modify, write) exclusive, so
 * that concurrent writers of different parts of one chunk lose nothing.
 *
 * <p>A lock stands for a key in a stored place, not for a handle: every array handle, every
 * storage transformer's wrapper and every {@code Zarr} instance that reaches the same chunk must
 * take the same lock. The place is the underlying store as it describes itself
 * ({@link Store#describe()}, for example {@code file:/data/set.zarr}), which is the same for two
 * store objects opened on one location and differs, for the stores zarrj ships, between
 * locations. Two places that describe themselves alike only share locks, which costs waiting,
 * never data. Locks are striped: a fixed number serve every key, so none is ever created or
 * dropped.
 */
final class ChunkLocks {
    private static final int STRIPES = 1024;
    private static final ReentrantLock[] LOCKS = new ReentrantLock[STRIPES];

    static {
        for (int i = 0; i < STRIPES; i++) {
            LOCKS[i] = new ReentrantLock();
        }
    }

    private final int place;

    /** @param underlying the store beneath any wrappers and storage transformers */
    ChunkLocks(Store underlying) {
        this.place = underlying.describe().hashCode();
    }

    /** Runs {@code update} holding the lock of {@code key}. */
    void update(StoreKey key, Runnable update) {
        ReentrantLock lock = LOCKS[Math.floorMod(place * 31 + key.hashCode(), STRIPES)];
        lock.lock();
        try {
            update.run();
        } finally {
            lock.unlock();
        }
    }
}
