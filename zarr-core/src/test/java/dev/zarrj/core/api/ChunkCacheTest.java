package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.selection.Selection;
import dev.zarrj.core.selection.Slice;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code Zarr.builder().chunkCache(bytes)}: reuse of decoded chunks, invalidation, the budget, off by default. */
class ChunkCacheTest {
    private Zarr zarr;

    @AfterEach
    void close() {
        if (zarr != null) {
            zarr.close();
        }
    }

    private Zarr cached(long bytes, int ioConcurrency) {
        Zarr.Builder b = Zarr.builder().threads(2).chunkCache(bytes);
        if (ioConcurrency > 0) {
            b.ioConcurrency(ioConcurrency);
        }
        zarr = b.build();
        return zarr;
    }

    private static int[] ramp(int n, int from) {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = from + i;
        }
        return v;
    }

    /** A 20 x 20 int32 array of 5 x 5 chunks (100 bytes decoded each), written with a ramp. */
    private static ZarrArray array(Zarr z, Store store, String path, int from) {
        ZarrArray a = z.array(DataTypes.INT32, 20, 20).chunks(5, 5).create(store, path);
        a.write(new long[2], new long[] {20, 20}, ramp(400, from));
        return a;
    }

    private static List<String> chunkGets(CountingStore store) {
        synchronized (store.requests) {
            return store.requests.stream().filter(r -> r.startsWith("get ") && r.contains("/c/"))
                    .collect(Collectors.toList());
        }
    }

    @Test
    void aSecondReadMakesNoStoreRequest() {
        for (int io : new int[] {0, 16}) { // chunk tasks reading their chunks, or chunks fetched ahead
            Zarr z = cached(1 << 20, io);
            CountingStore store = new CountingStore(z.openStore("memory:"), true);
            ZarrArray a = array(z, store, "/a", 0);
            store.reset();
            int[] first = a.read(new long[] {2, 3}, new long[] {14, 15}).toIntArray();
            assertEquals(16, chunkGets(store).size(), "16 chunks fetched the first time");
            store.reset();
            assertArrayEquals(first, a.read(new long[] {2, 3}, new long[] {14, 15}).toIntArray());
            assertArrayEquals(ramp(400, 0), a.read().toIntArray());
            assertEquals(0, chunkGets(store).size(), "no chunk fetched again: " + chunkGets(store));
            NdArray chunk = a.readChunk(1, 1);
            assertEquals(5 * 20 + 5, chunk.getLong(0));
            NdArray sel = a.read(Selection.of(Slice.of(0, 20, 3), Slice.of(1, 20, 4)));
            assertEquals(5, sel.getLong(1));
            assertEquals(3 * 20 + 1, sel.getLong(5));
            assertEquals(List.of(), chunkGets(store), "whole chunks and selections from the cache too");
            assertEquals(1600, z.chunkCacheBytes(), "16 chunks of 100 bytes");
            z.close();
        }
        zarr = null;
    }

    @Test
    void selectionsFillTheCacheAndSelectionWritesInvalidate() {
        for (int io : new int[] {0, 16}) {
            Zarr z = cached(1 << 20, io);
            CountingStore store = new CountingStore(z.openStore("memory:"), true);
            ZarrArray a = array(z, store, "/a", 0);
            store.reset();
            Selection sel = Selection.of(dev.zarrj.core.selection.IndexList.of(19, 0, 7), Slice.of(2, 20, 5));
            int[] first = a.read(sel).toIntArray();
            assertEquals(12, chunkGets(store).size(), "3 x 4 chunks the first time");
            store.reset();
            assertArrayEquals(first, a.read(sel).toIntArray());
            int[] corner = new int[25];
            java.util.Arrays.setAll(corner, i -> i / 5 * 20 + i % 5);
            assertArrayEquals(corner, a.read(new long[] {0, 0}, new long[] {5, 5}).toIntArray());
            assertEquals(List.of(), chunkGets(store), "a selection's chunks are kept for the next reads");
            z.openArray(store, "/a").write(Selection.of(dev.zarrj.core.selection.IndexList.of(7), Slice.of(2, 3)),
                    NdArray.copyOf(DataTypes.INT32, new int[] {-4}, 1, 1));
            assertEquals(-4, a.read(Selection.of(dev.zarrj.core.selection.IndexList.of(7),
                    dev.zarrj.core.selection.IndexList.of(2))).getLong(0), "a selection write invalidates");
            z.close();
        }
        zarr = null;
    }

    @Test
    void offByDefault() {
        zarr = Zarr.builder().threads(2).build();
        CountingStore store = new CountingStore(zarr.openStore("memory:"), true);
        ZarrArray a = array(zarr, store, "/a", 0);
        store.reset();
        a.read();
        a.read();
        assertEquals(32, chunkGets(store).size(), "every read fetches every chunk");
        assertEquals(0, zarr.chunkCacheBytes(), "nothing kept");
    }

    @Test
    void writesThroughAnyHandleInvalidate() {
        Zarr z = cached(1 << 20, 0);
        Store store = z.openStore("memory:");
        ZarrArray a = array(z, store, "/a", 0);
        a.read();
        ZarrArray other = z.openArray(store, "/a");
        other.write(new long[] {6, 6}, new long[] {1, 1}, new int[] {-5});
        assertEquals(-5, a.read(new long[] {6, 6}, new long[] {1, 1}).getLong(0), "a region write");
        assertEquals(-5, a.readChunk(1, 1).getLong(6));
        other.writeChunk(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, ramp(25, 1000), 5, 5));
        assertEquals(1000, a.read(new long[] {0, 0}, new long[] {1, 1}).getLong(0), "a chunk write");
        other.writeAsync(new long[] {19, 19}, NdArray.copyOf(DataTypes.INT32, new int[] {-9}, 1, 1)).join();
        assertEquals(-9, a.read(new long[] {19, 19}, new long[] {1, 1}).getLong(0), "an asynchronous write");

        a.read();
        other.resize(new long[] {5, 5}, true);
        other.resize(new long[] {20, 20}, false);
        assertEquals(0, z.openArray(store, "/a").read(new long[] {10, 10}, new long[] {1, 1}).getLong(0),
                "erased by a resize");
        assertEquals(0, a.readChunk(2, 2).getLong(0), "erased by a resize, through the old handle");

        ZarrArray b = array(z, store, "/b", 0);
        b.read();
        ZarrArray again = z.array(DataTypes.INT32, 20, 20).chunks(5, 5).overwrite(true).create(store, "/b");
        assertEquals(0, again.read(new long[] {3, 3}, new long[] {1, 1}).getLong(0), "overwritten");
        assertEquals(0, b.read(new long[] {3, 3}, new long[] {1, 1}).getLong(0), "overwritten, old handle");
        array(z, store, "/c", 7).read();
        z.erase(store, "/c");
        assertEquals(0, array(z, store, "/c", 0).readChunk(0, 0).getLong(0));
    }

    @Test
    void twoStoresAndTwoArraysNeverCollide() {
        Zarr z = cached(1 << 20, 0);
        Store s1 = z.openStore("memory:");
        Store s2 = z.openStore("memory:");
        ZarrArray a1 = array(z, s1, "/a", 0);
        ZarrArray a2 = array(z, s2, "/a", 5000);
        ZarrArray b1 = array(z, s1, "/b", 9000);
        for (int round = 0; round < 2; round++) {
            assertArrayEquals(ramp(400, 0), a1.read().toIntArray());
            assertArrayEquals(ramp(400, 5000), a2.read().toIntArray());
            assertArrayEquals(ramp(400, 9000), b1.read().toIntArray());
        }
    }

    @Test
    void callersCannotChangeACachedChunk() {
        Zarr z = cached(1 << 20, 0);
        ZarrArray a = array(z, z.openStore("memory:"), "/a", 0);
        NdArray c = a.readChunk(0, 0);
        c.setLong(0, -1);
        NdArray again = a.readChunk(0, 0);
        assertEquals(0, again.getLong(0));
        again.setLong(0, -2);
        assertEquals(0, a.read(new long[] {0, 0}, new long[] {1, 1}).getLong(0));
        assertEquals(0, a.readChunk(0, 0).getLong(0));
    }

    @Test
    void theBudgetEvictsTheLeastRecentlyUsed() {
        Zarr z = cached(1000, 0); // ten chunks of 100 bytes
        CountingStore store = new CountingStore(z.openStore("memory:"), true);
        ZarrArray a = array(z, store, "/a", 0);
        a.read();
        assertTrue(z.chunkCacheBytes() <= 1000, "within the budget: " + z.chunkCacheBytes());
        assertTrue(z.chunkCacheBytes() >= 900, "full: " + z.chunkCacheBytes());
        // The parallel read put the chunks in an order that depends on the threads: use them all
        // once in order, so that the ten kept are chunks 6 to 15, (1, 2) the least recently used.
        for (int c = 0; c < 16; c++) {
            a.readChunk(c / 4, c % 4);
        }
        a.readChunk(3, 3);
        store.reset();
        a.readChunk(3, 3);
        assertEquals(0, chunkGets(store).size(), "the chunk just used stays");
        for (int c = 0; c < 4; c++) {
            a.readChunk(0, c);
        }
        store.reset();
        a.readChunk(3, 3);
        a.readChunk(0, 3);
        assertEquals(0, chunkGets(store).size(), "recently used");
        a.readChunk(1, 2);
        assertEquals(1, chunkGets(store).size(), "an older chunk was dropped");
        assertTrue(z.chunkCacheBytes() <= 1000);
    }
}
