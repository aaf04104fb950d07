package dev.zarrj.codec.sharding.internal;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Runs the per-inner-chunk work of one shard (decode, encode, copy) in parallel.
 *
 * <p>One pool for the whole module: a {@link ForkJoinPool} of daemon threads named
 * {@code zarrj-sharding-N}, as many as there are processors, created on first use and never shut
 * down. The work is CPU-bound (codecs and copies); only an inner chunk that is itself a shard and is
 * read in part does store reads here.
 *
 * <p>No deadlock, whoever calls: a caller outside the pool (for example a thread of zarr-core's
 * chunk executor) waits for the pool, whose tasks never wait for that caller's executor; a caller
 * inside the pool (a nested shard) forks into the same pool and joins with work stealing, so a
 * blocked worker runs queued tasks instead of holding a thread. A single item runs in the caller.
 */
final class ShardExecutor {
    private static final int PARALLELISM = Math.max(1, Runtime.getRuntime().availableProcessors());

    private static final ForkJoinPool POOL = new ForkJoinPool(PARALLELISM, pool -> {
        ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
        t.setName("zarrj-sharding-" + t.getPoolIndex());
        t.setDaemon(true);
        return t;
    }, null, false);

    /** Batches per thread: enough to balance uneven inner chunks, few enough to keep overhead low. */
    private static final int BATCHES_PER_THREAD = 4;

    private ShardExecutor() {}

    /**
     * Runs {@code task} for every index in {@code [0, n)} and returns when all have finished. The
     * first failure is rethrown as it was thrown (not wrapped); remaining items are skipped once one
     * has failed.
     */
    static void forEach(int n, IntConsumer task) {
        if (n <= 0) {
            return;
        }
        if (n == 1 || PARALLELISM == 1) {
            for (int i = 0; i < n; i++) {
                task.accept(i);
            }
            return;
        }
        int batches = Math.min(n, PARALLELISM * BATCHES_PER_THREAD);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        RecursiveAction[] actions = new RecursiveAction[batches];
        for (int b = 0; b < batches; b++) {
            int from = (int) ((long) n * b / batches);
            int to = (int) ((long) n * (b + 1) / batches);
            actions[b] = new Batch(from, to, task, failure);
        }
        if (ForkJoinTask.getPool() == POOL) {
            ForkJoinTask.invokeAll(actions);
        } else {
            POOL.invoke(new RecursiveAction() {
                private static final long serialVersionUID = 1L;

                @Override
                protected void compute() {
                    invokeAll(actions);
                }
            });
        }
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
    }

    /** Items {@code [from, to)}; records the first failure instead of throwing, so that it is rethrown unchanged. */
    private static final class Batch extends RecursiveAction {
        private static final long serialVersionUID = 1L;

        private final int from;
        private final int to;
        private final transient IntConsumer task;
        private final transient AtomicReference<Throwable> failure;

        Batch(int from, int to, IntConsumer task, AtomicReference<Throwable> failure) {
            this.from = from;
            this.to = to;
            this.task = task;
            this.failure = failure;
        }

        @Override
        protected void compute() {
            for (int i = from; i < to && failure.get() == null; i++) {
                try {
                    task.accept(i);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                    return;
                }
            }
        }
    }
}
