package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.TaskRunner;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;

/**
 * The one way zarrj runs pieces of work in parallel: chunks of a read or write, and the pieces
 * codecs hand to {@link TaskRunner#forEach} (inner chunks of a shard).
 *
 * <p>The calling thread takes part. It asks the executor for up to {@code parallelism - 1}
 * helpers, then it and every helper that has started claim indices from one counter until none is
 * left. The caller then waits only for pieces already claimed, which are running on threads that
 * have started, so it never waits for a helper still queued behind other work: nesting (a chunk
 * task whose codec calls {@code forEach}) and calls from the executor's own threads cannot
 * deadlock, whatever the executor. A helper that starts after the work is done returns at once and
 * holds no reference to it. An executor that refuses helpers (shut down) leaves the caller to do
 * everything.
 *
 * <p>At most {@code parallelism} pieces of one call run at once, which also bounds the chunks in
 * memory. When the caller is interrupted, pieces not yet claimed are skipped, the caller still
 * waits for the running ones (they may be writing into memory it is about to reuse), and then
 * throws a {@link StoreException} with its interrupt status set. Interrupted while waiting, with
 * nothing left to skip, it returns normally with its interrupt status set.
 *
 * <p>Cancellation of an asynchronous operation ({@link Cancellation}) works the same way without
 * touching any thread's interrupt status: pieces not yet claimed are skipped, running ones finish,
 * and the call throws {@link CancellationException}. The caller's token is handed to the helpers
 * while they run pieces of its call, so nested calls see it too.
 */
public final class ParallelTasks implements TaskRunner {
    private final Executor executor;
    private final int parallelism;

    /**
     * @param executor    where helpers run
     * @param parallelism how many threads, the caller included, work on one call at most
     */
    public ParallelTasks(Executor executor, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
        }
        this.executor = executor;
        this.parallelism = parallelism;
    }

    /** The same executor with at most {@code limit} threads on one call. */
    public ParallelTasks limit(int limit) {
        return limit >= parallelism ? this : new ParallelTasks(executor, limit);
    }

    /** How many threads, the caller included, work on one call at most. */
    public int parallelism() {
        return parallelism;
    }

    @Override
    public void forEach(int n, IntConsumer task) {
        forEachLong(n, i -> task.accept((int) i));
    }

    /** {@link #forEach(int, IntConsumer)} for more pieces than an int counts. */
    public void forEachLong(long n, LongConsumer task) {
        if (n <= 0) {
            return;
        }
        Cancellation token = Cancellation.current();
        if (Cancellation.cancelled(token)) {
            throw new CancellationException("cancelled before reading or writing " + n + " chunks");
        }
        if (n == 1) {
            task.accept(0);
            return;
        }
        Work work = new Work(n, task, Thread.currentThread(), token);
        long helpers = Math.min(n, parallelism) - 1;
        for (long h = 0; h < helpers; h++) {
            try {
                executor.execute(work::claimAndRun);
            } catch (RejectedExecutionException e) {
                break;
            }
        }
        work.claimAndRun();
        work.awaitClaimed();
        work.rethrow();
    }

    private static final class Work {
        private final long n;
        private final Thread caller;
        private final Cancellation token;
        private final AtomicLong next = new AtomicLong();
        private final AtomicLong finished = new AtomicLong();
        private final CountDownLatch allFinished = new CountDownLatch(1);
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private volatile LongConsumer task;
        private volatile boolean interrupted;
        private volatile boolean cancelled;

        Work(long n, LongConsumer task, Thread caller, Cancellation token) {
            this.n = n;
            this.task = task;
            this.caller = caller;
            this.token = token;
        }

        /** Claims and runs pieces until none is left; a piece claimed after a failure or an interrupt is skipped. */
        void claimAndRun() {
            LongConsumer t = task;
            if (t == null) {
                return;
            }
            Cancellation.runUnder(token, () -> claimAndRun(t));
        }

        private void claimAndRun(LongConsumer t) {
            long i;
            while ((i = next.getAndIncrement()) < n) {
                try {
                    if (caller.isInterrupted()) {
                        interrupted = true;
                    } else if (Cancellation.cancelled(token)) {
                        cancelled = true;
                    } else if (failure.get() == null) {
                        t.accept(i);
                    }
                } catch (Throwable e) {
                    if (!failure.compareAndSet(null, e) && failure.get() != e) {
                        failure.get().addSuppressed(e);
                    }
                } finally {
                    if (finished.incrementAndGet() == n) {
                        allFinished.countDown();
                    }
                }
            }
        }

        /** Waits, not interruptibly, until every claimed piece has finished; the caller claims the rest first. */
        void awaitClaimed() {
            boolean wasInterrupted = false;
            while (true) {
                try {
                    allFinished.await();
                    break;
                } catch (InterruptedException e) {
                    wasInterrupted = true;
                }
            }
            task = null;
            if (wasInterrupted) {
                Thread.currentThread().interrupt();
            }
        }

        void rethrow() {
            Throwable t = failure.get();
            if (t instanceof RuntimeException re) {
                throw re;
            }
            if (t instanceof Error err) {
                throw err;
            }
            if (t != null) {
                throw new IllegalStateException(t);
            }
            if (interrupted) {
                throw new StoreException("interrupted while reading or writing chunks", null);
            }
            if (cancelled) {
                throw new CancellationException("cancelled while reading or writing chunks");
            }
        }
    }
}
