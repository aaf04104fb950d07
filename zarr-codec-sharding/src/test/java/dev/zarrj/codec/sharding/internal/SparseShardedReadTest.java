package dev.zarrj.codec.sharding.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sharded arrays of random sparsity in a directory store: a read of a region whose shards are
 * mostly absent lists the array's prefix, and reads exactly what a read without a listing reads,
 * element by element (whole and partial shards, edge shards, both key encodings).
 */
class SparseShardedReadTest {
    private static final Zarr ZARR = Zarr.builder().threads(3).maxChunksInFlight(4).build();
    private static final String LE = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
    private static final String CRC = "{\"name\":\"crc32c\"}";

    @AfterAll
    static void close() {
        ZARR.close();
    }

    @Test
    void readsEqualReadsWithoutAListing(@TempDir Path dir) {
        Random rnd = new Random(722);
        String[][] encodings = {{"default", "/"}, {"default", "."}, {"v2", "/"}, {"v2", "."}};
        int listed = 0;
        int reads = 0;
        for (int round = 0; round < 8; round++) {
            String[] enc = encodings[round % encodings.length];
            Store files = ZARR.openStore(dir.resolve("s" + round).toString());
            Listings store = new Listings(files, true);
            Listings unlisted = new Listings(files, false);
            long[] shape = {130 + rnd.nextInt(20), 130 + rnd.nextInt(20)};
            String codec = "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[2,2],\"codecs\":[" + LE
                    + "],\"index_codecs\":[" + LE + "," + CRC + "],\"index_location\":\""
                    + (rnd.nextBoolean() ? "start" : "end") + "\"}}";
            int fill = rnd.nextBoolean() ? 0 : -3;
            ZarrArray a = ZARR.array(DataTypes.INT32, shape).chunks(4, 4).codecs("[" + codec + "]")
                    .keyEncoding(enc[0], enc[1]).fillValue(fill).create(store, "/a");
            double density = new double[] {0, 0.003, 0.03, 0.3}[round % 4];
            for (long y = 0; y < shape[0]; y += 2) {
                for (long x = 0; x < shape[1]; x += 2) {
                    if (rnd.nextDouble() < density) {
                        long[] ext = {Math.min(2, shape[0] - y), Math.min(2, shape[1] - x)};
                        int[] v = new int[(int) (ext[0] * ext[1])];
                        Arrays.setAll(v, i -> 100 + rnd.nextInt(100));
                        a.write(new long[] {y, x}, ext, v);
                    }
                }
            }
            ZarrArray viaUnlisted = ZARR.openArray(unlisted, "/a");
            for (int r = 0; r < 3; r++) {
                long[] off = r == 0 ? new long[2] : new long[] {rnd.nextInt(5), rnd.nextInt(5)};
                long[] ext = {shape[0] - off[0] - (r == 2 ? rnd.nextInt(5) : 0), shape[1] - off[1]};
                store.listings.set(0);
                int[] expected = viaUnlisted.read(off, ext).toIntArray();
                int[] got = a.read(off, ext).toIntArray();
                assertArrayEquals(expected, got, () -> Arrays.toString(enc) + " region " + Arrays.toString(off) + " "
                        + Arrays.toString(ext));
                listed += store.listings.get() > 0 ? 1 : 0;
                reads++;
            }
        }
        assertTrue(listed >= reads / 3, "listings used in " + listed + " of " + reads + " reads");
    }

    /** Counts listings; can declare itself unlistable. */
    private static final class Listings implements Store {
        private final Store inner;
        private final boolean listable;
        final AtomicInteger listings = new AtomicInteger();

        Listings(Store inner, boolean listable) {
            this.inner = inner;
            this.listable = listable;
        }

        @Override
        public StoreCapabilities capabilities() {
            StoreCapabilities c = inner.capabilities();
            return new StoreCapabilities(c.readable(), c.writable(), c.partialWrites(), listable);
        }

        @Override
        public String describe() {
            return inner.describe();
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            return inner.get(key);
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
            return inner.get(key, allocate);
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
            return inner.get(key, range);
        }

        @Override
        public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
            return inner.getPartialValues(ranges);
        }

        @Override
        public void set(StoreKey key, ByteBuffer value) {
            inner.set(key, value);
        }

        @Override
        public void erase(StoreKey key) {
            inner.erase(key);
        }

        @Override
        public List<StoreKey> listPrefix(String prefix) {
            if (!listable) {
                throw new UnsupportedOperationException("not listable");
            }
            listings.incrementAndGet();
            return inner.listPrefix(prefix);
        }
    }
}
