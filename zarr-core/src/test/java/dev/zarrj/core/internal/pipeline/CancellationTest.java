package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link Cancellation} in {@link ParallelTasks}: pieces after a cancel are skipped, helpers and nested calls see the token. */
class CancellationTest {
    private final ExecutorService pool = Executors.newFixedThreadPool(3);

    @AfterEach
    void close() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(1, TimeUnit.MINUTES);
    }

    @Test
    void piecesAfterTheCancelAreSkipped() {
        ParallelTasks tasks = new ParallelTasks(pool, 4);
        Cancellation token = new Cancellation();
        AtomicInteger ran = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean cancelReturned = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicInteger startedAfter = new AtomicInteger();
        assertThrows(CancellationException.class, () -> token.run(() -> {
            tasks.forEachLong(10_000, i -> {
                if (cancelReturned.get()) {
                    startedAfter.incrementAndGet();
                }
                if (ran.incrementAndGet() == 10) {
                    token.cancel();
                    cancelReturned.set(true);
                }
            });
            return null;
        }));
        // Counting from the cancel's return, not from the tenth piece: on a loaded machine the
        // cancelling thread may be descheduled before it cancels while the others run on. Each
        // of the other three threads may have claimed one piece before the cancel and start it after.
        assertTrue(ran.get() >= 10 && startedAfter.get() <= 3,
                "after the cancel, only pieces claimed before it ran: " + startedAfter + " of " + ran);
        assertThrows(CancellationException.class, () -> token.run(() -> {
            tasks.forEachLong(1, i -> ran.set(-1));
            return null;
        }), "a call under a cancelled token starts nothing");
        assertTrue(ran.get() > 0);
    }

    @Test
    void helpersAndNestedCallsRunUnderTheCallersToken() {
        ParallelTasks tasks = new ParallelTasks(pool, 4);
        Cancellation token = new Cancellation();
        Set<Cancellation> seen = ConcurrentHashMap.newKeySet();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        Thread caller = Thread.currentThread();
        java.util.concurrent.CountDownLatch helped = new java.util.concurrent.CountDownLatch(1);
        Thread.interrupted(); // a flag left by other tests would have every piece skipped
        token.run(() -> {
            tasks.forEachLong(200, i -> {
                threads.add(Thread.currentThread());
                if (Thread.currentThread() != caller) {
                    helped.countDown();
                } else if (helped.getCount() > 0) {
                    try {
                        // The caller's first piece, whichever it is, waits until a helper runs one.
                        helped.await(1, TimeUnit.MINUTES);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                tasks.forEachLong(3, k -> seen.add(Cancellation.current()));
                seen.add(Cancellation.current());
            });
            return null;
        });
        assertEquals(Set.of(token), seen);
        // One helper may claim all 200 pieces before the caller claims any; either way a helper ran.
        assertTrue(threads.stream().anyMatch(t -> t != caller), "helpers took part: " + threads);
        java.util.List<CompletableFuture<Boolean>> later = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            later.add(CompletableFuture.supplyAsync(() -> Cancellation.current() == null, pool));
        }
        for (CompletableFuture<Boolean> f : later) {
            assertTrue(f.join(), "the pool's threads forget the token afterwards");
        }
    }

    @Test
    void cancellingTheFutureCancelsTheToken() throws Exception {
        CompletableFuture<Cancellation> seen = new CompletableFuture<>();
        java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(1);
        CompletableFuture<Object> f = Cancellation.submit(pool, () -> {
            seen.complete(Cancellation.current());
            try {
                hold.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Cancellation.check();
            return "done";
        }, null);
        Cancellation token = seen.get(1, TimeUnit.MINUTES);
        assertTrue(token != null && !Cancellation.cancelled(token));
        assertTrue(f.cancel(true));
        assertTrue(Cancellation.cancelled(token));
        assertTrue(f.isCancelled());
        hold.countDown();
    }
}
