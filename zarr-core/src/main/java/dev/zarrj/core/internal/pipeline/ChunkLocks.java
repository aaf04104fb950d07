package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The in-process locks that make a partial update of a chunk (read, modify, write) exclusive, so
 * that concurrent writers of different parts of one chunk lose nothing. Locks are striped: a
 * fixed number serve every key of every store, so none is ever created or dropped.
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

    /** @param store the store the chunks are read and written through */
    ChunkLocks(Store store) {
        this.place = System.identityHashCode(store);
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
