package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * A whole-chunk write is ordered with a concurrent partial update (read, modify, write) of the same
 * chunk on a store without conditional writes: the update must not store the chunk it read before
 * the whole write, with its part in it, after the whole write (the whole write would be lost).
 * The store's get of the chunk blocks on a latch to force that interleaving; with the fix the whole
 * write (or the update) waits for the other instead, whichever order the test allows.
 */
class WholeChunkWriteOrderTest {
    private static final int N = 16;

    private static int[] filled(int v) {
        int[] a = new int[N];
        java.util.Arrays.fill(a, v);
        return a;
    }

    private static int[] part() {
        return new int[] {9, 9, 9, 9};
    }

    /** What is expected: the whole write (all 7) with the update's part (9 at 4..7) either on it or under it. */
    private static void assertNotLost(int[] got) {
        int[] updateAfter = filled(7);
        java.util.Arrays.fill(updateAfter, 4, 8, 9);
        boolean ok = java.util.Arrays.equals(got, filled(7)) || java.util.Arrays.equals(got, updateAfter);
        assertTrue(ok, "the whole-chunk write was lost: " + java.util.Arrays.toString(got));
    }

    /** Blocking whole-chunk write (store.set) racing a partial update whose read is held. */
    @Test
    void aWholeChunkWriteIsNotLostToAPartialUpdate() throws Exception {
        try (Zarr z = Zarr.builder().threads(1).build()) {
            Latched store = new Latched(z.openStore("memory:"));
            ZarrArray a = z.array(DataTypes.INT32, N).chunks(N).create(store, "/a");
            store.holdNextChunkGet = true;
            Thread partial = thread(() -> a.write(new long[] {4}, new long[] {4}, part()));
            partial.start();
            while (store.getReached.getCount() > 0 && partial.isAlive()) {
                Thread.sleep(1);
            }
            assertNoFailure();
            Thread whole = thread(() -> a.write(new long[] {0}, new long[] {N}, filled(7)));
            whole.start();
            // Old code: the whole write stores at once and ends; fixed: it waits for the chunk's lock.
            awaitEndedOrWaiting(whole);
            store.proceed.countDown();
            partial.join(60_000);
            whole.join(60_000);
            assertNoFailure();
            assertNotLost(a.read(new long[] {0}, new long[] {N}).toIntArray());
        }
    }

    /**
     * Whole-chunk write through setAsync (write-behind: ioConcurrency above the threads) still in
     * flight while a partial update starts: the update must not read the chunk until the request
     * has completed.
     */
    @Test
    void aWholeChunkWriteInFlightIsNotLostToAPartialUpdate() throws Exception {
        try (Zarr z = Zarr.builder().threads(1).ioConcurrency(8).build()) {
            Latched store = new Latched(z.openStore("memory:"));
            ZarrArray a = z.array(DataTypes.INT32, N).chunks(N).create(store, "/a");
            store.deferChunkSets = true;
            Thread whole = thread(() -> a.write(new long[] {0}, new long[] {N}, filled(7)));
            whole.start();
            assertTrue(store.setAsyncCalled.await(1, TimeUnit.MINUTES));
            store.holdNextChunkGet = true;
            Thread partial = thread(() -> a.write(new long[] {4}, new long[] {4}, part()));
            partial.start();
            // Old code: the update reads the old chunk now and waits in get; fixed: it waits for the request.
            while (store.getReached.getCount() > 0 && partial.getState() != Thread.State.WAITING
                    && partial.isAlive()) {
                Thread.sleep(1);
            }
            store.completeDeferred();
            whole.join(60_000);
            store.proceed.countDown();
            partial.join(60_000);
            assertNoFailure();
            assertNotLost(a.read(new long[] {0}, new long[] {N}).toIntArray());
        }
    }

    private final java.util.Queue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();

    private Thread thread(Runnable r) {
        return new Thread(() -> {
            try {
                r.run();
            } catch (Throwable e) {
                failures.add(e);
            }
        });
    }

    private void assertNoFailure() {
        if (!failures.isEmpty()) {
            throw new AssertionError("a writer failed", failures.peek());
        }
    }

    private static void awaitEndedOrWaiting(Thread t) throws InterruptedException {
        while (t.getState() != Thread.State.TERMINATED && t.getState() != Thread.State.WAITING) {
            Thread.sleep(1);
        }
    }

    /** A memory store without conditional writes whose chunk get and setAsync the test can hold. */
    private static final class Latched implements Store {
        private final Store memory;
        volatile boolean holdNextChunkGet;
        volatile boolean deferChunkSets;
        final CountDownLatch getReached = new CountDownLatch(1);
        final CountDownLatch proceed = new CountDownLatch(1);
        final CountDownLatch setAsyncCalled = new CountDownLatch(1);
        private final AtomicReference<Runnable> deferred = new AtomicReference<>();

        Latched(Store memory) {
            this.memory = memory;
        }

        private static boolean chunk(StoreKey key) {
            return key.value().contains("/c/");
        }

        private void maybeHold(StoreKey key) {
            if (chunk(key) && holdNextChunkGet) {
                holdNextChunkGet = false;
                getReached.countDown();
                try {
                    proceed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        void completeDeferred() {
            deferred.get().run();
        }

        @Override public StoreCapabilities capabilities() { return memory.capabilities(); }
        @Override public String describe() { return "latched(" + memory.describe() + ")"; }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            Optional<ByteBuffer> v = memory.get(key);
            maybeHold(key);
            return v;
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
            Optional<ByteBuffer> v = memory.get(key, allocate);
            maybeHold(key);
            return v;
        }

        @Override
        public CompletableFuture<Void> setAsync(StoreKey key, ByteBuffer value) {
            if (!(chunk(key) && deferChunkSets)) {
                return Store.super.setAsync(key, value);
            }
            deferChunkSets = false;
            ByteBuffer copy = ByteBuffer.allocate(value.remaining()).put(value.duplicate()).flip();
            CompletableFuture<Void> f = new CompletableFuture<>();
            deferred.set(() -> {
                memory.set(key, copy);
                f.complete(null);
            });
            setAsyncCalled.countDown();
            return f;
        }

        @Override public void set(StoreKey key, ByteBuffer value) { memory.set(key, value); }
        @Override public void erase(StoreKey key) { memory.erase(key); }
        @Override public List<StoreKey> listPrefix(String prefix) { return memory.listPrefix(prefix); }
        @Override public ListDirResult listDir(String prefix) { return memory.listDir(prefix); }
    }
}
