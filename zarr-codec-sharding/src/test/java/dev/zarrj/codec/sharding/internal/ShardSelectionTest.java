package dev.zarrj.codec.sharding.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.api.NdArray;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.selection.DimSelection;
import dev.zarrj.core.selection.IndexList;
import dev.zarrj.core.selection.Selection;
import dev.zarrj.core.selection.Slice;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Selections of sharded arrays fetch only the inner chunks holding selected elements, and the
 * shard's index once.
 *
 * <p>Array 64×64 int16 of shards 32×32 (2048 bytes) of inner chunks 4×4 (32 bytes, uncompressed),
 * index at the end: 64 entries of 16 bytes and a crc32c, 1028 bytes.
 */
class ShardSelectionTest {
    private static final Zarr ZARR = Zarr.builder().threads(2).build();
    private static final int INDEX_BYTES = 64 * 16 + 4;
    private static final int INNER_BYTES = 4 * 4 * 2;

    @AfterAll
    static void close() {
        ZARR.close();
    }

    private static String codecs() {
        String le = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
        return "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[4,4],\"codecs\":[" + le
                + "],\"index_codecs\":[" + le + ",{\"name\":\"crc32c\"}],\"index_location\":\"end\"}}]";
    }

    private static short[] values() {
        short[] v = new short[64 * 64];
        for (int i = 0; i < v.length; i++) {
            v[i] = (short) (i % 30000 + 1);
        }
        return v;
    }

    private static ZarrArray array(CountingStore store) {
        ZarrArray a = ZARR.array(DataTypes.INT16, 64, 64).chunks(32, 32).codecs(codecs()).fillValue(0).create(store, "/a");
        a.write(new long[2], new long[] {64, 64}, values());
        ZarrArray reopened = ZARR.openArray(store, "/a");
        store.take();
        return reopened;
    }

    @Test
    void aSparseIndexListFetchesTheIndexAndTheTouchedInnerChunksOnly(@TempDir Path dir) {
        CountingStore store = new CountingStore(ZARR.openStore(dir.toString()));
        ZarrArray a = array(store);
        // rows in inner rows 0 and 3, columns in inner columns 7 and 1: four inner chunks of shard (0, 0)
        NdArray got = a.read(Selection.of(IndexList.of(1, 13, 2), IndexList.of(30, 5, 29)));
        long bytes = store.bytes.get();
        int requests = store.take();
        assertEquals(INDEX_BYTES + 4 * INNER_BYTES, bytes);
        assertEquals(1 + 4, requests);
        short[] v = values();
        int k = 0;
        for (int y : new int[] {1, 13, 2}) {
            for (int x : new int[] {30, 5, 29}) {
                assertEquals(v[y * 64 + x], got.getLong(k++));
            }
        }
    }

    @Test
    void pointsFetchTheIndexAndTheTouchedInnerChunksOnly(@TempDir Path dir) {
        CountingStore store = new CountingStore(ZARR.openStore(dir.toString()));
        ZarrArray a = array(store);
        NdArray got = a.read(Selection.points(new long[] {1, 13, 2, 3}, new long[] {30, 5, 31, 28}));
        long bytes = store.bytes.get();
        int requests = store.take();
        assertEquals(INDEX_BYTES + 2 * INNER_BYTES, bytes, "inner chunks (0, 7) and (3, 1)");
        assertEquals(1 + 2, requests);
        short[] v = values();
        assertEquals(v[64 + 30], got.getLong(0));
        assertEquals(v[13 * 64 + 5], got.getLong(1));
        assertEquals(v[3 * 64 + 28], got.getLong(3));
    }

    @Test
    void aStridedSelectionReadsEachShardInOnePartialDecode(@TempDir Path dir) {
        CountingStore store = new CountingStore(ZARR.openStore(dir.toString()));
        ZarrArray a = array(store);
        NdArray got = a.read(Selection.of(Slice.step(4), Slice.of(1, 32, 4)));
        int whole = store.wholeGets.get();
        int requests = store.take();
        assertEquals(16 * 8, got.elementCount());
        // every inner chunk of shards (0, 0) and (1, 0) is touched: each shard is read in one get
        assertEquals(2, requests);
        assertEquals(2, whole);
        assertEquals(values()[4 * 64 + 5], got.getLong(8 + 1));
        // every inner chunk of one row of inner chunks: the index and one coalesced range
        got = a.read(Selection.of(Slice.of(33, 36, 2), Slice.step(4)));
        requests = store.take();
        assertEquals(2 * 2, requests, "shards (1, 0) and (1, 1): each its index and one range");
        assertEquals(values()[35 * 64 + 60], got.getLong(16 + 15));
    }

    @Test
    void aSelectionTouchingMostInnerChunksReadsTheShardInOneGetAndDecodesItPieceByPiece(@TempDir Path dir) {
        CountingStore store = new CountingStore(ZARR.openStore(dir.toString()));
        ZarrArray a = array(store);
        // every row of shard (0, 0), columns in inner columns 0-2 and 4-6: 48 of its 64 inner
        // chunks, in two runs that were once read as two ranges after the index
        long[] cols = {0, 5, 9, 17, 22, 26};
        NdArray got = a.read(Selection.of(Slice.of(0, 32, 1), IndexList.of(cols)));
        int whole = store.wholeGets.get();
        int requests = store.take();
        assertEquals(1, requests);
        assertEquals(1, whole);
        short[] v = values();
        int k = 0;
        for (int y = 0; y < 32; y++) {
            for (long x : cols) {
                assertEquals(v[(int) (y * 64 + x)], got.getLong(k++), "row " + y + " column " + x);
            }
        }
    }

    @Test
    void selectionsOfAShardedArrayMatchTheReferenceAndWritesToo(@TempDir Path dir) {
        CountingStore store = new CountingStore(ZARR.openStore(dir.toString()));
        ZarrArray a = array(store);
        short[] ref = values();
        Random rnd = new Random(3);
        for (int round = 0; round < 60; round++) {
            DimSelection[] dims = new DimSelection[2];
            long[][] idx = new long[2][];
            for (int d = 0; d < 2; d++) {
                if (rnd.nextBoolean()) {
                    long[] l = new long[1 + rnd.nextInt(12)];
                    for (int i = 0; i < l.length; i++) {
                        l[i] = rnd.nextInt(64);
                    }
                    dims[d] = IndexList.of(l);
                } else {
                    dims[d] = Slice.of(rnd.nextInt(64), rnd.nextInt(64), rnd.nextBoolean() ? 3 : -2);
                }
                idx[d] = dims[d].indices(64);
            }
            NdArray got = a.read(Selection.of(dims));
            int k = 0;
            for (long y : idx[0]) {
                for (long x : idx[1]) {
                    assertEquals(ref[(int) (y * 64 + x)], got.getLong(k++), "round " + round);
                }
            }
            short[] w = new short[k];
            k = 0;
            for (long y : idx[0]) {
                for (long x : idx[1]) {
                    w[k] = (short) rnd.nextInt(30000);
                    ref[(int) (y * 64 + x)] = w[k++];
                }
            }
            a.write(Selection.of(dims), NdArray.copyOf(DataTypes.INT16, w, idx[0].length, idx[1].length));
            NdArray all = a.read();
            for (int i = 0; i < ref.length; i++) {
                assertEquals(ref[i], all.getLong(i), "round " + round + " element " + i);
            }
        }
    }
}
