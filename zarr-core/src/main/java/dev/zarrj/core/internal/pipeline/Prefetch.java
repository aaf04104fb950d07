package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.LongFunction;

/**
 * Fetches the stored values of pieces {@code 0..n-1} of one read ahead of their decoding, with up
 * to {@code window} requests outstanding through {@link Store#getAsync(StoreKey)}, so that a
 * store whose requests wait on a network has many in flight while decoding stays on the CPU
 * thread budget ({@link ParallelTasks}).
 *
 * <p>Pieces are fetched in order, the order in which {@link ParallelTasks} hands them out. A
 * piece counts against the window from its request until its decoder {@link #release releases}
 * it, and its bytes count against {@code budget} from their arrival until then: no request is
 * made while the bytes held reach the budget, so memory stays bounded however far fetching runs
 * ahead. Requests are made by whichever thread frees room (the caller, a decoder, the store's
 * completion thread), never by a thread of its own; with a store whose asynchronous operations
 * are its blocking defaults, that thread does the fetch.
 *
 * <p>Pieces whose key is null are not fetched here (their decoder reads them itself).
 *
 * <p>When the operation it runs under is cancelled ({@link Cancellation}), it makes no more
 * requests and decoders waiting for a piece give up at once.
 */
final class Prefetch {
    /** The prefetch issuing requests on this thread, so a request that completes at once does not recurse. */
    private static final ThreadLocal<Prefetch> ISSUING = new ThreadLocal<>();
    /** How often a decoder waiting for its piece to be requested checks whether the read was interrupted. */
    private static final long POLL_MILLIS = 50;

    private final Store store;
    private final long n;
    private final LongFunction<StoreKey> keys;
    private final int window;
    private final long budget;
    private final Thread caller = Thread.currentThread();
    private final Cancellation token = Cancellation.current();
    private final Runnable unlisten;

    private final Object lock = new Object();
    private final Map<Long, Slot> slots = new HashMap<>();
    private long next;
    private int outstanding;
    private long heldBytes;
    private boolean stopped;
    /** What failed the read that stopped this, thrown to the decoders that were waiting; null when none. */
    private RuntimeException failure;

    private static final class Slot {
        final CompletableFuture<Optional<ByteBuffer>> value = new CompletableFuture<>();
        long bytes;
        boolean released;
    }

    /**
     * @param keys   the key of piece {@code j} to fetch whole, or null when its decoder reads it
     * @param window how many pieces may be requested and not yet released
     * @param budget how many fetched bytes may be held before fetching waits
     */
    Prefetch(Store store, long n, LongFunction<StoreKey> keys, int window, long budget) {
        this.store = store;
        this.n = n;
        this.keys = keys;
        this.window = window;
        this.budget = budget;
        this.unlisten = token == null ? () -> { } : token.onCancel(this::cancel);
    }

    /** Makes requests while the window and the budget have room. */
    void pump() {
        Prefetch outer = ISSUING.get();
        if (outer == this) {
            return; // a request completed inside our own loop, which goes on
        }
        ISSUING.set(this);
        try {
            while (true) {
                StoreKey key = null;
                Slot slot;
                synchronized (lock) {
                    while (next < n && !stopped && (key = keys.apply(next)) == null) {
                        next++;
                    }
                    if (Cancellation.cancelled(token)) {
                        stopLocked();
                    }
                    if (stopped || next >= n || outstanding >= window || heldBytes >= budget) {
                        return;
                    }
                    slot = new Slot();
                    slots.put(next++, slot);
                    outstanding++;
                    lock.notifyAll();
                }
                request(key, slot);
            }
        } finally {
            if (outer == null) {
                ISSUING.remove();
            } else {
                ISSUING.set(outer);
            }
        }
    }

    private void request(StoreKey key, Slot slot) {
        CompletableFuture<Optional<ByteBuffer>> f;
        try {
            f = store.getAsync(key);
            if (f == null) {
                f = CompletableFuture.failedFuture(new StoreException(store.describe()
                        + ": getAsync('" + key + "') returned null instead of a future", null));
            }
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((v, e) -> {
            if (e != null) {
                slot.value.completeExceptionally(e instanceof CompletionException && e.getCause() != null
                        ? e.getCause() : e);
            } else if (v == null) {
                slot.value.completeExceptionally(new StoreException(store.describe()
                        + ": getAsync('" + key + "') completed with null instead of an Optional", null));
            } else {
                synchronized (lock) {
                    if (!slot.released) {
                        slot.bytes = v.map(ByteBuffer::remaining).orElse(0);
                        heldBytes += slot.bytes;
                    }
                }
                slot.value.complete(v);
            }
            pump();
        });
    }

    /**
     * The value of piece {@code j}, waiting until it has been requested and has arrived; the
     * store's exception when the request failed; null when its key was null (not fetched here:
     * its decoder reads it).
     */
    Optional<ByteBuffer> take(long j) {
        Slot slot;
        synchronized (lock) {
            while ((slot = slots.get(j)) == null) {
                if (j < next && !stopped) {
                    return null; // passed without a request: its key was null
                }
                if (Cancellation.cancelled(token)) {
                    throw new java.util.concurrent.CancellationException("cancelled while reading chunks from "
                            + store.describe());
                }
                if (stopped) {
                    if (failure != null) {
                        // The read's own failure, so that whichever piece reports first, the
                        // read fails with it, naming the chunk that failed.
                        throw failure;
                    }
                    throw new StoreException("reading chunks from " + store.describe() + " stopped", null);
                }
                if (caller.isInterrupted()) {
                    stopLocked();
                    throw new StoreException("interrupted while reading chunks from " + store.describe(), null);
                }
                try {
                    lock.wait(POLL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopLocked();
                    throw new StoreException("interrupted while reading chunks from " + store.describe(), null);
                }
            }
        }
        try {
            return slot.value.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new StoreException(store.describe() + ": " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
            throw new StoreException("interrupted while reading chunks from " + store.describe(), null);
        }
    }

    /** Frees piece {@code j}'s place in the window and its bytes in the budget, and fetches on. */
    void release(long j) {
        synchronized (lock) {
            Slot slot = slots.remove(j);
            if (slot == null) {
                return;
            }
            slot.released = true;
            heldBytes -= slot.bytes;
            outstanding--;
        }
        pump();
    }

    /** Makes no more requests (the read failed or finished); decoders waiting for one give up. */
    void stop() {
        synchronized (lock) {
            stopLocked();
        }
    }

    /**
     * Makes no more requests because a piece of the read failed with {@code e}; decoders waiting
     * for a value throw {@code e} when it is a {@link RuntimeException}.
     */
    void stop(Throwable e) {
        synchronized (lock) {
            if (failure == null && e instanceof RuntimeException r) {
                failure = r;
            }
            stopLocked();
        }
    }

    /**
     * The operation was cancelled: stops, and wakes decoders waiting for a value that no longer
     * matters (one that arrives later is dropped).
     */
    private void cancel() {
        synchronized (lock) {
            for (Slot slot : slots.values()) {
                slot.value.completeExceptionally(new java.util.concurrent.CancellationException(
                        "cancelled while reading chunks from " + store.describe()));
            }
            stopLocked();
        }
    }

    private void stopLocked() {
        stopped = true;
        slots.clear();
        lock.notifyAll();
        if (unlisten != null) { // null: cancelled before the constructor finished
            unlisten.run();
        }
    }
}
