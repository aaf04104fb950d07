package com.example.zarr.bitround;

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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The codec through zarrj, against the sample data and tables of zarr-extensions. */
class BitroundTest {
    private static final Zarr ZARR = Zarr.defaults();

    static Optional<Path> vectors() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            Path c = dir.resolve("shared/vectors/zarr-extensions/bitround");
            if (Files.isDirectory(c)) {
                return Optional.of(c);
            }
            dir = dir.getParent();
        }
        return Optional.empty();
    }

    @Test
    void readsTheSampleDataOfZarrExtensions() {
        Optional<Path> dir = vectors();
        Assumptions.assumeTrue(dir.isPresent(), "zarr-extensions bitround sample data not found above the working directory");
        float[] f = ZARR.openArray(ZARR.openStore(dir.get().resolve("bitround_float32.zarr").toString(), true), "/")
                .read().toFloatArray();
        assertArrayEquals(new float[] {0f, 0.1015625f, 1.25f, 12f, 120f, 1280f, Float.NaN, Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY}, f);
        byte[] u = ZARR.openArray(ZARR.openStore(dir.get().resolve("bitround_uint8.zarr").toString(), true), "/")
                .read().toByteArray();
        assertArrayEquals(new byte[] {0, 1, 10, 12, 96, (byte) 128, (byte) 192, (byte) 192, (byte) 224, (byte) 224}, u);
    }

    @Test
    void writesWhatTheTablesOfZarrExtensionsSay(@TempDir Path tmp) {
        Store store = ZARR.openStore(tmp.toString());
        ZarrArray floats = ZARR.array(DataTypes.FLOAT32, 9)
                .codecs("[{\"name\":\"bitround\",\"configuration\":{\"keepbits\":3}},"
                        + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]").create(store, "/f");
        floats.write(new long[] {0}, new long[] {9}, new float[] {0f, 0.1f, 1.2f, 12.3f, 123.4f, 1234.5f, Float.NaN,
                Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY});
        assertArrayEquals(new float[] {0f, 0.1015625f, 1.25f, 12f, 120f, 1280f, Float.NaN, Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY}, ZARR.openArray(store, "/f").read().toFloatArray());
        ZarrArray bytes = ZARR.array(DataTypes.UINT8, 10).codec("bitround", Map.of("keepbits", 3)).create(store, "/u");
        bytes.write(new long[] {0}, new long[] {10}, new byte[] {0, 1, 10, 11, 100, 123, (byte) 200, (byte) 208,
                (byte) 209, (byte) 255});
        assertArrayEquals(new byte[] {0, 1, 10, 12, 96, (byte) 128, (byte) 192, (byte) 192, (byte) 224, (byte) 224},
                ZARR.openArray(store, "/u").read().toByteArray());
    }

    @Test
    void signedIntegersRoundByMagnitudeAndKeepTheirSign(@TempDir Path tmp) {
        Store store = ZARR.openStore(tmp.toString());
        ZarrArray a = ZARR.array(DataTypes.INT16, 5)
                .codecs("[{\"name\":\"bitround\",\"configuration\":{\"keepbits\":2}},"
                        + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}]").create(store, "/i");
        a.write(new long[] {0}, new long[] {5}, new short[] {-11, 11, -32768, 32767, -1});
        // 11 = 0b1011 -> 0b1100 = 12; 32767 rounds up past the range, so its dropped bits are cleared.
        assertArrayEquals(new short[] {-12, 12, -32768, 24576, -1}, ZARR.openArray(store, "/i").read().toShortArray());
    }

    @Test
    void keepbitsAtOrAboveTheMantissaChangesNothing(@TempDir Path tmp) {
        Store store = ZARR.openStore(tmp.toString());
        ZarrArray a = ZARR.array(DataTypes.FLOAT64, 3).codec("bitround", Map.of("keepbits", 52)).create(store, "/d");
        double[] v = {Math.PI, -1e-300, Double.MIN_VALUE};
        a.write(new long[] {0}, new long[] {3}, v);
        assertArrayEquals(v, ZARR.openArray(store, "/d").read().toDoubleArray());
    }

    @Test
    void refusesTypesItCannotRoundAndBadConfiguration(@TempDir Path tmp) {
        Store store = ZARR.openStore(tmp.toString());
        InvalidMetadataException bool = assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(DataTypes.BOOL, 3).codec("bitround", Map.of("keepbits", 3)).create(store, "/b"));
        assertTrue(bool.getMessage().contains("bool"), bool.getMessage());
        InvalidMetadataException zero = assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(DataTypes.FLOAT32, 3).codec("bitround", Map.of("keepbits", 0)).create(store, "/z"));
        assertTrue(zero.getMessage().contains("keepbits"), zero.getMessage());
    }
}
