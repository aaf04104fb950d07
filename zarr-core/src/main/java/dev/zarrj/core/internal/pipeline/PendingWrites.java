package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The store requests of one write still in flight, made through {@link Store#setAsync} and
 * {@link Store#eraseAsync}, so that a store whose requests wait on a network has up to
 * {@code window} of them outstanding while encoding stays on the CPU thread budget
 * ({@link ParallelTasks}).
 *
 * <p>An encoding thread {@link #reserve reserves} a place before it encodes a chunk, waiting while
 * {@code window} places are taken or while the bytes awaiting completion reach {@code budget};
 * then it hands the encoded value, with the {@link BufferLease} holding its memory, to
 * {@link #set} (or asks for {@link #erase}) and goes on to its next chunk at once. The lease is
 * closed, and the place and the bytes freed, when the store's future completes, never before: the
 * store may read the value until then. Memory held is thus at most {@code budget} plus one value
 * per encoding thread.
 *
 * <p>Completion only frees room and wakes waiting encoders; it never makes a request, so a store
 * that completes its futures on the calling thread (the SPI's defaults do) cannot recurse or
 * deadlock here. Futures are not cancelled when the write fails: a cancelled future does not stop
 * a request that may still be reading leased memory. Instead no place is given out after the
 * first failure, and {@link #finish} waits for every request made so far before it throws that
 * failure, so nothing of the write is left running once it returns or throws.
 */
final class PendingWrites {
    /** How often an encoder waiting for room checks whether the write was interrupted. */
    private static final long POLL_MILLIS = 50;

    private final Store store;
    private final int window;
    private final long budget;
    private final ChunkErrors errors;
    private final Thread caller = Thread.currentThread();

    private final Object lock = new Object();
    /** Places reserved by encoders plus requests not yet completed. */
    private int outstanding;
    private long heldBytes;
    private long peakHeldBytes;
    private Throwable failure;

    /**
     * @param window how many requests (and chunks being encoded for one) may be outstanding
     * @param budget how many bytes handed to the store (the values, or the leased memory holding
     *               them when that is more) may await completion before encoding waits
     */
    PendingWrites(Store store, int window, long budget, ChunkErrors errors) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1, got " + window);
        }
        this.store = store;
        this.window = window;
        this.budget = budget;
        this.errors = errors;
    }

    /**
     * Waits for a place: fewer than {@code window} outstanding and the bytes awaiting completion
     * below the budget. Every place reserved is then given back exactly once: by {@link #set},
     * {@link #erase} or {@link #unreserve}.
     *
     * @return false, with no place taken, when the write has already failed: write nothing more
     * @throws StoreException when the writing thread is interrupted while waiting
     */
    boolean reserve() {
        synchronized (lock) {
            while (failure == null && (outstanding >= window || heldBytes >= budget)) {
                if (caller.isInterrupted() || Thread.currentThread().isInterrupted()) {
                    throw interrupted();
                }
                try {
                    lock.wait(POLL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw interrupted();
                }
            }
            if (failure != null) {
                return false;
            }
            outstanding++;
            return true;
        }
    }

    /** Gives back a place reserved and not used. */
    void unreserve() {
        synchronized (lock) {
            outstanding--;
            lock.notifyAll();
        }
    }

    /**
     * Stores {@code value} at {@code key} through {@link Store#setAsync}, using the place the
     * caller reserved; {@code lease} (holding the value's memory) is closed when the request
     * completes. From this call on, the caller no longer owns the lease or the place.
     *
     * @param chunkBytes the chunk's decoded size, for an error about memory
     */
    void set(StoreKey key, long chunkBytes, ByteBuffer value, BufferLease lease) {
        set(key, chunkBytes, value, lease, null);
    }

    /** As {@link #set(StoreKey, long, ByteBuffer, BufferLease)}, running {@code done} (when not null) once the request completes. */
    void set(StoreKey key, long chunkBytes, ByteBuffer value, BufferLease lease, Runnable done) {
        // The lease may hold more than the value (the chunk copied before encoding); the value may
        // lie outside it (a view of the caller's array): count whichever is more.
        long bytes = Math.max(value.remaining(), lease.lentBytes());
        synchronized (lock) {
            heldBytes += bytes;
            peakHeldBytes = Math.max(peakHeldBytes, heldBytes);
        }
        CompletableFuture<Void> f;
        try {
            f = store.setAsync(key, value);
            if (f == null) {
                f = CompletableFuture.failedFuture(new StoreException(store.describe() + ": setAsync('" + key
                        + "') returned null instead of a future", null));
            }
        } catch (RuntimeException | Error e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((v, e) -> completed(key, chunkBytes, bytes, lease, done, e));
    }

    /** Erases {@code key} through {@link Store#eraseAsync}, using the place the caller reserved. */
    void erase(StoreKey key, long chunkBytes) {
        erase(key, chunkBytes, null);
    }

    /** As {@link #erase(StoreKey, long)}, running {@code done} (when not null) once the request completes. */
    void erase(StoreKey key, long chunkBytes, Runnable done) {
        CompletableFuture<Void> f;
        try {
            f = store.eraseAsync(key);
            if (f == null) {
                f = CompletableFuture.failedFuture(new StoreException(store.describe() + ": eraseAsync('" + key
                        + "') returned null instead of a future", null));
            }
        } catch (RuntimeException | Error e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((v, e) -> completed(key, chunkBytes, 0, null, done, e));
    }

    private void completed(StoreKey key, long chunkBytes, long bytes, BufferLease lease, Runnable done, Throwable e) {
        if (lease != null) {
            lease.close();
        }
        if (done != null) {
            done.run();
        }
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        Throwable reported = cause == null ? null
                : cause instanceof RuntimeException || cause instanceof OutOfMemoryError
                ? errors.writing(key, chunkBytes, cause)
                : cause instanceof Error ? cause
                : new StoreException(store.describe() + ": writing '" + key + "' failed: " + cause, cause);
        synchronized (lock) {
            heldBytes -= bytes;
            outstanding--;
            if (reported != null) {
                recordLocked(reported);
            }
            lock.notifyAll();
        }
    }

    /** Records a failure of the write (of an encoder, say): the first one is what {@link #finish} throws. */
    void fail(Throwable e) {
        synchronized (lock) {
            recordLocked(e);
            lock.notifyAll();
        }
    }

    private void recordLocked(Throwable e) {
        if (failure == null) {
            failure = e;
        } else if (failure != e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Waits, not interruptibly, until every request made has completed and every place is given
     * back; then throws the first failure, if any. The interrupt status is kept.
     */
    void finish() {
        boolean wasInterrupted = false;
        synchronized (lock) {
            while (outstanding > 0) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    wasInterrupted = true;
                }
            }
        }
        if (wasInterrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable t;
        synchronized (lock) {
            t = failure;
        }
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error err) {
            throw err;
        }
        if (t != null) {
            throw new StoreException(store.describe() + ": writing chunks failed: " + t, t);
        }
    }

    /** The most bytes that awaited completion at once. */
    long peakHeldBytes() {
        synchronized (lock) {
            return peakHeldBytes;
        }
    }

    private StoreException interrupted() {
        return new StoreException("interrupted while writing chunks to " + store.describe(), null);
    }
}
