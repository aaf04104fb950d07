package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.Region;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.WriteEmptyChunks;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Writes and reads sharded arrays through zarr-core and compares every read with a reference
 * array: random regions written (partial shard updates) and read (partial shard reads), for each
 * index location and a range of inner chains, with edge shards (23×17 is not a multiple of the
 * 8×12 shard) and a non-zero fill value.
 */
class ShardingRoundTripTest {
    private static final Zarr ZARR = Zarr.builder().threads(4).maxChunksInFlight(6).build();
    private static final String LE = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
    private static final String BE = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}";
    private static final String CRC = "{\"name\":\"crc32c\"}";
    private static final String GZIP = "{\"name\":\"gzip\",\"configuration\":{\"level\":1}}";
    private static final String TRANSPOSE = "{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}}";

    @AfterAll
    static void close() {
        ZARR.close();
    }

    static String sharding(String chunkShape, String codecs, String indexCodecs, String location) {
        return "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":" + chunkShape + ",\"codecs\":["
                + codecs + "],\"index_codecs\":[" + indexCodecs + "]" + (location == null ? ""
                : ",\"index_location\":\"" + location + "\"") + "}}";
    }

    static Stream<Arguments> chains() {
        return Stream.of(
                Arguments.of("end, bytes", sharding("[4,3]", LE, LE, "end")),
                Arguments.of("start, bytes, crc32c index", sharding("[4,3]", LE, LE + "," + CRC, "start")),
                Arguments.of("default location, crc32c inner and index", sharding("[4,3]", LE + "," + CRC, LE + "," + CRC, null)),
                Arguments.of("transpose + big endian + gzip inner", sharding("[4,3]", TRANSPOSE + "," + BE + "," + GZIP, BE, "end")),
                Arguments.of("start, transpose in the index chain", sharding("[2,6]", LE, "{\"name\":\"transpose\","
                        + "\"configuration\":{\"order\":[2,0,1]}}," + LE + "," + CRC, "start")),
                Arguments.of("nested sharding, end in end", sharding("[4,6]", sharding("[2,3]", LE + "," + GZIP,
                        LE + "," + CRC, "end"), LE + "," + CRC, "end")),
                Arguments.of("nested sharding, start in start, inner gzip", sharding("[8,6]", sharding("[4,3]", LE,
                        LE, "start") + "," + GZIP, LE, "start")),
                Arguments.of("one inner chunk per shard", sharding("[8,12]", LE, LE + "," + CRC, "end")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chains")
    void randomWritesAndReadsMatchAReference(String name, String codec) {
        Store store = ZARR.openStore("memory:");
        long[] shape = {23, 17};
        ZarrArray a = ZARR.array(DataTypes.INT32, shape).chunks(8, 12).codecs("[" + codec + "]").fillValue(-7)
                .create(store, "/a");
        int[] reference = new int[23 * 17];
        Arrays.fill(reference, -7);
        Random rnd = new Random(name.hashCode());
        for (int round = 0; round < 60; round++) {
            long[] off = {rnd.nextInt(23), rnd.nextInt(17)};
            long[] ext = {1 + rnd.nextInt((int) (23 - off[0])), 1 + rnd.nextInt((int) (17 - off[1]))};
            int[] values = new int[(int) (ext[0] * ext[1])];
            boolean fill = rnd.nextInt(5) == 0; // sometimes write fill values back, emptying inner chunks
            for (int i = 0; i < values.length; i++) {
                values[i] = fill ? -7 : rnd.nextInt();
            }
            a.write(off, ext, values);
            for (int y = 0; y < ext[0]; y++) {
                System.arraycopy(values, (int) (y * ext[1]), reference, (int) ((off[0] + y) * 17 + off[1]), (int) ext[1]);
            }
            long[] roff = {rnd.nextInt(23), rnd.nextInt(17)};
            long[] rext = {1 + rnd.nextInt((int) (23 - roff[0])), 1 + rnd.nextInt((int) (17 - roff[1]))};
            int[] got = a.read(roff, rext).toIntArray();
            for (int y = 0; y < rext[0]; y++) {
                for (int x = 0; x < rext[1]; x++) {
                    assertEquals(reference[(int) ((roff[0] + y) * 17 + roff[1] + x)], got[(int) (y * rext[1] + x)],
                            name + ": round " + round + " element " + (roff[0] + y) + "," + (roff[1] + x));
                }
            }
        }
        assertArrayEquals(reference, ZARR.openArray(store, "/a").read().toIntArray(), name + ": whole array");
        // Rewriting it whole gives the same data, through the whole-shard encoder.
        ZarrArray b = ZARR.array(DataTypes.INT32, shape).chunks(8, 12).codecs("[" + codec + "]").fillValue(-7)
                .create(store, "/b");
        b.write(NdArray.copyOf(DataTypes.INT32, reference, shape));
        assertArrayEquals(reference, b.read().toIntArray(), name + ": written whole");
    }

    @Test
    void aShardLeftWithOnlyFillValuesIsErased() {
        // A store without conditional writes (CountingStore offers none).
        Store store = new CountingStore(ZARR.openStore("memory:"));
        ZarrArray a = ZARR.array(DataTypes.INT16, 8, 8).chunks(8, 8).codecs("[" + sharding("[2,2]", LE, LE, null) + "]")
                .fillValue(0).create(store, "/a");
        a.write(new long[] {1, 1}, new long[] {2, 2}, new short[] {1, 2, 3, 4});
        StoreKey key = StoreKey.of(a.chunkKey(0, 0));
        assertTrue(store.get(key).isPresent());
        a.write(new long[] {0, 0}, new long[] {3, 3}, new short[9]);
        assertFalse(store.get(key).isPresent(), "no inner chunk left: the shard is erased");
    }

    /**
     * On a store with conditional writes (the memory store) an erase could drop another
     * process's concurrent write, so a shard emptied by a partial write is stored as an index of
     * empty markers instead, and reads as fill values.
     */
    @Test
    void withConditionalWritesAShardLeftWithOnlyFillValuesIsStoredEmpty() {
        Store store = ZARR.openStore("memory:");
        assertTrue(store.conditionalWrites().isPresent());
        ZarrArray a = ZARR.array(DataTypes.INT32, 4, 4).chunks(4, 4).codecs("[" + sharding("[2,2]", LE, LE, null) + "]")
                .fillValue(0).create(store, "/a");
        a.write(new long[] {1, 1}, new long[] {2, 2}, new int[] {1, 2, 3, 4});
        a.write(new long[] {0, 0}, new long[] {3, 3}, new int[9]);
        byte[] stored = new byte[64];
        store.get(StoreKey.of(a.chunkKey(0, 0))).orElseThrow().get(stored);
        byte[] expected = new byte[64];
        Arrays.fill(expected, (byte) 0xff);
        assertArrayEquals(expected, stored, "an index of empty markers");
        assertArrayEquals(new int[16], a.read().toIntArray());
    }

    @Test
    void withWriteEmptyChunksAnEmptyShardIsStoredAsAnIndexOfEmptyMarkers() {
        try (Zarr zarr = Zarr.builder().writeEmptyChunks(WriteEmptyChunks.STORE).build()) {
            Store store = zarr.openStore("memory:");
            ZarrArray a = zarr.array(DataTypes.INT16, 4, 4).chunks(4, 4).codecs("[" + sharding("[2,2]", LE, LE, null)
                    + "]").fillValue(0).create(store, "/a");
            a.write(new long[] {0, 0}, new long[] {1, 1}, new short[] {9});
            a.write(new long[] {0, 0}, new long[] {1, 1}, new short[] {0});
            byte[] stored = new byte[64];
            store.get(StoreKey.of(a.chunkKey(0, 0))).orElseThrow().get(stored);
            byte[] expected = new byte[64];
            Arrays.fill(expected, (byte) 0xff);
            assertArrayEquals(expected, stored);
            assertEquals(0, a.read().getLong(0));
        }
    }

    @Test
    void writingAnInnerChunkKeepsTheOthersBytesUnchanged() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(DataTypes.INT16, 4, 4).chunks(4, 4)
                .codecs("[" + sharding("[2,2]", LE + "," + GZIP, LE, "start") + "]").fillValue(0).create(store, "/a");
        short[] all = new short[16];
        for (int i = 0; i < 16; i++) {
            all[i] = (short) (i + 1);
        }
        a.write(new long[] {0, 0}, new long[] {4, 4}, all);
        StoreKey key = StoreKey.of(a.chunkKey(0, 0));
        byte[] before = bytes(store, key);
        a.write(new long[] {3, 3}, new long[] {1, 1}, new short[] {100}); // inner chunk (1, 1), the last one
        byte[] after = bytes(store, key);
        // Index (64 bytes) then inner chunks in C order: the first three are copied unchanged.
        long firstThree = java.nio.ByteBuffer.wrap(before).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(48);
        assertArrayEquals(Arrays.copyOfRange(before, 64, (int) firstThree), Arrays.copyOfRange(after, 64, (int) firstThree));
        all[15] = 100;
        assertArrayEquals(all, a.read().toShortArray());
    }

    /**
     * A whole-array write encodes each interior shard straight from the caller's array
     * ({@code encodeRegion}): the stored bytes equal those of writing the same shard as a chunk,
     * and a shard of only fill values is not stored.
     */
    @Test
    void shardsEncodedFromTheCallersArrayMatchShardsEncodedWhole() {
        Store store = ZARR.openStore("memory:");
        String codecs = "[" + sharding("[4,3]", LE + "," + GZIP, LE + "," + CRC, "end") + "]";
        ZarrArray whole = ZARR.array(DataTypes.INT32, 16, 24).chunks(8, 12).codecs(codecs).fillValue(-7)
                .create(store, "/whole");
        ZarrArray byChunk = ZARR.array(DataTypes.INT32, 16, 24).chunks(8, 12).codecs(codecs).fillValue(-7)
                .create(store, "/by-chunk");
        int[] values = new int[16 * 24];
        for (int i = 0; i < values.length; i++) {
            boolean firstShard = i / 24 < 8 && i % 24 < 12;
            values[i] = firstShard ? -7 : i * 7 + 1;
        }
        NdArray data = NdArray.copyOf(DataTypes.INT32, values, 16, 24);
        whole.write(new long[] {0, 0}, data);
        assertArrayEquals(values, whole.read().toIntArray());
        assertFalse(store.exists(StoreKey.of(whole.chunkKey(0, 0))), "a shard of only fill values is not stored");
        for (long[] c : new long[][] {{0, 1}, {1, 0}, {1, 1}}) {
            byChunk.writeChunk(c, data.region(Region.of(new long[] {c[0] * 8, c[1] * 12}, new long[] {8, 12})));
            assertArrayEquals(bytes(store, StoreKey.of(byChunk.chunkKey(c))), bytes(store, StoreKey.of(whole.chunkKey(c))),
                    "shard " + Arrays.toString(c));
        }
    }

    private static byte[] bytes(Store store, StoreKey key) {
        java.nio.ByteBuffer b = store.get(key).orElseThrow();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    @Test
    void threeDimensionalEdgeShardsRoundTrip() {
        Store store = ZARR.openStore("memory:");
        long[] shape = {5, 7, 9};
        ZarrArray a = ZARR.array(DataTypes.UINT8, shape).chunks(4, 4, 6)
                .codecs("[" + sharding("[2,2,3]", "{\"name\":\"bytes\"}", LE + "," + CRC, "end") + "]").fillValue(255)
                .create(store, "/a");
        byte[] v = new byte[5 * 7 * 9];
        new Random(3).nextBytes(v);
        a.write(NdArray.copyOf(DataTypes.UINT8, v, shape));
        assertArrayEquals(v, a.read().toByteArray());
        assertArrayEquals(NdArray.copyOf(DataTypes.UINT8, v, shape).region(Region.of(new long[] {3, 1, 4}, new long[] {2, 5, 4}))
                .toByteArray(), a.read(new long[] {3, 1, 4}, new long[] {2, 5, 4}).toByteArray());
    }

    /** The spec leaves 0-d arrays implicit: a 0-d shard has one inner chunk, chunk_shape [], index shape [2]. */
    @Test
    void zeroDimensionalArrayWithChunkShapeEmpty() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(DataTypes.FLOAT64).codecs("[" + sharding("[]", LE, LE + "," + CRC, null) + "]")
                .fillValue(0).create(store, "/a");
        a.write(NdArray.copyOf(DataTypes.FLOAT64, new double[] {2.5}));
        assertEquals(2.5, ZARR.openArray(store, "/a").read().getDouble(0));
        byte[] shard = bytes(store, StoreKey.of(a.chunkKey()));
        assertEquals(8 + 20, shard.length, "one 8-byte inner chunk and a 16 + 4-byte index");
    }
}
