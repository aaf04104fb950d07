package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code Zarr.builder().ioConcurrency(n)}: a read keeps up to {@code n} store requests
 * outstanding through {@link Store#getAsync(StoreKey)}, independently of its threads.
 */
class IoConcurrencyTest {
    private static final int SIDE = 64;
    private static final int CHUNKS = 64;
    private static final long DELAY_MILLIS = 20;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    @Test
    void sixteenRequestsInFlightWithTwoThreads() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(16).build()) {
            DelayedStore store = new DelayedStore(zarr.openStore("memory:"), scheduler, 0);
            ZarrArray a = written(zarr, store);
            assertArrayEquals(values(), a.read().toIntArray());
            assertEquals(16, store.peak.get(), "peak of chunk requests in flight");
            assertEquals(CHUNKS, store.asyncChunkGets.get(), "every chunk fetched once, asynchronously");
            assertEquals(0, store.blockingChunkGets.get(), "no chunk read with a blocking get");
        }
    }

    @Test
    void aStoresSuggestionAppliesWhenNotSet() {
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            DelayedStore store = new DelayedStore(zarr.openStore("memory:"), scheduler, 8);
            ZarrArray a = written(zarr, store);
            assertArrayEquals(values(), a.read().toIntArray());
            assertEquals(8, store.peak.get(), "peak of chunk requests in flight");
        }
    }

    @Test
    void withoutMoreConcurrencyThanThreadsEachTaskReadsItsChunk() {
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            DelayedStore store = new DelayedStore(zarr.openStore("memory:"), scheduler, 0);
            ZarrArray a = written(zarr, store);
            assertArrayEquals(values(), a.read().toIntArray());
            assertEquals(0, store.asyncChunkGets.get(), "chunks read as before, with blocking gets");
            assertEquals(CHUNKS, store.blockingChunkGets.get());
        }
    }

    @Test
    void aPartialRegionFetchesItsWholeChunksAheadAndReadsTheRest() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(16).build()) {
            DelayedStore store = new DelayedStore(zarr.openStore("memory:"), scheduler, 0);
            ZarrArray a = written(zarr, store);
            // rows 4..59, columns 0..63: 8 whole chunk rows minus the first and last, which are partial
            int[] got = a.read(new long[] {4, 0}, new long[] {56, SIDE}).toIntArray();
            int[] all = values();
            int[] expected = new int[56 * SIDE];
            System.arraycopy(all, 4 * SIDE, expected, 0, expected.length);
            assertArrayEquals(expected, got);
            assertEquals(48, store.asyncChunkGets.get(), "the 6 whole chunk rows fetched ahead");
        }
    }

    @Test
    void aFailedRequestFailsTheReadNamingTheKey() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(16).build()) {
            DelayedStore store = new DelayedStore(zarr.openStore("memory:"), scheduler, 0);
            ZarrArray a = written(zarr, store);
            store.failing = "a/c/3/5";
            ZarrException e = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> assertThrows(ZarrException.class, a::read));
            assertTrue(String.valueOf(e.getMessage()).contains("c/3/5"), e.getMessage());
        }
    }

    /** A region of 1024 chunks, 3 of them stored: read through a listing, the present chunks fetched ahead. */
    @Test
    void aSparseReadFetchesTheListedChunksAhead() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(16).build()) {
            DelayedStore store = new DelayedStore(zarr.openStore("memory:"), scheduler, 0);
            ZarrArray a = zarr.array(DataTypes.INT32, SIDE, SIDE).chunks(2, 2).fillValue(-1).create(store, "/s");
            int[] expected = new int[SIDE * SIDE];
            java.util.Arrays.fill(expected, -1);
            for (int[] at : new int[][] {{0, 0}, {31, 7}, {62, 62}}) {
                a.write(new long[] {at[0], at[1]}, NdArray.copyOf(DataTypes.INT32, new int[] {1, 2, 3, 4}, 2, 2));
                expected[at[0] * SIDE + at[1]] = 1;
                expected[at[0] * SIDE + at[1] + 1] = 2;
                expected[(at[0] + 1) * SIDE + at[1]] = 3;
                expected[(at[0] + 1) * SIDE + at[1] + 1] = 4;
            }
            store.asyncChunkGets.set(0);
            store.blockingChunkGets.set(0);
            assertArrayEquals(expected, a.read().toIntArray());
            assertTrue(store.asyncChunkGets.get() + store.blockingChunkGets.get() < 1024,
                    "the listing spared requests for absent chunks: " + store.asyncChunkGets + " + "
                            + store.blockingChunkGets);
        }
    }

    private static ZarrArray written(Zarr zarr, Store store) {
        ZarrArray a = zarr.array(DataTypes.INT32, SIDE, SIDE).chunks(8, 8).fillValue(0).create(store, "/a");
        a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, values(), SIDE, SIDE));
        return a;
    }

    private static int[] values() {
        int[] v = new int[SIDE * SIDE];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 31 + 7;
        }
        return v;
    }

    /**
     * A memory store whose {@code getAsync} of a chunk completes after a delay on a scheduler (no
     * thread waits per request), counting the requests in flight and their peak.
     */
    private static final class DelayedStore implements Store {
        private final Store memory;
        private final ScheduledExecutorService scheduler;
        private final int suggestion;
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();
        final AtomicInteger asyncChunkGets = new AtomicInteger();
        final AtomicInteger blockingChunkGets = new AtomicInteger();
        volatile String failing;

        DelayedStore(Store memory, ScheduledExecutorService scheduler, int suggestion) {
            this.memory = memory;
            this.scheduler = scheduler;
            this.suggestion = suggestion;
        }

        private static boolean chunk(StoreKey key) {
            return key.value().contains("/c/");
        }

        @Override public StoreCapabilities capabilities() { return memory.capabilities(); }
        @Override public String describe() { return "delayed(" + memory.describe() + ")"; }
        @Override public int ioConcurrency() { return suggestion; }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            if (chunk(key)) {
                blockingChunkGets.incrementAndGet();
            }
            return memory.get(key);
        }

        @Override
        public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key) {
            if (!chunk(key)) {
                return CompletableFuture.completedFuture(memory.get(key));
            }
            asyncChunkGets.incrementAndGet();
            peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            CompletableFuture<Optional<ByteBuffer>> f = new CompletableFuture<>();
            scheduler.schedule(() -> {
                inFlight.decrementAndGet();
                if (key.value().equals(failing)) {
                    f.completeExceptionally(new StoreException(describe() + ": cannot read '" + key + "'", null));
                } else {
                    f.complete(memory.get(key));
                }
            }, DELAY_MILLIS, TimeUnit.MILLISECONDS);
            return f;
        }

        @Override public void set(StoreKey key, ByteBuffer value) { memory.set(key, value); }
        @Override public void erase(StoreKey key) { memory.erase(key); }
        @Override public List<StoreKey> listPrefix(String prefix) { return memory.listPrefix(prefix); }
        @Override public ListDirResult listDir(String prefix) { return memory.listDir(prefix); }
    }
}
