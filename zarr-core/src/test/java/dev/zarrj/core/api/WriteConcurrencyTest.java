package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code Zarr.builder().ioConcurrency(n)} for writes: whole chunks are stored through
 * {@link Store#setAsync} with up to {@code n} requests outstanding, independently of the threads
 * that encode them.
 */
class WriteConcurrencyTest {
    /** 64 chunks of 128 × 128 int32: 64 KiB each, large enough to be encoded into pooled memory. */
    private static final int SIDE = 1024;
    private static final int CHUNK = 128;
    private static final int CHUNKS = 64;
    private static final long DELAY_MILLIS = 10;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    @Test
    void sixteenRequestsInFlightWithTwoThreads() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(16).build()) {
            DelayedStore store = new DelayedStore(zarr.openStore("memory:"), scheduler);
            ZarrArray a = zarr.array(DataTypes.INT32, SIDE, SIDE).chunks(CHUNK, CHUNK).fillValue(0).create(store, "/a");
            a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, values(), SIDE, SIDE));
            assertEquals(0, store.inFlight.get(), "every request completed when write returned");
            assertEquals(16, store.peak.get(), "peak of chunk writes in flight");
            assertEquals(CHUNKS, store.asyncSets.get(), "every chunk stored once, asynchronously");
            assertEquals(0, store.blockingSets.get(), "no chunk stored with a blocking set");
            assertTrue(store.peakBytes.get() <= 16L * CHUNK * CHUNK * 4, "bytes awaiting completion: " + store.peakBytes);
            // Each value was checked unchanged at completion (its lease outlived the request), and reads back.
            assertEquals(0, store.changedBeforeCompletion.get(), "values changed while their request was in flight");
            assertArrayEquals(values(), a.read().toIntArray());
        }
    }

    @Test
    void chunksLeftAllFillValueAreErasedAsynchronously() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(16).build()) {
            DelayedStore store = new DelayedStore(zarr.openStore("memory:"), scheduler);
            ZarrArray a = zarr.array(DataTypes.INT32, SIDE, SIDE).chunks(CHUNK, CHUNK).fillValue(0).create(store, "/a");
            a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, values(), SIDE, SIDE));
            a.write(new long[] {0, 0}, NdArray.allocate(DataTypes.INT32, SIDE, SIDE));
            assertEquals(CHUNKS, store.asyncErases.get(), "every chunk erased once, asynchronously");
            assertEquals(0, store.inFlight.get());
            assertTrue(store.peak.get() > 2, "more erases in flight than threads: " + store.peak);
            assertFalse(store.memory.exists(StoreKey.of("a/c/0/0")));
            assertArrayEquals(new int[SIDE * SIDE], a.read().toIntArray());
        }
    }

    /** Whole chunks, edge chunks and chunks written in part (read-modify-write) in one write. */
    @Test
    void aRegionWithPartialAndEdgeChunksRoundTrips() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(16).build()) {
            DelayedStore store = new DelayedStore(zarr.openStore("memory:"), scheduler);
            ZarrArray a = zarr.array(DataTypes.INT32, 1000, 1000).chunks(CHUNK, CHUNK).fillValue(-1).create(store, "/a");
            int rows = 900;
            int cols = 995;
            int[] v = new int[rows * cols];
            for (int i = 0; i < v.length; i++) {
                v[i] = i * 7 + 1;
            }
            a.write(new long[] {50, 5}, NdArray.copyOf(DataTypes.INT32, v, rows, cols));
            assertEquals(0, store.inFlight.get());
            assertTrue(store.asyncSets.get() > 0 && store.peak.get() > 2, "whole chunks stored asynchronously");
            assertArrayEquals(v, a.read(new long[] {50, 5}, new long[] {rows, cols}).toIntArray());
            assertEquals(-1, a.read(new long[] {0, 0}, new long[] {1, 1}).toIntArray()[0]);
        }
    }

    @Test
    void aFailedRequestFailsTheWriteNamingTheKeyWithNothingLeftRunning() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(16).build()) {
            DelayedStore store = new DelayedStore(zarr.openStore("memory:"), scheduler);
            ZarrArray a = zarr.array(DataTypes.INT32, SIDE, SIDE).chunks(CHUNK, CHUNK).fillValue(0).create(store, "/a");
            store.failing = "a/c/3/5";
            NdArray src = NdArray.copyOf(DataTypes.INT32, values(), SIDE, SIDE);
            ZarrException e = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> assertThrows(ZarrException.class, () -> a.write(new long[] {0, 0}, src)));
            assertTrue(String.valueOf(e.getMessage()).contains("a/c/3/5"), e.getMessage());
            assertEquals(0, store.inFlight.get(), "no request still running once the write has thrown");
            int started = store.asyncSets.get();
            assertTrue(started < CHUNKS + 1, "requests started: " + started);
        }
    }

    /** Store.writeConcurrency(): a store's suggestion for writes applies when the caller chose none. */
    @Test
    void aStoresWriteSuggestionAppliesWhenNotSet() {
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            DelayedStore store = new DelayedStore(zarr.openStore("memory:"), scheduler);
            store.writeSuggestion = 8;
            ZarrArray a = zarr.array(DataTypes.INT32, SIDE, SIDE).chunks(CHUNK, CHUNK).fillValue(0).create(store, "/a");
            a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, values(), SIDE, SIDE));
            assertEquals(8, store.peak.get(), "peak of chunk writes in flight");
            assertEquals(CHUNKS, store.asyncSets.get(), "every chunk stored once, asynchronously");
            assertEquals(0, store.blockingSets.get(), "no chunk stored with a blocking set");
            assertEquals(0, store.changedBeforeCompletion.get(), "values changed while their request was in flight");
            assertArrayEquals(values(), a.read().toIntArray());
        }
    }

    @Test
    void withoutASuggestionEachTaskStoresItsChunk() {
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            DelayedStore store = new DelayedStore(zarr.openStore("memory:"), scheduler);
            ZarrArray a = zarr.array(DataTypes.INT32, SIDE, SIDE).chunks(CHUNK, CHUNK).fillValue(0).create(store, "/a");
            a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, values(), SIDE, SIDE));
            assertEquals(0, store.asyncSets.get(), "chunks stored as before, with blocking sets");
            assertEquals(CHUNKS, store.blockingSets.get());
            assertArrayEquals(values(), a.read().toIntArray());
        }
    }

    /** The caller's ioConcurrency wins over a store's write suggestion. */
    @Test
    void theCallersIoConcurrencyWinsOverTheStoresWriteSuggestion() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(3).build()) {
            DelayedStore store = new DelayedStore(zarr.openStore("memory:"), scheduler);
            store.writeSuggestion = 8;
            ZarrArray a = zarr.array(DataTypes.INT32, SIDE, SIDE).chunks(CHUNK, CHUNK).fillValue(0).create(store, "/a");
            a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, values(), SIDE, SIDE));
            assertEquals(3, store.peak.get(), "peak of chunk writes in flight");
            assertArrayEquals(values(), a.read().toIntArray());
        }
    }

    @Test
    void aStoreCompletingOnTheCallingThreadRoundTrips() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(16).build()) {
            Store memory = zarr.openStore("memory:");
            ZarrArray a = zarr.array(DataTypes.INT32, SIDE, SIDE).chunks(CHUNK, CHUNK).fillValue(0).create(memory, "/a");
            a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, values(), SIDE, SIDE));
            assertArrayEquals(values(), a.read().toIntArray());
        }
    }

    private static int[] values() {
        int[] v = new int[SIDE * SIDE];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 31 + 7;
        }
        return v;
    }

    /**
     * A memory store whose {@code setAsync} and {@code eraseAsync} of a chunk complete after a
     * delay on a scheduler (no thread waits per request), counting the requests in flight and
     * their peak, and checking that each value is unchanged when its request completes.
     */
    private static final class DelayedStore implements Store {
        final Store memory;
        private final ScheduledExecutorService scheduler;
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();
        final AtomicLong bytesInFlight = new AtomicLong();
        final AtomicLong peakBytes = new AtomicLong();
        final AtomicInteger asyncSets = new AtomicInteger();
        final AtomicInteger asyncErases = new AtomicInteger();
        final AtomicInteger blockingSets = new AtomicInteger();
        final AtomicInteger changedBeforeCompletion = new AtomicInteger();
        volatile String failing;
        volatile int writeSuggestion;

        DelayedStore(Store memory, ScheduledExecutorService scheduler) {
            this.memory = memory;
            this.scheduler = scheduler;
        }

        private static boolean chunk(StoreKey key) {
            return key.value().contains("/c/");
        }

        @Override public StoreCapabilities capabilities() { return memory.capabilities(); }
        @Override public String describe() { return "delayed(" + memory.describe() + ")"; }
        @Override public Optional<ByteBuffer> get(StoreKey key) { return memory.get(key); }
        @Override public int writeConcurrency() { return writeSuggestion; }

        @Override
        public void set(StoreKey key, ByteBuffer value) {
            if (chunk(key)) {
                blockingSets.incrementAndGet();
            }
            memory.set(key, value);
        }

        @Override
        public CompletableFuture<Void> setAsync(StoreKey key, ByteBuffer value) {
            if (!chunk(key)) {
                return Store.super.setAsync(key, value);
            }
            asyncSets.incrementAndGet();
            ByteBuffer copy = ByteBuffer.allocate(value.remaining()).put(value.duplicate()).flip();
            return delayed(value.remaining(), () -> {
                if (!copy.equals(value)) {
                    changedBeforeCompletion.incrementAndGet();
                }
                if (key.value().equals(failing)) {
                    throw new StoreException(describe() + ": cannot write '" + key + "'", null);
                }
                memory.set(key, value);
            });
        }

        @Override
        public CompletableFuture<Void> eraseAsync(StoreKey key) {
            if (!chunk(key)) {
                return Store.super.eraseAsync(key);
            }
            asyncErases.incrementAndGet();
            return delayed(0, () -> memory.erase(key));
        }

        private CompletableFuture<Void> delayed(long bytes, Runnable op) {
            peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            peakBytes.accumulateAndGet(bytesInFlight.addAndGet(bytes), Math::max);
            CompletableFuture<Void> f = new CompletableFuture<>();
            scheduler.schedule(() -> {
                try {
                    op.run();
                    bytesInFlight.addAndGet(-bytes);
                    inFlight.decrementAndGet();
                    f.complete(null);
                } catch (RuntimeException e) {
                    bytesInFlight.addAndGet(-bytes);
                    inFlight.decrementAndGet();
                    f.completeExceptionally(e);
                }
            }, DELAY_MILLIS, TimeUnit.MILLISECONDS);
            return f;
        }

        @Override public void erase(StoreKey key) { memory.erase(key); }
        @Override public List<StoreKey> listPrefix(String prefix) { return memory.listPrefix(prefix); }
        @Override public ListDirResult listDir(String prefix) { return memory.listDir(prefix); }
    }
}
