package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.NodeNotFoundException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.WriteEmptyChunks;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The user API end to end on the in-memory store: regions, chunks, fill values, resize, hierarchy. */
class ArrayReadWriteTest {
    private static final Zarr ZARR = Zarr.builder().threads(3).maxChunksInFlight(4).build();

    @AfterAll
    static void close() {
        ZARR.close();
    }

    private static Store memory() {
        return ZARR.openStore("memory:");
    }

    @Test
    void randomRegionsMatchAReferenceArray() {
        Store store = memory();
        long[] shape = {23, 17, 11};
        ZarrArray a = ZARR.array(DataTypes.INT32, shape).chunks(5, 4, 3).fillValue(-7).create(store, "/a");
        int[] reference = new int[23 * 17 * 11];
        java.util.Arrays.fill(reference, -7);
        Random rnd = new Random(42);
        for (int round = 0; round < 40; round++) {
            long[] off = new long[3];
            long[] ext = new long[3];
            for (int d = 0; d < 3; d++) {
                off[d] = rnd.nextInt((int) shape[d]);
                ext[d] = 1 + rnd.nextInt((int) (shape[d] - off[d]));
            }
            int n = (int) (ext[0] * ext[1] * ext[2]);
            int[] values = new int[n];
            for (int i = 0; i < n; i++) {
                values[i] = rnd.nextInt();
            }
            a.write(off, ext, values);
            int i = 0;
            for (long z = 0; z < ext[0]; z++) {
                for (long y = 0; y < ext[1]; y++) {
                    for (long x = 0; x < ext[2]; x++) {
                        reference[(int) (((off[0] + z) * 17 + off[1] + y) * 11 + off[2] + x)] = values[i++];
                    }
                }
            }
            // read a different random region back and compare with the reference
            long[] roff = {rnd.nextInt(23), rnd.nextInt(17), rnd.nextInt(11)};
            long[] rext = {1 + rnd.nextInt((int) (23 - roff[0])), 1 + rnd.nextInt((int) (17 - roff[1])),
                    1 + rnd.nextInt((int) (11 - roff[2]))};
            int[] got = a.read(roff, rext).toIntArray();
            int k = 0;
            for (long z = 0; z < rext[0]; z++) {
                for (long y = 0; y < rext[1]; y++) {
                    for (long x = 0; x < rext[2]; x++) {
                        assertEquals(reference[(int) (((roff[0] + z) * 17 + roff[1] + y) * 11 + roff[2] + x)], got[k++]);
                    }
                }
            }
        }
        assertArrayEquals(reference, ZARR.openArray(store, "/a").read().toIntArray());
    }

    @Test
    void nonFiniteJavaFillValuesBecomeTheSpecsTextForms() {
        Store store = memory();
        assertEquals("\"NaN\"", ZARR.array(DataTypes.FLOAT64, 2).fillValue(Double.NaN).create(store, "/n")
                .metadata().get("fill_value").toString());
        assertEquals("\"-Infinity\"", ZARR.array(DataTypes.FLOAT32, 2).fillValue(Float.NEGATIVE_INFINITY)
                .create(store, "/m").metadata().get("fill_value").toString());
        assertEquals(Double.POSITIVE_INFINITY, ZARR.array(DataTypes.FLOAT64, 2).fillValue(Double.POSITIVE_INFINITY)
                .create(store, "/p").read().getDouble(1));
    }

    @Test
    void absentChunksReadAsFillValueAndFillOnlyChunksAreNotStored() {
        Store store = memory();
        ZarrArray a = ZARR.array(DataTypes.FLOAT64, 10, 10).chunks(5, 5).fillValue("NaN").create(store, "/f");
        double[] all = a.read().toDoubleArray();
        assertTrue(java.util.Arrays.stream(all).allMatch(Double::isNaN));
        assertEquals(List.of(StoreKey.of("f/zarr.json")), store.listPrefix("f/"));

        double[] block = new double[25];
        java.util.Arrays.fill(block, 1.5);
        a.write(new long[] {5, 0}, new long[] {5, 5}, block);
        assertTrue(store.exists(StoreKey.of("f/c/1/0")));
        java.util.Arrays.fill(block, Double.NaN);
        a.write(new long[] {5, 0}, new long[] {5, 5}, block);
        assertFalse(store.exists(StoreKey.of("f/c/1/0")), "a chunk written back to all fill value is erased");
    }

    @Test
    void emptyChunksAreStoredWhenConfigured() {
        try (Zarr z = Zarr.builder().writeEmptyChunks(WriteEmptyChunks.STORE).build()) {
            Store store = z.openStore("memory:");
            ZarrArray a = z.array(DataTypes.UINT8, 4).chunks(2).create(store, "/");
            a.write(new long[] {0}, new long[] {4}, new byte[4]);
            assertTrue(store.exists(StoreKey.of("c/0")));
            assertTrue(store.exists(StoreKey.of("c/1")));
        }
    }

    @Test
    void edgeChunksOverhangAndAreStoredWhole() {
        Store store = memory();
        ZarrArray a = ZARR.array(DataTypes.UINT16, 5).chunks(4).create(store, "/");
        a.write(new long[] {0}, new long[] {5}, new short[] {1, 2, 3, 4, 5});
        ByteBuffer last = store.get(StoreKey.of("c/1")).orElseThrow();
        assertEquals(8, last.remaining(), "the edge chunk has the full chunk size");
        assertArrayEquals(new short[] {5, 0, 0, 0}, a.readChunk(1).toShortArray());
        assertArrayEquals(new short[] {1, 2, 3, 4, 5}, a.read().toShortArray());
    }

    @Test
    void zeroDimensionalArrayHasOneChunkKeyedC() {
        Store store = memory();
        ZarrArray a = ZARR.array(DataTypes.FLOAT32).fillValue(0.5).create(store, "/scalar");
        assertEquals(0.5f, a.read().toFloatArray()[0]);
        a.write(new long[0], new long[0], new float[] {3.25f});
        assertTrue(store.exists(StoreKey.of("scalar/c")));
        assertEquals(3.25f, ZARR.openArray(store, "scalar").read().toFloatArray()[0]);
    }

    @Test
    void zeroLengthDimensionsReadAsEmpty() {
        Store store = memory();
        ZarrArray a = ZARR.array(DataTypes.INT8, 0, 4).chunks(2, 2).create(store, "/");
        assertEquals(0, a.read().elementCount());
        assertArrayEquals(new long[] {0, 2}, a.chunkGridShape());
    }

    @Test
    void resizeGrowsWithFillAndShrinkErasesChunksOutsideWhenAsked() {
        Store store = memory();
        ZarrArray a = ZARR.array(DataTypes.INT16, 8).chunks(2).fillValue(9).create(store, "/r");
        a.write(new long[] {0}, new long[] {8}, new short[] {0, 1, 2, 3, 4, 5, 6, 7});
        a.resize(new long[] {3}, false);
        assertArrayEquals(new long[] {3}, ZARR.openArray(store, "/r").shape());
        assertTrue(store.exists(StoreKey.of("r/c/3")), "kept without eraseOutside");
        a.resize(new long[] {8}, false);
        assertArrayEquals(new short[] {0, 1, 2, 3, 4, 5, 6, 7}, a.read().toShortArray(), "kept data reappears");
        a.resize(new long[] {3}, true);
        assertFalse(store.exists(StoreKey.of("r/c/2")));
        assertFalse(store.exists(StoreKey.of("r/c/3")));
        assertTrue(store.exists(StoreKey.of("r/c/1")), "chunk 1 still holds element 2");
        a.resize(new long[] {6}, false);
        assertArrayEquals(new short[] {0, 1, 2, 3, 9, 9}, a.read().toShortArray());
    }

    @Test
    void groupsAreCreatedForAncestorsAndListTheirChildren() {
        Store store = memory();
        ZARR.array(DataTypes.BOOL, 3).create(store, "/a/b/c");
        ZARR.createGroup(store, "/a/g");
        ZarrGroup root = ZARR.openGroup(store, "/");
        assertEquals(List.of("a"), root.childNames());
        ZarrGroup a = root.openGroup("a");
        assertEquals(List.of("b", "g"), a.childNames());
        assertEquals("/a/b/c", a.openGroup("b").openArray("c").path());
        ObjectNode attrs = JsonNodeFactory.instance.objectNode().put("answer", 42);
        a.setAttributes(attrs);
        assertEquals(attrs, ZARR.openGroup(store, "a").attributes());
        ZARR.erase(store, "/a/b");
        assertThrows(NodeNotFoundException.class, () -> ZARR.open(store, "/a/b/c"));
        assertEquals(List.of("g"), ZARR.openGroup(store, "/a").childNames());
    }

    @Test
    void attributesOfAnArrayAreRewrittenAndKept() {
        Store store = memory();
        ZarrArray a = ZARR.array(DataTypes.UINT64, 2).attributes(Map.of("k", "v")).create(store, "/x");
        assertEquals("v", ZARR.openArray(store, "/x").attributes().get("k").asText());
        a.setAttributes(JsonNodeFactory.instance.objectNode().put("k", "w"));
        assertEquals("w", ZARR.openArray(store, "/x").attributes().get("k").asText());
    }

    @Test
    void uint64KeepsItsFullRange() {
        Store store = memory();
        ZarrArray a = ZARR.array(DataTypes.UINT64, 2).fillValue(new java.math.BigInteger("18446744073709551615"))
                .create(store, "/u");
        assertEquals(-1L, a.read().toLongArray()[0]);
        assertEquals("18446744073709551615", ZARR.openArray(store, "/u").metadata().get("fill_value").toString());
    }

    @Test
    void negativeZeroFillValueKeepsItsSign() {
        Store store = memory();
        String doc = "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[2],\"data_type\":\"float64\","
                + "\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[2]}},"
                + "\"chunk_key_encoding\":{\"name\":\"default\"},\"fill_value\":-0.0,"
                + "\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]}";
        store.set(StoreKey.of("z/zarr.json"), ByteBuffer.wrap(doc.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        ZarrArray a = ZARR.openArray(store, "/z");
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(a.read().toDoubleArray()[0]));
        a.setAttributes(JsonNodeFactory.instance.objectNode());
        assertEquals("-0.0", ZARR.openArray(store, "/z").metadata().get("fill_value").toString());
    }

    @Test
    void wholeChunksAreReadAndWrittenDirectly() {
        Store store = memory();
        ZarrArray a = ZARR.array(DataTypes.FLOAT32, 4, 4).chunks(2, 2).create(store, "/");
        NdArray chunk = NdArray.copyOf(DataTypes.FLOAT32, new float[] {1, 2, 3, 4}, 2, 2);
        a.writeChunk(new long[] {1, 1}, chunk);
        assertTrue(a.readChunk(1, 1).contentEquals(chunk));
        assertArrayEquals(new float[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4}, a.read().toFloatArray());
    }

    @Test
    void concurrentWritersOfOneChunkLoseNothing() throws Exception {
        Store store = memory();
        ZarrArray a = ZARR.array(DataTypes.INT32, 64).chunks(64).create(store, "/");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> fs = new java.util.ArrayList<>();
            for (int i = 0; i < 64; i++) {
                int k = i;
                fs.add(pool.submit(() -> a.write(new long[] {k}, new long[] {1}, new int[] {k + 1})));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        int[] got = a.read().toIntArray();
        for (int i = 0; i < 64; i++) {
            assertEquals(i + 1, got[i], "element " + i);
        }
    }
}
