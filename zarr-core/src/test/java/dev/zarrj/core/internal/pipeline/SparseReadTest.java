package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.Region;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Reads of regions whose chunks are mostly absent list the array's prefix once and ask for no
 * absent chunk beyond the sample, and read exactly what a read without a listing reads.
 */
class SparseReadTest {
    private static final ExtensionRegistry REGISTRY = registryWithReversedKeys();
    private static final Zarr ZARR = Zarr.builder().registry(REGISTRY).threads(3).maxChunksInFlight(4).build();

    @AfterAll
    static void close() {
        ZARR.close();
    }

    @Test
    void aSparseFullReadListsOnceAndAsksForNoAbsentChunk() {
        Counting store = new Counting(ZARR.openStore("memory:"), true);
        ZarrArray a = ZARR.array(DataTypes.INT32, 128, 128).chunks(2, 2).fillValue(-1).create(store, "/a");
        a.write(new long[] {10, 20}, new long[] {1, 1}, new int[] {5});
        a.write(new long[] {127, 0}, new long[] {1, 1}, new int[] {6});
        a.write(new long[] {64, 127}, new long[] {1, 1}, new int[] {7});
        store.reset();

        int[] got = ZARR.openArray(store, "/a").read().toIntArray();

        assertEquals(1, store.listings.get(), "listings");
        // 4,096 chunks, 3 present: the sample and the present chunks, nothing for the other absent ones.
        assertTrue(store.chunkGets.get() <= SparseRead.SAMPLE + 3, "chunk requests: " + store.chunkGets.get());
        for (String present : List.of("a/c/5/10", "a/c/63/0", "a/c/32/63")) {
            assertTrue(store.asked.contains(present), present + " was read");
        }
        int[] expected = new int[128 * 128];
        Arrays.fill(expected, -1);
        expected[10 * 128 + 20] = 5;
        expected[127 * 128] = 6;
        expected[64 * 128 + 127] = 7;
        assertArrayEquals(expected, got);
    }

    @Test
    void aDenseReadAsksForEachChunkOnceAndDoesNotList() {
        Counting store = new Counting(ZARR.openStore("memory:"), true);
        ZarrArray a = ZARR.array(DataTypes.INT32, 64, 64).chunks(2, 2).create(store, "/a");
        int[] values = new int[64 * 64];
        Arrays.setAll(values, i -> i + 1);
        a.write(new long[] {0, 0}, new long[] {64, 64}, values);
        store.reset();

        assertArrayEquals(values, a.read().toIntArray());

        assertEquals(0, store.listings.get(), "listings");
        assertEquals(32 * 32, store.chunkGets.get(), "chunk requests");
    }

    @Test
    void aSmallSparseReadDoesNotList() {
        Counting store = new Counting(ZARR.openStore("memory:"), true);
        ZarrArray a = ZARR.array(DataTypes.INT32, 64, 64).chunks(4, 4).create(store, "/a");
        a.write(new long[] {1, 1}, new long[] {1, 1}, new int[] {3});
        store.reset();

        a.read(); // 256 chunks
        assertEquals(0, store.listings.get(), "listings");
        assertEquals(256, store.chunkGets.get(), "chunk requests");
    }

    @Test
    void aValueBelowAChunkKeyMakesThatChunkRead() {
        // On a file system a directory where a chunk should be; the store decides what that is.
        Counting store = new Counting(ZARR.openStore("memory:"), true);
        ZarrArray a = ZARR.array(DataTypes.INT32, 128, 128).chunks(2, 2).create(store, "/a");
        store.set(StoreKey.of("a/c/30/31/stray"), ByteBuffer.wrap(new byte[] {1}));
        store.reset();

        a.read();
        assertEquals(1, store.listings.get(), "listings");
        assertTrue(store.asked.contains("a/c/30/31"), "the chunk under which a key is listed was read");
    }

    /** Arrays of random sparsity, shape, chunking, key encoding and fill value; random regions. */
    @Test
    void readsEqualReadsWithoutAListingElementByElement() {
        Random rnd = new Random(2211);
        String[][] encodings = {{"default", "/"}, {"default", "."}, {"v2", "/"}, {"v2", "."}, {"reversed", "/"}};
        int listed = 0;
        int reads = 0;
        for (int round = 0; round < 60; round++) {
            String[] enc = encodings[round % encodings.length];
            Store memory = ZARR.openStore("memory:");
            Counting store = new Counting(memory, true);
            Store unlisted = new Counting(memory, false);
            long[] shape = {40 + rnd.nextInt(60), 40 + rnd.nextInt(60)};
            long[] chunks = {1 + rnd.nextInt(2), 1 + rnd.nextInt(3)};
            int fill = rnd.nextBoolean() ? 0 : rnd.nextInt(100) - 50;
            String path = rnd.nextBoolean() ? "/" : "/g/arr" + round;
            ZarrArray a = ZARR.array(DataTypes.INT32, shape).chunks(chunks).keyEncoding(enc[0], enc[1])
                    .fillValue(fill).create(store, path);
            double density = new double[] {0, 0.001, 0.01, 0.05, 0.2, 0.6}[rnd.nextInt(6)];
            long[] grid = a.chunkGridShape();
            for (long y = 0; y < grid[0]; y++) {
                for (long x = 0; x < grid[1]; x++) {
                    if (rnd.nextDouble() < density) {
                        long[] off = {y * chunks[0], x * chunks[1]};
                        long[] ext = {Math.min(chunks[0], shape[0] - off[0]), Math.min(chunks[1], shape[1] - off[1])};
                        int[] v = new int[(int) (ext[0] * ext[1])];
                        Arrays.setAll(v, i -> 1000 + rnd.nextInt(1000));
                        a.write(off, ext, v);
                    }
                }
            }
            ZarrArray viaUnlisted = ZARR.openArray(unlisted, path);
            for (int r = 0; r < 4; r++) {
                long[] off = new long[2];
                long[] ext = new long[2];
                for (int d = 0; d < 2; d++) {
                    if (r == 0) {
                        ext[d] = shape[d];
                    } else {
                        off[d] = rnd.nextInt((int) shape[d] / 3);
                        ext[d] = 1 + rnd.nextInt((int) (shape[d] - off[d]));
                    }
                }
                store.reset();
                int[] expected = viaUnlisted.read(off, ext).toIntArray();
                int[] got = a.read(off, ext).toIntArray();
                assertArrayEquals(expected, got, () -> "round " + Arrays.toString(enc) + " " + a.chunkKey(0, 0)
                        + " region " + Arrays.toString(off) + " " + Arrays.toString(ext));
                // readInto a destination that holds neither zeros nor the fill value
                NdArray dst = NdArray.allocate(DataTypes.INT32, ext);
                int[] junk = new int[(int) (ext[0] * ext[1])];
                Arrays.fill(junk, 77777);
                RegionCopy.copy(NdArray.copyOf(DataTypes.INT32, junk, ext), Region.of(new long[2], ext), dst, new long[2]);
                a.readInto(off, dst);
                assertArrayEquals(expected, dst.toIntArray());
                listed += store.listings.get() + store.folderListings.get() > 0 ? 1 : 0;
                reads++;
            }
        }
        assertTrue(listed >= reads / 5, "listings used in " + listed + " of " + reads + " reads");
    }

    private static ExtensionRegistry registryWithReversedKeys() {
        ExtensionRegistry.Builder b = ExtensionRegistry.builder();
        for (ExtensionPoint p : ExtensionPoint.values()) {
            b.loadAll(p, ServiceLoader.load(p.providerType(), ExtensionRegistry.class.getClassLoader()));
        }
        return b.add(new ReversedKeysProvider()).build();
    }

    /**
     * A third-party key encoding ({@code r/<last>/.../<first>}) whose {@code decode} recognises
     * nothing: a read must not trust decode of an encoding it does not know.
     */
    public static final class ReversedKeysProvider implements ChunkKeyEncodingProvider {
        @Override
        public String name() {
            return "reversed";
        }

        @Override
        public ChunkKeyEncoding create(ExtensionConfig config, ProviderContext context) {
            return new ChunkKeyEncoding() {
                @Override
                public String name() {
                    return "reversed";
                }

                @Override
                public ObjectNode configuration() {
                    return JsonNodeFactory.instance.objectNode().put("separator", "/");
                }

                @Override
                public String encode(long[] coords) {
                    StringBuilder s = new StringBuilder("r");
                    for (int d = coords.length - 1; d >= 0; d--) {
                        s.append('/').append(coords[d]);
                    }
                    return s.toString();
                }

                @Override
                public Optional<long[]> decode(String key, int rank) {
                    return Optional.empty();
                }
            };
        }
    }

    /** Counts listings (of the whole store or the array "a") and chunk reads (every key but metadata), and can declare itself unlistable. */
    private static final class Counting implements Store {
        private final Store inner;
        private final boolean listable;
        final AtomicInteger listings = new AtomicInteger();
        final AtomicInteger folderListings = new AtomicInteger();
        final AtomicInteger chunkGets = new AtomicInteger();
        final Set<String> asked = ConcurrentHashMap.newKeySet();

        Counting(Store inner, boolean listable) {
            this.inner = inner;
            this.listable = listable;
        }

        void reset() {
            listings.set(0);
            folderListings.set(0);
            chunkGets.set(0);
            asked.clear();
        }

        private void count(StoreKey key) {
            if (!key.value().endsWith("zarr.json")) {
                chunkGets.incrementAndGet();
                asked.add(key.value());
            }
        }

        @Override
        public StoreCapabilities capabilities() {
            StoreCapabilities c = inner.capabilities();
            return new StoreCapabilities(c.readable(), c.writable(), c.partialWrites(), listable);
        }

        @Override
        public String describe() {
            return "counting(" + inner.describe() + ")";
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            count(key);
            return inner.get(key);
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
            count(key);
            return inner.get(key, allocate);
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
            count(key);
            return inner.get(key, range);
        }

        @Override
        public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
            ranges.forEach(r -> count(r.key()));
            return inner.getPartialValues(ranges);
        }

        @Override
        public OptionalLong size(StoreKey key) {
            count(key);
            return inner.size(key);
        }

        @Override
        public boolean exists(StoreKey key) {
            count(key);
            return inner.exists(key);
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
            return new ArrayList<>(inner.listPrefix(prefix));
        }

        /** A walk of the array's folders counts as one listing: the one of the array's own prefix. */
        @Override
        public ListDirResult listDir(String prefix) {
            if (!listable) {
                throw new UnsupportedOperationException("not listable");
            }
            if (prefix.equals("a/")) {
                listings.incrementAndGet();
            }
            folderListings.incrementAndGet();
            return inner.listDir(prefix);
        }
    }

    @Test
    void skippingCountsTheNumbersNotSampled() {
        long[] sample = {0, 2, 5, 6};
        long[] expected = {1, 3, 4, 7, 8, 9};
        for (int j = 0; j < expected.length; j++) {
            assertEquals(expected[j], SparseRead.skipping(sample, j), "number " + j);
        }
    }
}
