package dev.zarrj.codec.registry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.InvalidMetadataException;
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

    /**
     * The scale_offset README's last example through the pipeline: float64 with a NaN fill value,
     * scale_offset then cast_value to uint8, so the bytes codec stores one byte per element and NaN
     * as 0; 0.0 .. 2540.0 come back to within the scale.
     */
    @Test
    void scaleOffsetThenCastValueStoreFloat64AsUint8() {
        Store store = ZARR.openStore("memory:");
        ZARR.array(DataTypes.FLOAT64, 6).chunks(6).fillValue(TextNode.valueOf("NaN"))
                .codecs("[{\"name\": \"scale_offset\", \"configuration\": {\"offset\": -10, \"scale\": 0.1}},"
                        + " {\"name\": \"cast_value\", \"configuration\": {\"data_type\": \"uint8\","
                        + " \"rounding\": \"nearest-even\", \"scalar_map\": {\"encode\": [[\"NaN\", 0]],"
                        + " \"decode\": [[0, \"NaN\"]]}}}, \"bytes\"]")
                .create(store, "/s");
        double[] data = {0.0, 2540.0, 1234.5, Double.NaN, 7.0, 100.0};
        ZARR.openArray(store, "/s").write(NdArray.copyOf(DataTypes.FLOAT64, data, 6));
        ByteBuffer chunk = store.get(StoreKey.of("s/c/0")).orElseThrow();
        assertEquals(6, chunk.remaining(), "one uint8 per element");
        assertEquals(1, chunk.get(0));
        assertEquals(255, chunk.get(1) & 0xff);
        assertEquals(0, chunk.get(3), "NaN stored as 0");
        double[] back = ZARR.openArray(store, "/s").read().toDoubleArray();
        for (int i = 0; i < data.length; i++) {
            if (Double.isNaN(data[i])) {
                assertTrue(Double.isNaN(back[i]), "element " + i);
            } else {
                assertEquals(data[i], back[i], 5.0 + 1e-9, "element " + i);
            }
        }
    }

    /** A fill value that cannot come back through cast_value fails the open, naming it. */
    @Test
    void aFillValueCastValueCannotCarryFailsWhenTheArrayIsCreated() {
        Store store = ZARR.openStore("memory:");
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> ZARR.array(DataTypes.FLOAT64, 4)
                .fillValue(0.5).codecs("[{\"name\": \"cast_value\", \"configuration\": {\"data_type\": \"int32\"}},"
                        + " \"bytes\"]").create(store, "/c"));
        assertTrue(e.getMessage().contains("fill value 0.5"), e.getMessage());
    }

    /** reshape before bytes: a [4, 6] chunk stored as [24] reads back as written. */
    @Test
    void reshapeRoundTripsThroughThePipeline() {
        Store store = ZARR.openStore("memory:");
        ZARR.array(DataTypes.INT32, 8, 6).chunks(4, 6)
                .codecs("[{\"name\": \"reshape\", \"configuration\": {\"shape\": [-1]}},"
                        + " {\"name\": \"bytes\", \"configuration\": {\"endian\": \"big\"}}]")
                .create(store, "/r");
        int[] data = new int[48];
        for (int i = 0; i < data.length; i++) {
            data[i] = i * 7 - 100;
        }
        ZARR.openArray(store, "/r").write(NdArray.copyOf(DataTypes.INT32, data, 8, 6));
        assertArrayEquals(data, ZARR.openArray(store, "/r").read().toIntArray());
    }
}
