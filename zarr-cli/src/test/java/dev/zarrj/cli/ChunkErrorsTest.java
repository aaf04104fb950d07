package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** A corrupt gzip chunk, read through zarr-core with the gzip plugin: the error names the key. */
class ChunkErrorsTest {
    private static final Zarr ZARR = Zarr.defaults();

    private static ZarrArray arrayWith(String codecs, Store store) {
        return ZARR.array(DataTypes.INT16, 4, 6).chunks(2, 3).codecs(codecs).create(store, "/arr");
    }

    @Test
    void corruptGzipNamesTheChunkKey() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = arrayWith("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
                + "{\"name\":\"gzip\",\"configuration\":{\"level\":1}}]", store);
        a.write(new long[] {0, 0}, new long[] {2, 3}, new short[] {1, 2, 3, 4, 5, 6});
        ByteBuffer good = store.get(StoreKey.of("arr/c/0/0")).orElseThrow();
        ByteBuffer bad = ByteBuffer.allocate(good.remaining()).put(good.duplicate()).flip();
        bad.put(12, (byte) (bad.get(12) ^ 0x55));
        store.set(StoreKey.of("arr/c/0/0"), bad);
        ChunkDecodeException e = assertThrows(ChunkDecodeException.class, () -> a.read());
        assertEquals("arr/c/0/0", e.key());
        assertTrue(e.getMessage().contains("gzip"), e.getMessage());
        store.set(StoreKey.of("arr/c/0/0"), good.duplicate().limit(good.remaining() / 2));
        assertThrows(ChunkDecodeException.class, () -> a.read());
    }

}
