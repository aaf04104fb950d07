package dev.zarrj.codec.registry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.codec.registry.RegistryCodecs.PackBitsPadding;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Arrays with this module's codecs written and read through {@link Zarr}, as a user would. */
class RegistryArrayEndToEndTest {
    private static final Zarr ZARR = Zarr.defaults();

    @Test
    void packbitsStoresABoolChunkInOneBitPerElement() {
        Store store = ZARR.openStore("memory:");
        ZarrArray array = ZARR.array(DataTypes.BOOL, 20).chunks(10)
                .codecs(RegistryCodecs.packbits(PackBitsPadding.FIRST_BYTE)).create(store, "/m");
        boolean[] data = new boolean[20];
        for (int i = 0; i < data.length; i++) {
            data[i] = i % 3 == 0;
        }
        array.write(NdArray.copyOf(DataTypes.BOOL, data, 20));
        assertArrayEquals(data, ZARR.openArray(store, "/m").read().toBooleanArray());
        ByteBuffer chunk = store.get(StoreKey.of("m/c/0")).orElseThrow();
        // elements 0, 3, 6, 9 set: 0b0100_1001, 0b10; 6 padding bits recorded first
        assertEquals(3, chunk.remaining());
        assertEquals(6, chunk.get(0));
        assertEquals(0x49, chunk.get(1) & 0xff);
        assertEquals(0x02, chunk.get(2) & 0xff);
    }
}
