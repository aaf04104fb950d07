package dev.zarrj.ext.optional.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.ext.optional.OptionalConfiguration;
import dev.zarrj.ext.optional.OptionalType;
import org.junit.jupiter.api.Test;

/**
 * An optional array created without codecs is stored as zarrs stores it, never as zarrj's
 * in-memory layout through {@code bytes}, which refuses the type.
 */
class OptionalDefaultCodecTest {
    private static final Zarr ZARR = Zarr.defaults();

    @Test
    void anArrayCreatedWithoutCodecsUsesZarrsChain() {
        for (OptionalType type : new OptionalType[] {OptionalType.of(DataTypes.UINT8),
                OptionalType.of(OptionalType.of(DataTypes.INT16))}) {
            Store store = ZARR.openStore("memory:");
            ZarrArray a = ZARR.array(type, 5).chunks(5).create(store, "/a");
            assertEquals(OptionalConfiguration.zarrsDefault(type).toJson(), a.codecs().get(0), type.name());
            NdArray values = NdArray.allocate(type.inner(), 5);
            NdArray data = OptionalType.fromValues(type, values, new boolean[] {false, true, false, true, true});
            a.write(data);
            NdArray back = ZARR.openArray(store, "/a").read();
            assertTrue(back.contentEquals(data), type.toString());
            assertArrayEquals(new boolean[] {true, false, true, false, false},
                    new boolean[] {OptionalType.isPresent(back, 0), OptionalType.isPresent(back, 1),
                        OptionalType.isPresent(back, 2), OptionalType.isPresent(back, 3), OptionalType.isPresent(back, 4)});
        }
    }

    @Test
    void bytesRefusesTheTypeNamingZarrsCodec() {
        OptionalType type = OptionalType.of(DataTypes.UINT8);
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> ZARR.array(type, 5)
                .codecs("[{\"name\": \"bytes\"}]").create(ZARR.openStore("memory:"), "/a"));
        assertTrue(e.getMessage().contains("bytes cannot store") && e.getMessage().contains("packbits"), e.getMessage());
    }
}
