package dev.zarrj.codec.sharding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@code readChunk} of a shard: the whole stored shard is only an intermediate (its inner chunks
 * are decoded into a new array), so it is read into memory the read lends and reuses, as a
 * compressed chunk's bytes are, rather than into a new buffer per read (28 MB of fresh heap per
 * shard of the benchmark, zeroed and paged in each time).
 */
class ReadChunkOfAShardTest {
    private static final Zarr ZARR = Zarr.builder().threads(2).build();
    private static final String LE = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
    /** Inner chunks of plain bytes: the chain has no bytes→bytes codec at all. */
    private static final String SHARDED = "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[32,32],"
            + "\"codecs\":[" + LE + "],\"index_codecs\":[" + LE + ",{\"name\":\"crc32c\"}]}}]";

    @AfterAll
    static void close() {
        ZARR.close();
    }

    private static int[] random(int n, long seed) {
        Random r = new Random(seed);
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextInt();
        }
        return v;
    }

    @Test
    void aShardIsReadIntoLentMemoryAndItsChunkKeepsItsValuesWhileLaterReadsReuseIt() {
        LendingStore store = new LendingStore(ZARR.openStore("memory:"));
        // Shards of [128, 128] int32 (64 KiB and more: pooled direct memory), two of them.
        ZarrArray a = ZARR.array(DataTypes.INT32, 128, 256).chunks(128, 128).codecs(SHARDED).create(store, "/a");
        int[] values = random(128 * 256, 1);
        a.write(new long[2], new long[] {128, 256}, values);

        int before = store.lentReads;
        NdArray first = a.readChunk(0, 0);
        assertEquals(before + 1, store.lentReads, "the shard's stored bytes go into lent memory");
        NdArray second = a.readChunk(0, 1);
        NdArray again = a.readChunk(0, 0);
        int[] left = first.toIntArray();
        int[] right = second.toIntArray();
        for (int y = 0; y < 128; y++) {
            for (int x = 0; x < 128; x++) {
                assertEquals(values[y * 256 + x], left[y * 128 + x], "shard (0, 0) at [" + y + "][" + x + "]");
                assertEquals(values[y * 256 + 128 + x], right[y * 128 + x], "shard (0, 1) at [" + y + "][" + x + "]");
            }
        }
        assertArrayEquals(left, again.toIntArray());
    }

    /** A store that reads every value into the memory its caller lends, as the file store does, and counts those reads. */
    private static final class LendingStore implements Store {
        private final Store values;
        int lentReads;

        LendingStore(Store values) {
            this.values = values;
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
            lentReads++;
            return values.get(key).map(v -> {
                ByteBuffer b = allocate.apply(v.remaining());
                b.duplicate().put(v.duplicate());
                return b.limit(b.position() + v.remaining());
            });
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            return values.get(key);
        }

        @Override
        public void set(StoreKey key, ByteBuffer value) {
            values.set(key, value);
        }

        @Override
        public StoreCapabilities capabilities() {
            return values.capabilities();
        }

        @Override
        public String describe() {
            return "lending " + values.describe();
        }

        @Override
        public List<StoreKey> listPrefix(String prefix) {
            return values.listPrefix(prefix);
        }
    }
}
