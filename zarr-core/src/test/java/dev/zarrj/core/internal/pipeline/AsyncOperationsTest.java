package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.NodeNotFoundException;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Crc32cConfiguration;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrNode;
import dev.zarrj.core.selection.IndexList;
import dev.zarrj.core.selection.Selection;
import dev.zarrj.core.selection.Slice;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The asynchronous API: results equal the blocking calls', a read of many chunks from a store
 * that answers later holds no thread per chunk, coordinating tasks cannot starve a small pool,
 * cancelling stops fetching and releases leased buffers, a cancelled write tears no chunk, and
 * failures are the blocking calls' exceptions, unwrapped.
 */
class AsyncOperationsTest {
    private static final int ROWS = 1000;
    private static final int COLS = 256;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final Set<Thread> poolThreads = ConcurrentHashMap.newKeySet();
    private ThreadPoolExecutor pool;
    private Zarr zarr;

    @AfterEach
    void close() throws InterruptedException {
        if (zarr != null) {
            zarr.close();
        }
        if (pool != null) {
            pool.shutdownNow();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
        scheduler.shutdownNow();
    }

    /** A Zarr of {@code threads} threads, the caller included, on a pool of {@code poolSize} threads this test watches. */
    private Zarr zarr(int poolSize, int threads, int ioConcurrency) {
        pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(poolSize, r -> {
            Thread t = new Thread(r, "test-pool");
            t.setDaemon(true);
            poolThreads.add(t);
            return t;
        });
        zarr = Zarr.builder().executor(pool).threads(threads).ioConcurrency(ioConcurrency).build();
        return zarr;
    }

    private static int[] values() {
        int[] v = new int[ROWS * COLS];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 7 + 1;
        }
        return v;
    }

    /** 1,000 chunks of one row each, written; the store counts what it is asked only from now on. */
    private ZarrArray filled(Zarr z, Gated store) {
        ZarrArray a = z.array(DataTypes.INT32, ROWS, COLS).chunks(1, COLS).codec(Crc32cConfiguration.of())
                .create(store, "/a");
        a.write(new long[2], new long[] {ROWS, COLS}, values());
        store.reset();
        return a;
    }

    @Test
    void resultsEqualTheBlockingCalls() throws Exception {
        Zarr z = zarr(2, 3, 3);
        Gated store = new Gated(z.openStore("memory:"), null);
        ZarrArray a = filled(z, store);
        assertArrayEquals(a.read(new long[] {3, 5}, new long[] {40, 100}).toIntArray(),
                a.readAsync(new long[] {3, 5}, new long[] {40, 100}).get().toIntArray());
        Selection sel = Selection.of(Slice.of(1, 900, 7), IndexList.of(0, 255, 3, 3));
        assertArrayEquals(a.read(sel).toIntArray(), a.readAsync(sel).get().toIntArray());

        int[] patch = {-1, -2, -3, -4, -5, -6};
        a.writeAsync(new long[] {10, 10}, NdArray.copyOf(DataTypes.INT32, patch, 2, 3)).get();
        assertArrayEquals(patch, a.read(new long[] {10, 10}, new long[] {2, 3}).toIntArray());
        Selection distinct = Selection.of(Slice.of(1, 900, 7), IndexList.of(0, 255, 3));
        a.writeAsync(distinct, NdArray.copyOf(DataTypes.INT32, new int[a.read(distinct).toIntArray().length],
                a.read(distinct).shape())).get();
        assertTrue(java.util.Arrays.stream(a.read(distinct).toIntArray()).allMatch(x -> x == 0));

        ZarrArray opened = z.openArrayAsync(store, "/a").get();
        assertArrayEquals(a.read().toIntArray(), opened.readAsync(new long[2], new long[] {ROWS, COLS}).get()
                .toIntArray());
        ZarrNode node = z.openAsync(store, "/a").get();
        assertInstanceOf(ZarrArray.class, node);
        ZarrArray created = z.array(DataTypes.UINT8, 4).chunks(2).createAsync(store, "/b").get();
        assertArrayEquals(new long[] {4}, z.openArray(store, "/b").shape());
        assertEquals("/b", created.path());
    }

    @Test
    void aRemoteReadOfAThousandChunksHoldsNoThreadPerChunk() throws Exception {
        Zarr z = zarr(2, 3, 64);
        Gated store = new Gated(z.openStore("memory:"), scheduler);
        ZarrArray a = filled(z, store);
        Thread caller = Thread.currentThread();
        NdArray got = a.readAsync(new long[2], new long[] {ROWS, COLS}).get(2, TimeUnit.MINUTES);
        assertArrayEquals(values(), got.toIntArray());
        assertEquals(ROWS, store.asyncChunkGets.get(), "every chunk through getAsync");
        assertEquals(0, store.blockingChunkGets.get());
        assertTrue(store.peakInFlight.get() > 3, "more requests outstanding than threads: " + store.peakInFlight);
        assertTrue(pool.getLargestPoolSize() <= 2, "no thread beyond the pool: " + pool.getLargestPoolSize());
        assertFalse(store.callers.contains(caller), "the caller's thread did no store request");
        for (Thread t : store.callers) {
            assertTrue(poolThreads.contains(t) || t.getName().startsWith("pool-"),
                    "requests only from zarrj's pool and the store's completions: " + t.getName());
        }
    }

    @Test
    void aPoolFullOfCoordinatingTasksDoesNotStarve() throws Exception {
        Zarr z = zarr(1, 2, 16);
        Gated store = new Gated(z.openStore("memory:"), scheduler);
        ZarrArray a = filled(z, store);
        List<CompletableFuture<NdArray>> reads = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            reads.add(a.readAsync(new long[] {i * 50, 0}, new long[] {100, COLS}));
        }
        int[] all = values();
        for (int i = 0; i < reads.size(); i++) {
            int[] expected = java.util.Arrays.copyOfRange(all, i * 50 * COLS, (i * 50 + 100) * COLS);
            // A deadlock guard, not a speed check: a starved pool would never complete these.
            assertArrayEquals(expected, reads.get(i).get(2, TimeUnit.MINUTES).toIntArray());
        }
    }

    /**
     * ioConcurrency 2: each chunk task reads its own chunk; 64: chunks fetched ahead
     * ({@link Prefetch}); both for a region and for a selection (the selection engine's chunks).
     */
    @ParameterizedTest
    @ValueSource(strings = {"2 region", "64 region", "2 selection", "64 selection"})
    void cancellingStopsFetchingAndReleasesBuffers(String how) throws Exception {
        int ioConcurrency = Integer.parseInt(how.split(" ")[0]);
        Zarr z = zarr(2, 3, ioConcurrency);
        Gated store = new Gated(z.openStore("memory:"), ioConcurrency > 3 ? scheduler : null);
        ZarrArray a = filled(z, store);
        long leasedBefore = BufferLease.outstanding();
        store.gateAt = 20;
        CompletableFuture<NdArray> f = how.endsWith("region") ? a.readAsync(new long[2], new long[] {ROWS, COLS})
                : a.readAsync(Selection.of(Slice.all(), IndexList.of(3, 1, 200)));
        assertTrue(store.reached.await(1, TimeUnit.MINUTES));
        assertTrue(f.cancel(true));
        store.proceed.countDown();
        assertTrue(f.isCancelled());
        pool.shutdown();
        assertTrue(pool.awaitTermination(1, TimeUnit.MINUTES), "the read stopped");
        scheduler.shutdown();
        assertTrue(scheduler.awaitTermination(1, TimeUnit.MINUTES));
        int requested = store.asyncChunkGets.get() + store.blockingChunkGets.get();
        assertTrue(requested < 200, "far fewer than 1000 chunks requested: " + requested);
        assertEquals(leasedBefore, BufferLease.outstanding(), "every leased buffer given back");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aCancelledWriteLeavesEachChunkOldOrNew(boolean selection) throws Exception {
        Zarr z = zarr(2, 3, 3);
        Gated store = new Gated(z.openStore("memory:"), null);
        ZarrArray a = filled(z, store);
        store.gateAt = 20;
        int[] ones = new int[ROWS * COLS];
        java.util.Arrays.fill(ones, -1);
        NdArray minus = NdArray.copyOf(DataTypes.INT32, ones, ROWS, COLS);
        CompletableFuture<Void> f = selection ? a.writeAsync(Selection.of(Slice.all(), Slice.all()), minus)
                : a.writeAsync(new long[2], minus);
        assertTrue(store.reached.await(1, TimeUnit.MINUTES));
        assertTrue(f.cancel(true));
        store.proceed.countDown();
        pool.shutdown();
        assertTrue(pool.awaitTermination(1, TimeUnit.MINUTES));
        int written = store.chunkSets.get();
        assertTrue(written < 200, "far fewer than 1000 chunks written: " + written);
        int[] expected = values();
        int[] got = Zarr.defaults().openArray(store, "/a").read().toIntArray();
        int newRows = 0;
        for (int r = 0; r < ROWS; r++) {
            boolean allNew = true;
            boolean allOld = true;
            for (int c = 0; c < COLS; c++) {
                int v = got[r * COLS + c];
                allNew &= v == -1;
                allOld &= v == expected[r * COLS + c];
            }
            assertTrue(allNew || allOld, "chunk " + r + " is whole");
            newRows += allNew ? 1 : 0;
        }
        assertTrue(newRows >= 1 && newRows < 200, "some chunks written: " + newRows);
    }

    @Test
    void failuresAreTheBlockingCallsExceptionsUnwrapped() throws Exception {
        Zarr z = zarr(2, 3, 3);
        Gated store = new Gated(z.openStore("memory:"), null);
        ZarrArray a = filled(z, store);
        store.set(StoreKey.of("a/c/5/0"), ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));
        Throwable sync = null;
        try {
            a.read(new long[] {0, 0}, new long[] {10, COLS});
        } catch (RuntimeException e) {
            sync = e;
        }
        assertInstanceOf(ChunkDecodeException.class, sync);
        Throwable async = a.readAsync(new long[] {0, 0}, new long[] {10, COLS}).handle((v, e) -> e).get();
        assertNotNull(async);
        assertEquals(sync.getClass(), async.getClass());
        assertEquals(sync.getMessage(), async.getMessage());

        Throwable outside = a.readAsync(new long[] {ROWS, 0}, new long[] {1, 1}).handle((v, e) -> e).get();
        assertInstanceOf(IllegalArgumentException.class, outside);
        Throwable missing = z.openArrayAsync(store, "/nothing").handle((v, e) -> e).get();
        assertInstanceOf(NodeNotFoundException.class, missing);
    }

    /**
     * A memory store counting the requests for chunks (keys with {@code /c/}) and the threads
     * asking; with a scheduler, {@code getAsync} completes later from it, no thread waiting per
     * request. Chunk requests (reads or writes) from the {@code gateAt}-th on wait until {@code proceed}.
     */
    private static final class Gated implements Store {
        private final Store memory;
        private final ScheduledExecutorService scheduler;
        final AtomicInteger asyncChunkGets = new AtomicInteger();
        final AtomicInteger blockingChunkGets = new AtomicInteger();
        final AtomicInteger chunkSets = new AtomicInteger();
        final AtomicInteger chunkRequests = new AtomicInteger();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger peakInFlight = new AtomicInteger();
        final Set<Thread> callers = ConcurrentHashMap.newKeySet();
        volatile int gateAt = -1;
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch proceed = new CountDownLatch(1);

        Gated(Store memory, ScheduledExecutorService scheduler) {
            this.memory = memory;
            this.scheduler = scheduler;
        }

        void reset() {
            asyncChunkGets.set(0);
            blockingChunkGets.set(0);
            chunkSets.set(0);
            chunkRequests.set(0);
            callers.clear();
        }

        private boolean chunk(StoreKey key) {
            if (!key.value().contains("/c/")) {
                return false;
            }
            callers.add(Thread.currentThread());
            int n = chunkRequests.incrementAndGet();
            if (gateAt > 0 && n >= gateAt) {
                reached.countDown();
                try {
                    proceed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return true;
        }

        @Override public StoreCapabilities capabilities() { return memory.capabilities(); }
        @Override public String describe() { return "gated(" + memory.describe() + ")"; }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            if (chunk(key)) {
                blockingChunkGets.incrementAndGet();
            }
            return memory.get(key);
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
            if (chunk(key)) {
                blockingChunkGets.incrementAndGet();
            }
            return memory.get(key, allocate);
        }

        @Override
        public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key) {
            if (!chunk(key)) {
                return CompletableFuture.completedFuture(memory.get(key));
            }
            if (scheduler == null) {
                blockingChunkGets.incrementAndGet();
                return CompletableFuture.completedFuture(memory.get(key));
            }
            asyncChunkGets.incrementAndGet();
            peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            CompletableFuture<Optional<ByteBuffer>> f = new CompletableFuture<>();
            scheduler.schedule(() -> {
                inFlight.decrementAndGet();
                f.complete(memory.get(key));
            }, 1, TimeUnit.MILLISECONDS);
            return f;
        }

        @Override
        public void set(StoreKey key, ByteBuffer value) {
            if (chunk(key)) {
                chunkSets.incrementAndGet();
            }
            memory.set(key, value);
        }

        @Override public void erase(StoreKey key) { memory.erase(key); }
        @Override public List<StoreKey> listPrefix(String prefix) { return memory.listPrefix(prefix); }
        @Override public ListDirResult listDir(String prefix) { return memory.listDir(prefix); }
    }
}
