package dev.zarrj.conformance.internal.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs checks on many threads at once, each thread on different data at any moment. */
public final class Concurrency {
    /** How many threads the thread-safety rules use. */
    public static final int THREADS = 8;

    private static final long TIMEOUT_SECONDS = 300;

    /** One operation on one item. */
    @FunctionalInterface
    public interface Operation<T> {
        void run(T item) throws Throwable;
    }

    private Concurrency() {}

    /**
     * Starts {@link #THREADS} threads together; each works through the items from its own starting
     * point, so the threads handle different items at the same time. Each failure is recorded with
     * the item's label and the thread.
     */
    public static <T> void hammer(List<T> items, java.util.function.Function<T, String> label, Operation<T> operation,
                                  Failures failures) {
        if (items.isEmpty()) {
            return;
        }
        int n = items.size();
        int ops = Math.min(Math.max(2 * n, 64), 600);
        CyclicBarrier start = new CyclicBarrier(THREADS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "zarrj-conformance");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < ops; i++) {
                        T item = items.get((thread * n / THREADS + i) % n);
                        failures.check(label.apply(item) + " (thread " + thread + " of " + THREADS + ")",
                                () -> operation.run(item));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                try {
                    f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    failures.fail("all threads", "did not finish within " + TIMEOUT_SECONDS + " s (a deadlock?)", e);
                    return;
                } catch (Exception e) {
                    failures.fail("a thread", "failed: " + Failures.describe(e), e);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
