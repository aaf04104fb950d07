package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.WriteEmptyChunks;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.selection.DimSelection;
import dev.zarrj.core.selection.Index;
import dev.zarrj.core.selection.IndexList;
import dev.zarrj.core.selection.Mask;
import dev.zarrj.core.selection.Selection;
import dev.zarrj.core.selection.Slice;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The chunk-wise selection engine: results against a reference, and which chunks it asks for. */
class SelectionEngineTest {
    private static final Zarr ZARR = Zarr.builder().threads(3).build();
    private static final long[] SHAPE = {23, 17, 11};

    @AfterAll
    static void close() {
        ZARR.close();
    }

    private static ZarrArray filled(Store store, int[] reference) {
        ZarrArray a = ZARR.array(DataTypes.INT32, SHAPE).chunks(5, 4, 3).fillValue(-7).create(store, "/a");
        Random rnd = new Random(1);
        for (int i = 0; i < reference.length; i++) {
            reference[i] = rnd.nextInt(1000);
        }
        a.write(new long[3], SHAPE, reference);
        return a;
    }

    private static int at(int[] ref, long z, long y, long x) {
        return ref[(int) ((z * SHAPE[1] + y) * SHAPE[2] + x)];
    }

    private static DimSelection random(Random rnd, long length) {
        switch (rnd.nextInt(5)) {
            case 0: {
                long step = rnd.nextInt(7) - 3;
                step = step == 0 ? 1 : step;
                return Slice.of(rnd.nextInt((int) length + 4) - 2, rnd.nextInt((int) length + 4) - 2, step);
            }
            case 1: {
                long[] l = new long[1 + rnd.nextInt(9)];
                for (int i = 0; i < l.length; i++) {
                    l[i] = rnd.nextInt((int) (2 * length)) - length; // negatives, repeats, any order
                }
                return IndexList.of(l);
            }
            case 2: {
                boolean[] m = new boolean[(int) length];
                for (int i = 0; i < m.length; i++) {
                    m[i] = rnd.nextInt(3) == 0;
                }
                return Mask.of(m);
            }
            case 3:
                return Index.of(rnd.nextInt((int) length));
            default:
                return Slice.step(rnd.nextBoolean() ? 2 : -1);
        }
    }

    private static long[] shapeOf(DimSelection[] dims, long[][] idx) {
        List<Long> s = new ArrayList<>();
        for (int d = 0; d < dims.length; d++) {
            if (dims[d].keepsDimension()) {
                s.add((long) idx[d].length);
            }
        }
        return s.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void orthogonalReadsMatchTheReference() {
        int[] ref = new int[23 * 17 * 11];
        ZarrArray a = filled(ZARR.openStore("memory:"), ref);
        Random rnd = new Random(7);
        for (int round = 0; round < 300; round++) {
            DimSelection[] dims = new DimSelection[3];
            long[][] idx = new long[3][];
            for (int d = 0; d < 3; d++) {
                dims[d] = random(rnd, SHAPE[d]);
                idx[d] = dims[d].indices(SHAPE[d]);
            }
            NdArray got = a.read(Selection.of(dims));
            assertArrayEquals(shapeOf(dims, idx), got.shape());
            int k = 0;
            for (long z : idx[0]) {
                for (long y : idx[1]) {
                    for (long x : idx[2]) {
                        assertEquals(at(ref, z, y, x), got.getLong(k++), "round " + round + " " + List.of(dims));
                    }
                }
            }
            assertEquals(k, got.elementCount());
        }
    }

    @Test
    void orthogonalWritesMatchTheReferenceLaterOccurrenceWins() {
        int[] ref = new int[23 * 17 * 11];
        ZarrArray a = filled(ZARR.openStore("memory:"), ref);
        Random rnd = new Random(8);
        for (int round = 0; round < 150; round++) {
            DimSelection[] dims = new DimSelection[3];
            long[][] idx = new long[3][];
            for (int d = 0; d < 3; d++) {
                dims[d] = random(rnd, SHAPE[d]);
                idx[d] = dims[d].indices(SHAPE[d]);
            }
            Selection sel = Selection.of(dims);
            long[] shape = shapeOf(dims, idx);
            int n = idx[0].length * idx[1].length * idx[2].length;
            int[] values = new int[n];
            int k = 0;
            for (long z : idx[0]) {
                for (long y : idx[1]) {
                    for (long x : idx[2]) {
                        values[k] = rnd.nextInt(1000);
                        ref[(int) ((z * SHAPE[1] + y) * SHAPE[2] + x)] = values[k++];
                    }
                }
            }
            a.write(sel, NdArray.copyOf(DataTypes.INT32, values, shape));
            assertArrayEquals(ref, a.read().toIntArray(), "round " + round + " " + sel);
        }
    }

    @Test
    void pointsReadAndWriteMatchTheReference() {
        int[] ref = new int[23 * 17 * 11];
        ZarrArray a = filled(ZARR.openStore("memory:"), ref);
        Random rnd = new Random(9);
        for (int round = 0; round < 100; round++) {
            int n = rnd.nextInt(40);
            long[][] c = new long[3][n];
            for (int k = 0; k < n; k++) {
                for (int d = 0; d < 3; d++) {
                    c[d][k] = rnd.nextInt((int) SHAPE[d]) - (rnd.nextBoolean() ? SHAPE[d] : 0);
                }
            }
            if (n > 2) { // a repeated point
                for (int d = 0; d < 3; d++) {
                    c[d][n - 1] = c[d][0];
                }
            }
            NdArray got = a.read(Selection.points(c));
            assertArrayEquals(new long[] {n}, got.shape());
            for (int k = 0; k < n; k++) {
                assertEquals(at(ref, norm(c[0][k], 0), norm(c[1][k], 1), norm(c[2][k], 2)), got.getLong(k));
            }
            int[] values = new int[n];
            for (int k = 0; k < n; k++) {
                values[k] = 5000 + rnd.nextInt(1000);
                ref[(int) ((norm(c[0][k], 0) * SHAPE[1] + norm(c[1][k], 1)) * SHAPE[2] + norm(c[2][k], 2))] = values[k];
            }
            a.write(Selection.points(c), NdArray.copyOf(DataTypes.INT32, values, n));
            assertArrayEquals(ref, a.read().toIntArray(), "round " + round);
        }
    }

    private static long norm(long i, int d) {
        return i < 0 ? i + SHAPE[d] : i;
    }

    @Test
    void pointMaskAndBlocks() {
        int[] ref = new int[23 * 17 * 11];
        ZarrArray a = filled(ZARR.openStore("memory:"), ref);
        NdArray mask = NdArray.allocate(DataTypes.BOOL, SHAPE);
        mask.setBoolean(new long[] {22, 16, 10}, true);
        mask.setBoolean(new long[] {0, 3, 4}, true);
        assertArrayEquals(new int[] {at(ref, 0, 3, 4), at(ref, 22, 16, 10)}, a.read(Selection.points(mask)).toIntArray());
        NdArray block = a.read(Selection.blocks(Index.of(4), Slice.of(1, 3)));
        assertArrayEquals(new long[] {3, 8, 11}, block.shape());
        assertArrayEquals(a.read(new long[] {20, 4, 0}, new long[] {3, 8, 11}).toIntArray(), block.toIntArray());
    }

    /** A store holding only some chunks: absent chunks read as the fill value. */
    @Test
    void absentChunksReadAsFillValue() {
        ZarrArray a = ZARR.array(DataTypes.INT32, SHAPE).chunks(5, 4, 3).fillValue(-7).create(ZARR.openStore("memory:"), "/a");
        a.write(Selection.points(new long[] {1}, new long[] {1}, new long[] {1}), NdArray.copyOf(DataTypes.INT32, new int[] {42}, 1));
        NdArray got = a.read(Selection.of(IndexList.of(1, 7, 1), Slice.of(1, 2), IndexList.of(1, 9)));
        assertArrayEquals(new int[] {42, -7, -7, -7, 42, -7}, got.toIntArray());
        assertArrayEquals(new int[] {-7, 42}, a.read(Selection.points(new long[] {20, 1}, new long[] {3, 1}, new long[] {0, 1})).toIntArray());
        ZarrArray zeros = ZARR.array(DataTypes.INT32, SHAPE).chunks(5, 4, 3).create(ZARR.openStore("memory:"), "/z");
        assertArrayEquals(new int[8], zeros.read(Selection.of(Slice.step(-7), Index.of(3), IndexList.of(2, 2))).toIntArray());
    }

    @Test
    void zeroDimensionalAndEmptySelections() {
        ZarrArray scalar = ZARR.array(DataTypes.INT32).fillValue(3).create(ZARR.openStore("memory:"), "/s");
        assertEquals(3, scalar.read(Selection.all()).getLong(0));
        scalar.write(Selection.all(), NdArray.copyOf(DataTypes.INT32, new int[] {9}));
        assertEquals(9, scalar.read(Selection.all()).getLong(0));
        assertArrayEquals(new int[] {9}, scalar.read(Selection.points()).toIntArray());
        scalar.write(Selection.points(), NdArray.copyOf(DataTypes.INT32, new int[] {11}, 1));
        assertEquals(11, scalar.read().getLong(0));

        CountingStore store = new CountingStore(ZARR.openStore("memory:"), true);
        ZarrArray a = filled(store, new int[23 * 17 * 11]);
        store.reset();
        NdArray none = a.read(Selection.of(IndexList.of(), Slice.all()));
        assertArrayEquals(new long[] {0, 17, 11}, none.shape());
        assertEquals(0, a.read(Selection.points(new long[0], new long[0], new long[0])).elementCount());
        a.write(Selection.of(Slice.of(4, 4)), NdArray.allocate(DataTypes.INT32, 0, 17, 11));
        assertEquals(List.of(), store.requests);
    }

    @Test
    void errorsNameTheDimensionAndValue() {
        ZarrArray a = ZARR.array(DataTypes.INT32, SHAPE).chunks(5, 4, 3).create(ZARR.openStore("memory:"), "/a");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> a.read(Selection.of(Slice.all(), IndexList.of(3, 17))));
        assertTrue(e.getMessage().contains("dimension 1") && e.getMessage().contains("17"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> a.read(Selection.points(new long[] {0}, new long[] {0}, new long[] {-12})));
        assertTrue(e.getMessage().contains("dimension 2") && e.getMessage().contains("-12"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> a.write(Selection.of(Index.of(0)), NdArray.allocate(DataTypes.INT32, 17, 10)));
        assertTrue(e.getMessage().contains("[17, 10]") && e.getMessage().contains("[17, 11]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> a.write(Selection.of(Index.of(0)), NdArray.allocate(DataTypes.INT64, 17, 11)));
        assertTrue(e.getMessage().contains("int64"), e.getMessage());
    }

    private static List<String> chunkGets(CountingStore store) {
        List<String> out = new ArrayList<>();
        synchronized (store.requests) {
            for (String r : store.requests) {
                if (r.startsWith("get ") && r.contains("/c/")) {
                    out.add(r.replaceAll(" \\[.*", "")); // ranged or whole: one request of that chunk
                }
            }
        }
        out.sort(null);
        return out;
    }

    /** 16 chunks of 4 x 4 in a 16 x 16 array. */
    private static ZarrArray grid16(Zarr zarr, CountingStore store) {
        ZarrArray a = zarr.array(DataTypes.INT32, 16, 16).chunks(4, 4).fillValue(-1).create(store, "/g");
        int[] v = new int[256];
        for (int i = 0; i < v.length; i++) {
            v[i] = i;
        }
        a.write(new long[2], new long[] {16, 16}, v);
        store.reset();
        return a;
    }

    @Test
    void anIndexListTouchingTwoOfSixteenChunksGetsExactlyThose() {
        for (int io : new int[] {0, 16}) { // ioConcurrency 16 > 3 threads: the prefetch path
            try (Zarr zarr = Zarr.builder().threads(3).ioConcurrency(io == 0 ? 3 : io).build()) {
                CountingStore store = new CountingStore(zarr.openStore("memory:"), true);
                ZarrArray a = grid16(zarr, store);
                NdArray got = a.read(Selection.of(IndexList.of(9, 1, 2, 9), IndexList.of(13, 12)));
                assertArrayEquals(new int[] {157, 156, 29, 28, 45, 44, 157, 156}, got.toIntArray());
                assertEquals(List.of("get g/c/0/3", "get g/c/2/3"), chunkGets(store), "io " + io);
                store.reset();
                got = a.read(Selection.points(new long[] {15, 0, 14}, new long[] {0, 15, 1}));
                assertArrayEquals(new int[] {240, 15, 225}, got.toIntArray());
                assertEquals(List.of("get g/c/0/3", "get g/c/3/0"), chunkGets(store), "io " + io);
            }
        }
    }

    @Test
    void aChunkWithManySelectedElementsIsFetchedOnce() {
        aChunkWithManySelectedElementsIsFetchedOnce(ZARR);
        try (Zarr prefetching = Zarr.builder().threads(2).ioConcurrency(16).build()) {
            aChunkWithManySelectedElementsIsFetchedOnce(prefetching);
        }
    }

    private static void aChunkWithManySelectedElementsIsFetchedOnce(Zarr zarr) {
        CountingStore store = new CountingStore(zarr.openStore("memory:"), true);
        ZarrArray a = grid16(zarr, store);
        NdArray got = a.read(Selection.of(IndexList.of(3, 1, 1, 2, 0, 3), Slice.of(7, 3, -2)));
        assertArrayEquals(new long[] {6, 2}, got.shape());
        assertEquals(List.of("get g/c/0/1"), chunkGets(store));
        assertEquals(3 * 16 + 7, got.getLong(0));
        store.reset();
        long[] ys = new long[40];
        long[] xs = new long[40];
        for (int k = 0; k < 40; k++) {
            ys[k] = 8 + k % 4;
            xs[k] = 4 + (k * 7) % 4;
        }
        got = a.read(Selection.points(ys, xs));
        assertEquals(List.of("get g/c/2/1"), chunkGets(store));
        for (int k = 0; k < 40; k++) {
            assertEquals(ys[k] * 16 + xs[k], got.getLong(k));
        }
    }

    @Test
    void writesReadOnlyTheChunksNotWhollyCovered() {
        CountingStore store = new CountingStore(ZARR.openStore("memory:"), false);
        ZarrArray a = grid16(ZARR, store);
        // rows 4..7 (chunk row 1, wholly) in reverse, columns {0..3 shuffled with a repeat, 5}: chunk (1,0)
        // is covered, chunk (1,1) is not.
        Selection sel = Selection.of(Slice.of(7, 3, -1), IndexList.of(2, 0, 3, 1, 0, 5));
        int[] values = new int[24];
        for (int i = 0; i < values.length; i++) {
            values[i] = 1000 + i;
        }
        a.write(sel, NdArray.copyOf(DataTypes.INT32, values, 4, 6));
        assertEquals(List.of("get g/c/1/1"), chunkGets(store));
        int[] all = a.read().toIntArray();
        assertEquals(1000 + 4, all[7 * 16]); // row 7 is the first row, column 0's later occurrence (index 4)
        assertEquals(1000 + 18 + 4, all[4 * 16]);
        assertEquals(1000 + 5, all[7 * 16 + 5]);
        assertEquals(7 * 16 + 4, all[7 * 16 + 4]); // unselected, kept by the read-modify-write
        store.reset();
        a.write(Selection.points(new long[] {0, 0}, new long[] {1, 1}), NdArray.copyOf(DataTypes.INT32, new int[] {5, 6}, 2));
        assertEquals(List.of("get g/c/0/0"), chunkGets(store));
        assertEquals(6, a.read(new long[] {0, 1}, new long[] {1, 1}).getLong(0));
    }

    @Test
    void chunksLeftAllFillValueAreErasedOrStoredAsForRegionWrites() {
        for (WriteEmptyChunks mode : WriteEmptyChunks.values()) {
            try (Zarr zarr = Zarr.builder().writeEmptyChunks(mode).build()) {
                Store memory = zarr.openStore("memory:");
                CountingStore store = new CountingStore(memory, false);
                ZarrArray a = grid16(zarr, store);
                int[] fill = new int[16];
                java.util.Arrays.fill(fill, -1);
                // covered chunk (0,0) by a step selection over a 4 x 4 block in reverse
                a.write(Selection.of(Slice.from(3, -1), Slice.to(4)), NdArray.copyOf(DataTypes.INT32, fill, 4, 4));
                boolean stored = memory.get(dev.zarrj.api.store.StoreKey.of("g/c/0/0")).isPresent();
                assertEquals(mode == WriteEmptyChunks.STORE, stored, mode.toString());
            }
        }
    }

    @Test
    void concurrentSelectionWritersOfOneChunkLoseNothing() throws Exception {
        for (boolean conditional : new boolean[] {false, true}) {
            CountingStore store = new CountingStore(ZARR.openStore("memory:"), conditional);
            ZarrArray a = grid16(ZARR, store);
            int writers = 4;
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                final int me = w;
                threads.add(new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int round = 0; round < 20; round++) {
                        // each writer owns column me (and me + 4, ...) of every row: all writers share chunks
                        a.write(Selection.of(Slice.all(), Slice.from(me, writers)),
                                NdArray.copyOf(DataTypes.INT32, fillWith(16 * 4, 10_000 * (me + 1) + round), 16, 4));
                    }
                }));
            }
            threads.forEach(Thread::start);
            start.countDown();
            for (Thread t : threads) {
                t.join();
            }
            int[] all = a.read().toIntArray();
            for (int i = 0; i < all.length; i++) {
                assertEquals(10_000 * (i % 16 % writers + 1) + 19, all[i], "conditional " + conditional + " at " + i);
            }
        }
    }

    private static int[] fillWith(int n, int v) {
        int[] out = new int[n];
        java.util.Arrays.fill(out, v);
        return out;
    }

    @Test
    void aReadOnlyStoreRefusesSelectionWrites() {
        Store memory = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(DataTypes.INT32, 4).chunks(2).create(memory, "/r");
        ZarrArray ro = ZARR.openArray(new ReadOnly(memory), "/r");
        assertThrows(ReadOnlyException.class, () -> ro.write(Selection.of(IndexList.of(1)), NdArray.allocate(DataTypes.INT32, 1)));
        assertEquals(0, ro.read(Selection.of(IndexList.of(1))).getLong(0));
        assertFalse(a.isReadOnly());
    }

    /** A read-only view of a store. */
    private static final class ReadOnly implements Store {
        private final Store inner;

        ReadOnly(Store inner) {
            this.inner = inner;
        }

        @Override
        public StoreCapabilities capabilities() {
            return new StoreCapabilities(true, false, false, true);
        }

        @Override
        public String describe() {
            return "read-only " + inner.describe();
        }

        @Override
        public java.util.Optional<java.nio.ByteBuffer> get(dev.zarrj.api.store.StoreKey key) {
            return inner.get(key);
        }

        @Override
        public List<dev.zarrj.api.store.StoreKey> listPrefix(String prefix) {
            return inner.listPrefix(prefix);
        }
    }
}
