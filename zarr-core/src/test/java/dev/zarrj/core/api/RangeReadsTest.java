package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.KeyRange;
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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Ranged reads of one stored value by a partial decoder: ranges closer than
 * {@code Zarr.builder().coalesceGap(n)} are read in one request, and with {@code ioConcurrency}
 * above the threads the remaining requests are all in flight at once.
 *
 * <p>One uncompressed chunk of 64 × 256 int32 (rows of 1024 bytes); reading two columns of every
 * row is 64 runs of 8 bytes, 1016 bytes apart, which the {@code bytes} codec's partial decoder asks
 * for with one {@link dev.zarrj.api.ByteSource#readAll}.
 */
class RangeReadsTest {
    private static final int ROWS = 64;
    private static final int COLS = 256;
    private static final String BYTES = "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]";

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    private static int[] values() {
        int[] v = new int[ROWS * COLS];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 13 + 5;
        }
        return v;
    }

    private static int[] twoColumns() {
        int[] all = values();
        int[] out = new int[ROWS * 2];
        for (int r = 0; r < ROWS; r++) {
            out[2 * r] = all[r * COLS + 10];
            out[2 * r + 1] = all[r * COLS + 11];
        }
        return out;
    }

    /** The two columns read through a counting store: the ranged requests they cost. */
    private int columnRequests(Zarr zarr, RangeStore store) {
        ZarrArray a = zarr.array(DataTypes.INT32, ROWS, COLS).chunks(ROWS, COLS).codecs(BYTES).fillValue(0)
                .create(store, "/a");
        a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, values(), ROWS, COLS));
        store.rangedRequests.set(0);
        store.rangedBytes.set(0);
        assertArrayEquals(twoColumns(), a.read(new long[] {0, 10}, new long[] {ROWS, 2}).toIntArray());
        return store.rangedRequests.get();
    }

    @Test
    void rangesCloserThanTheGapAreReadInOneRequest() {
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            RangeStore store = new RangeStore(zarr.openStore("memory:"), null);
            assertEquals(1, columnRequests(zarr, store), "64 runs 1016 bytes apart, within the default 64 KiB gap");
            assertEquals(63L * COLS * 4 + 8, store.rangedBytes.get(), "from the first run to the end of the last");
        }
    }

    @Test
    void rangesFartherApartThanTheGapAreReadSeparately() {
        try (Zarr zarr = Zarr.builder().threads(2).coalesceGap(1000).build()) {
            RangeStore store = new RangeStore(zarr.openStore("memory:"), null);
            assertEquals(ROWS, columnRequests(zarr, store), "runs 1016 bytes apart, over a gap of 1000");
            assertEquals(ROWS * 8L, store.rangedBytes.get(), "only the runs' bytes");
        }
    }

    @Test
    void aGapOfZeroMergesOnlyTouchingRanges() {
        try (Zarr zarr = Zarr.builder().threads(2).coalesceGap(0).build()) {
            RangeStore store = new RangeStore(zarr.openStore("memory:"), null);
            assertEquals(ROWS, columnRequests(zarr, store));
        }
    }

    /** 64 ranges that cannot be merged, read with ioConcurrency 16 and 2 threads: 16 in flight at once. */
    @Test
    void rangesThatCannotBeMergedAreInFlightTogether() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(16).coalesceGap(0).build()) {
            RangeStore store = new RangeStore(zarr.openStore("memory:"), scheduler);
            assertEquals(ROWS, columnRequests(zarr, store));
            assertEquals(16, store.peak.get(), "peak of ranged requests in flight");
        }
    }

    /**
     * A memory store counting ranged requests of chunks and the bytes they return; with a
     * scheduler, its asynchronous ranged gets complete after a delay on it, counting the requests
     * in flight, and its blocking ranged get waits for one of them, so that requests made one by
     * one never overlap.
     */
    static final class RangeStore implements Store {
        private final Store memory;
        private final ScheduledExecutorService scheduler;
        final AtomicInteger rangedRequests = new AtomicInteger();
        final AtomicLong rangedBytes = new AtomicLong();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();

        RangeStore(Store memory, ScheduledExecutorService scheduler) {
            this.memory = memory;
            this.scheduler = scheduler;
        }

        @Override public StoreCapabilities capabilities() { return memory.capabilities(); }
        @Override public String describe() { return "ranges(" + memory.describe() + ")"; }
        @Override public Optional<ByteBuffer> get(StoreKey key) { return memory.get(key); }
        @Override public void set(StoreKey key, ByteBuffer value) { memory.set(key, value); }
        @Override public void erase(StoreKey key) { memory.erase(key); }
        @Override public List<StoreKey> listPrefix(String prefix) { return memory.listPrefix(prefix); }
        @Override public ListDirResult listDir(String prefix) { return memory.listDir(prefix); }

        private Optional<ByteBuffer> counted(Optional<ByteBuffer> value) {
            rangedRequests.incrementAndGet();
            value.ifPresent(b -> rangedBytes.addAndGet(b.remaining()));
            return value;
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
            return scheduler == null ? counted(memory.get(key, range)) : getAsync(key, range).join();
        }

        @Override
        public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
            return ranges.stream().map(r -> get(r.key(), r.range())).toList();
        }

        @Override
        public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key, ByteRange range) {
            if (scheduler == null) {
                return CompletableFuture.completedFuture(get(key, range));
            }
            peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            CompletableFuture<Optional<ByteBuffer>> f = new CompletableFuture<>();
            scheduler.schedule(() -> {
                inFlight.decrementAndGet();
                try {
                    f.complete(counted(memory.get(key, range)));
                } catch (RuntimeException e) {
                    f.completeExceptionally(e);
                }
            }, 5, TimeUnit.MILLISECONDS);
            return f;
        }
    }
}
