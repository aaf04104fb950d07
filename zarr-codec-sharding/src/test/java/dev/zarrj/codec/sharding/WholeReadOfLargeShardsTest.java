package dev.zarrj.codec.sharding;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Whole reads of an array of two shards larger than a read parks decoded (17 MiB each; the park
 * budget is at most 64 MiB, a quarter of it 16 MiB): while the JVM allocates the result, the read
 * fetches shards aside and decodes them into the result once it exists, their inner chunks in
 * parallel. Every element comes out right, an absent shard reads as the fill value, and a corrupt
 * inner chunk fails the read naming its shard.
 */
class WholeReadOfLargeShardsTest {
    private static final Zarr ZARR = Zarr.builder().threads(2).build();
    private static final String LE = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
    private static final String CRC = "{\"name\":\"crc32c\"}";
    private static final String SHARDED = "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[100,4096],"
            + "\"codecs\":[" + LE + "," + CRC + "],\"index_codecs\":[" + LE + "," + CRC + "]}}]";
    private static final long[] SHAPE = {2200, 4096};
    private static final int FILL = 7;

    @AfterAll
    static void close() {
        ZARR.close();
    }

    private static ZarrArray written(Store store) {
        ZarrArray a = ZARR.array(DataTypes.INT32, SHAPE).chunks(1100, 4096).codecs(SHARDED).fillValue(FILL)
                .create(store, "/a");
        int[] v = new int[(int) (SHAPE[0] * SHAPE[1])];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 7 + 3;
        }
        a.write(new long[2], NdArray.copyOf(DataTypes.INT32, v, SHAPE));
        return a;
    }

    private static void assertElements(int[] got, boolean secondShardAbsent) {
        for (int i = 0; i < got.length; i++) {
            int want = secondShardAbsent && i >= 1100 * 4096 ? FILL : i * 7 + 3;
            if (got[i] != want) {
                throw new AssertionError("element " + i + " (row " + i / 4096 + "): " + got[i] + ", expected " + want);
            }
        }
    }

    @Test
    void everyElementComesOutRightAndAnAbsentShardReadsAsTheFillValue() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = written(store);
        for (int round = 0; round < 3; round++) {
            assertElements(a.read().toIntArray(), false);
        }
        store.erase(StoreKey.of("a/c/1/0"));
        for (int round = 0; round < 3; round++) {
            assertElements(a.read().toIntArray(), true);
        }
    }

    @Test
    void aCorruptInnerChunkFailsTheReadNamingItsShard() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = written(store);
        StoreKey key = StoreKey.of("a/c/1/0");
        ByteBuffer stored = store.get(key).orElseThrow();
        byte[] bad = new byte[stored.remaining()];
        stored.get(bad);
        bad[1000] ^= 1; // inside the shard's first inner chunk (the index is at the end)
        store.set(key, ByteBuffer.wrap(bad));
        for (int round = 0; round < 3; round++) {
            ChunkDecodeException e = assertThrows(ChunkDecodeException.class, a::read);
            assertTrue(e.getMessage().contains("a/c/1/0"), e.getMessage());
        }
    }
}
