package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.TaskRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The caller-takes-part runner: every piece runs once, the thread budget holds, failures come back
 * unchanged, and no caller (nested, on the executor's own threads, interrupted) deadlocks or returns
 * while a piece is still running.
 */
class ParallelTasksTest {
    private final ExecutorService pool = Executors.newFixedThreadPool(3);

    @AfterEach
    void shutdown() {
        pool.shutdownNow();
    }

    @Test
    void everyPieceRunsExactlyOnce() {
        AtomicIntegerArray runs = new AtomicIntegerArray(10_000);
        new ParallelTasks(pool, 4).forEach(runs.length(), runs::incrementAndGet);
        for (int i = 0; i < runs.length(); i++) {
            assertEquals(1, runs.get(i), "piece " + i);
        }
    }

    @Test
    void oneExceptionThrownByTwoPiecesComesBackAsItIs() {
        // A codec that keeps one failure (a library that could not load) may throw the same
        // instance from every piece; adding it to itself as suppressed is an IllegalArgumentException.
        StoreException shared = new StoreException("shared failure", null);
        CountDownLatch both = new CountDownLatch(2);
        StoreException e = assertThrows(StoreException.class, () -> new ParallelTasks(pool, 2).forEach(2, i -> {
            both.countDown();
            try {
                both.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
            throw shared;
        }));
        assertSame(shared, e);
        assertEquals(0, e.getSuppressed().length);
    }

    /**
     * inPiece is true in every piece of a call with several pieces, on the caller and on helpers,
     * nested calls included, and false outside them, in a call of one piece (run as a plain call),
     * and after a piece failed.
     */
    @Test
    void inPieceHoldsOnlyWhileAPieceRuns() {
        ParallelTasks tasks = new ParallelTasks(pool, 3);
        assertFalse(tasks.inPiece());
        AtomicInteger outside = new AtomicInteger();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        tasks.forEach(64, i -> {
            threads.add(Thread.currentThread());
            if (!tasks.inPiece()) {
                outside.incrementAndGet();
            }
            tasks.forEach(3, j -> {
                if (!tasks.inPiece()) {
                    outside.incrementAndGet();
                }
            });
            if (!tasks.inPiece()) {
                outside.incrementAndGet();
            }
            sleep(1);
        });
        assertEquals(0, outside.get(), "pieces that did not see inPiece");
        assertTrue(threads.size() > 1, "helpers ran pieces too: " + threads);
        assertFalse(tasks.inPiece(), "after the call");
        AtomicBoolean single = new AtomicBoolean(true);
        tasks.forEach(1, i -> single.set(tasks.inPiece()));
        assertFalse(single.get(), "a call of one piece is the caller's own work");
        assertThrows(IllegalStateException.class, () -> tasks.forEach(4, i -> {
            throw new IllegalStateException("piece " + i);
        }));
        assertFalse(tasks.inPiece(), "after a failed call");
        assertFalse(TaskRunner.sequential().inPiece(), "the default");
    }

    @Test
    void parallelismOneRunsEverythingInTheCaller() {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        new ParallelTasks(pool, 1).forEach(100, i -> threads.add(Thread.currentThread()));
        assertEquals(Set.of(Thread.currentThread()), threads);
    }

    @Test
    void noMoreThanParallelismPiecesRunAtOnce() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        new ParallelTasks(pool, 2).forEach(200, i -> {
            threads.add(Thread.currentThread());
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            sleep(1);
            running.decrementAndGet();
        });
        assertTrue(most.get() <= 2, "at most 2 pieces at once, saw " + most.get());
        assertTrue(threads.size() <= 2, "at most 2 threads, saw " + threads);
        assertTrue(threads.contains(Thread.currentThread()), "the caller takes part");
    }

    @Test
    void theFirstFailureIsRethrownAsItWasAndLaterPiecesAreSkipped() {
        CorruptDataException boom = new CorruptDataException("inner chunk [3]");
        AtomicInteger ran = new AtomicInteger();
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> new ParallelTasks(pool, 1).forEach(100, i -> {
                    ran.incrementAndGet();
                    if (i == 3) {
                        throw boom;
                    }
                }));
        assertSame(boom, e);
        assertEquals(4, ran.get(), "pieces after the failure are skipped");
    }

    /**
     * Three levels of 16 pieces from 32 outside threads, all on a pool of 3: every level's helpers
     * queue behind the others, and only the caller-takes-part rule lets them finish.
     */
    @Test
    void nestedCallsFromManyThreadsFinish() {
        ParallelTasks tasks = new ParallelTasks(pool, 3);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            ExecutorService callers = Executors.newFixedThreadPool(32);
            AtomicLong leaves = new AtomicLong();
            try {
                List<Future<?>> fs = new ArrayList<>();
                for (int c = 0; c < 32; c++) {
                    fs.add(callers.submit(() -> tasks.forEach(16, a -> tasks.forEach(16,
                            b -> tasks.forEach(16, x -> leaves.incrementAndGet())))));
                }
                for (Future<?> f : fs) {
                    f.get();
                }
            } finally {
                callers.shutdownNow();
            }
            assertEquals(32L * 16 * 16 * 16, leaves.get());
        });
    }

    /** Every thread of the executor calls forEach on that same executor, and none waits for a queued helper. */
    @Test
    void callsFromEveryThreadOfTheExecutorFinish() {
        ParallelTasks tasks = new ParallelTasks(pool, 3);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            AtomicLong done = new AtomicLong();
            CountDownLatch allBusy = new CountDownLatch(3);
            List<Future<?>> fs = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                fs.add(pool.submit(() -> {
                    allBusy.countDown();
                    allBusy.await();
                    tasks.forEach(50, i -> done.incrementAndGet());
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            assertEquals(150, done.get());
        });
    }

    /**
     * A lone big piece (a shard whose inner chunks are decoded in parallel) while the caller has
     * nothing left to claim: the caller helps the call nested in that piece, whose own helper
     * waits behind it on the pool's only thread. Each nested piece waits until two threads are in
     * the nested call at once, which only the caller's help makes happen.
     */
    @Test
    void aCallerWithNothingLeftToClaimHelpsTheCallNestedInARunningPiece() throws Exception {
        ExecutorService one = Executors.newFixedThreadPool(1);
        try {
            ParallelTasks tasks = new ParallelTasks(one, 2);
            Thread caller = Thread.currentThread();
            CountDownLatch bigStarted = new CountDownLatch(1);
            java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(2);
            Set<String> nestedThreads = ConcurrentHashMap.newKeySet();
            AtomicInteger nestedRuns = new AtomicInteger();
            tasks.forEach(2, i -> {
                if (Thread.currentThread() == caller) {
                    await(bigStarted); // the small piece: the other one runs on the pool's thread
                    return;
                }
                bigStarted.countDown();
                tasks.forEach(4, k -> {
                    nestedThreads.add(Thread.currentThread().getName());
                    nestedRuns.incrementAndGet();
                    if (k < 2) {
                        try {
                            together.await(20, TimeUnit.SECONDS);
                        } catch (Exception e) {
                            throw new IllegalStateException("no second thread joined the nested call", e);
                        }
                    }
                });
            });
            assertEquals(4, nestedRuns.get());
            assertTrue(nestedThreads.contains(caller.getName()), "the caller helped: " + nestedThreads);
        } finally {
            one.shutdownNow();
        }
    }

    /** Two unrelated calls: a caller waiting for its own pieces never runs a piece of the other. */
    @Test
    void aWaitingCallerDoesNotHelpAnUnrelatedCall() throws Exception {
        ExecutorService one = Executors.newFixedThreadPool(1);
        ExecutorService other = Executors.newFixedThreadPool(3);
        try {
            ParallelTasks tasks = new ParallelTasks(one, 2);
            ParallelTasks otherTasks = new ParallelTasks(other, 2);
            Thread caller = Thread.currentThread();
            CountDownLatch otherOpen = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Set<String> otherThreads = ConcurrentHashMap.newKeySet();
            // Nested calls with pieces left (each piece waits for the release): open to helpers.
            Future<?> unrelated = other.submit(() -> otherTasks.forEach(2, x -> otherTasks.forEach(50, k -> {
                otherOpen.countDown();
                otherThreads.add(Thread.currentThread().getName());
                await(release);
            })));
            assertTrue(otherOpen.await(20, TimeUnit.SECONDS));
            tasks.forEach(2, i -> {
                if (Thread.currentThread() != caller) {
                    sleep(200); // the caller waits meanwhile, with the unrelated calls open
                }
            });
            release.countDown();
            unrelated.get(20, TimeUnit.SECONDS);
            assertTrue(!otherThreads.contains(caller.getName()), "ran by " + otherThreads);
        } finally {
            one.shutdownNow();
            other.shutdownNow();
        }
    }

    @Test
    void aShutDownExecutorLeavesTheWorkToTheCaller() {
        pool.shutdown();
        AtomicIntegerArray runs = new AtomicIntegerArray(100);
        new ParallelTasks(pool, 3).forEach(runs.length(), runs::incrementAndGet);
        for (int i = 0; i < runs.length(); i++) {
            assertEquals(1, runs.get(i), "piece " + i);
        }
    }

    /**
     * An interrupted caller skips what nobody has started, but returns only after the pieces already
     * running have finished: they may be writing into memory the caller will reuse.
     */
    @Test
    void anInterruptedCallerWaitsForRunningPiecesThenThrows() throws Exception {
        ParallelTasks tasks = new ParallelTasks(pool, 2);
        CountDownLatch helperStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean helperBlocked = new AtomicBoolean();
        AtomicBoolean helperFinished = new AtomicBoolean();
        AtomicInteger ran = new AtomicInteger();
        AtomicBoolean finishedBeforeReturn = new AtomicBoolean();
        AtomicBoolean interruptKept = new AtomicBoolean();
        AtomicBoolean threw = new AtomicBoolean();
        Thread[] caller = new Thread[1];
        caller[0] = new Thread(() -> {
            try {
                tasks.forEach(1000, i -> {
                    ran.incrementAndGet();
                    if (Thread.currentThread() == caller[0]) {
                        await(helperStarted);
                        Thread.currentThread().interrupt();
                    } else if (helperBlocked.compareAndSet(false, true)) {
                        helperStarted.countDown();
                        await(release);
                        helperFinished.set(true);
                    }
                });
            } catch (StoreException e) {
                threw.set(true);
            }
            finishedBeforeReturn.set(helperFinished.get());
            interruptKept.set(Thread.currentThread().isInterrupted());
        }, "caller");
        caller[0].start();
        assertTrue(helperStarted.await(10, TimeUnit.SECONDS), "a helper took a piece");
        caller[0].join(200);
        assertTrue(caller[0].isAlive(), "the caller waits for the running helper");
        release.countDown();
        caller[0].join(10_000);
        assertTrue(threw.get(), "the interrupted call throws a StoreException");
        assertTrue(finishedBeforeReturn.get(), "the running piece finished before the caller returned");
        assertTrue(interruptKept.get(), "the interrupt status is kept");
        assertTrue(ran.get() < 1000, "pieces nobody had started are skipped, ran " + ran.get());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
