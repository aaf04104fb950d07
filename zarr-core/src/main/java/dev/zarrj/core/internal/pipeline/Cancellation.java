package dev.zarrj.core.internal.pipeline;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Whether an asynchronous operation has been cancelled, seen by the work it runs: the chunk
 * tasks of {@link ParallelTasks} (and so every read, write and selection built on it), the
 * fetches of {@link Prefetch} and the listing of {@link SparseRead} check it before they start
 * another piece, so that a cancelled read stops requesting chunks and a cancelled write stops
 * between chunks (each chunk is written whole or not at all).
 *
 * <p>The token is the current thread's while {@link #run} runs, and {@link ParallelTasks} hands
 * it on to the helpers that run pieces of the same call (so nested calls, a shard's inner
 * chunks, see it too). Work not run under a token is never cancelled this way.
 */
public final class Cancellation {
    private static final ThreadLocal<Cancellation> CURRENT = new ThreadLocal<>();

    private volatile boolean cancelled;
    private final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();

    /** The token of the work this thread runs, or null. */
    static Cancellation current() {
        return CURRENT.get();
    }

    /** Whether the current thread's work has been cancelled. */
    static boolean cancelled(Cancellation c) {
        return c != null && c.cancelled;
    }

    /** Throws {@link CancellationException} when the current thread's work has been cancelled. */
    public static void check() {
        Cancellation c = CURRENT.get();
        if (c != null && c.cancelled) {
            throw new CancellationException("cancelled");
        }
    }

    /** Cancels: pieces not yet started are skipped, and listeners run (once, on this thread). */
    public void cancel() {
        cancelled = true;
        for (Runnable r : listeners) {
            listeners.remove(r);
            r.run();
        }
    }

    /** Runs {@code r} when cancelled (at once when already); returns what removes it again. */
    Runnable onCancel(Runnable r) {
        listeners.add(r);
        if (cancelled && listeners.remove(r)) {
            r.run();
        }
        return () -> listeners.remove(r);
    }

    /** Runs {@code work} with this token as the current thread's. */
    <T> T run(Supplier<T> work) {
        Cancellation outer = CURRENT.get();
        CURRENT.set(this);
        try {
            return work.get();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    /** Runs {@code work} under this token when not null, else as it is. */
    static void runUnder(Cancellation c, Runnable work) {
        if (c == null || c == CURRENT.get()) {
            work.run();
            return;
        }
        c.run(() -> {
            work.run();
            return null;
        });
    }

    /**
     * Runs {@code work} as one task on {@code executor} and returns its future: completed with its
     * result, or exceptionally with exactly the exception it threw (not wrapped), on the
     * executor's thread. Cancelling the future cancels the token the work runs under, so that
     * the chunk tasks it has not started are skipped; the future is then cancelled at once,
     * while pieces already running finish (they may write into memory the work owns).
     *
     * @param discard run on a result that arrives after the future was cancelled (closes what
     *                nobody will receive), or null
     */
    public static <T> CompletableFuture<T> submit(Executor executor, Supplier<T> work, Consumer<T> discard) {
        Cancellation token = new Cancellation();
        CompletableFuture<T> future = new CompletableFuture<>();
        future.whenComplete((v, e) -> {
            if (future.isCancelled()) {
                token.cancel();
            }
        });
        try {
            executor.execute(() -> {
                if (future.isDone()) {
                    return;
                }
                try {
                    T v = token.run(work);
                    if (!future.complete(v) && discard != null && v != null) {
                        discard.accept(v);
                    }
                } catch (Throwable e) {
                    future.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            future.completeExceptionally(new dev.zarrj.api.StoreException(
                    "cannot start the operation: the Zarr's executor refused it (closed?)", e));
        }
        return future;
    }
}
