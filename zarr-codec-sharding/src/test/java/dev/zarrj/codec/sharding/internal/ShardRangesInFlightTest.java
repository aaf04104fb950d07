package dev.zarrj.codec.sharding.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.NdArray;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A read of k inner chunks of one shard too far apart to be merged costs about one request's
 * latency, not k: with {@code ioConcurrency} above the threads, their ranges are in flight at once.
 *
 * <p>One shard of 4 × 540000 int32, inner chunks of 1 × 270000 (1.08 MB each, uncompressed, so
 * more than the 1 MiB the shard reader merges across); reading the first column of inner chunks
 * touches inner chunks 0, 2, 4 and 6, each a whole inner chunk apart from the next.
 */
class ShardRangesInFlightTest {
    private static final int ROWS = 4;
    private static final int COLS = 540_000;
    private static final int INNER = 270_000;
    private static final String CODECS = "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[1,"
            + INNER + "],\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}],"
            + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}]}}]";

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    @Test
    void fourInnerChunksFarApartAreRequestedAtOnce() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(16).build()) {
            DelayedRanges store = new DelayedRanges(zarr.openStore("memory:"), scheduler);
            ZarrArray a = zarr.array(DataTypes.INT32, ROWS, COLS).chunks(ROWS, COLS).codecs(CODECS).fillValue(0)
                    .create(store, "/a");
            int[] v = new int[ROWS * COLS];
            for (int i = 0; i < v.length; i++) {
                v[i] = i * 3 + 1;
            }
            a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, v, ROWS, COLS));
            store.requests.set(0);
            int[] got = a.read(new long[] {0, 0}, new long[] {ROWS, INNER}).toIntArray();
            int[] expected = new int[ROWS * INNER];
            for (int r = 0; r < ROWS; r++) {
                System.arraycopy(v, r * COLS, expected, r * INNER, INNER);
            }
            assertArrayEquals(expected, got);
            assertEquals(5, store.requests.get(), "the index, then one request per inner chunk");
            assertEquals(4, store.peak.get(), "the 4 inner chunks' requests in flight together");
        }
    }

    /**
     * A memory store whose ranged gets complete after a delay on a scheduler, counting requests
     * in flight; its blocking ranged get waits for one, so requests made one by one never overlap.
     */
    private static final class DelayedRanges implements Store {
        private final Store memory;
        private final ScheduledExecutorService scheduler;
        final AtomicInteger requests = new AtomicInteger();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();

        DelayedRanges(Store memory, ScheduledExecutorService scheduler) {
            this.memory = memory;
            this.scheduler = scheduler;
        }

        @Override public StoreCapabilities capabilities() { return memory.capabilities(); }
        @Override public String describe() { return "delayed(" + memory.describe() + ")"; }
        @Override public Optional<ByteBuffer> get(StoreKey key) { return memory.get(key); }
        @Override public void set(StoreKey key, ByteBuffer value) { memory.set(key, value); }
        @Override public void erase(StoreKey key) { memory.erase(key); }
        @Override public List<StoreKey> listPrefix(String prefix) { return memory.listPrefix(prefix); }
        @Override public ListDirResult listDir(String prefix) { return memory.listDir(prefix); }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
            return getAsync(key, range).join();
        }

        @Override
        public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key, ByteRange range) {
            requests.incrementAndGet();
            peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            CompletableFuture<Optional<ByteBuffer>> f = new CompletableFuture<>();
            scheduler.schedule(() -> {
                inFlight.decrementAndGet();
                try {
                    f.complete(memory.get(key, range));
                } catch (RuntimeException e) {
                    f.completeExceptionally(e);
                }
            }, 5, TimeUnit.MILLISECONDS);
            return f;
        }
    }
}
