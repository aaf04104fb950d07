package dev.zarrj.codec.registry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.conformance.vectors.SharedVectors;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The {@code bitround} sample data of zarr-extensions (written by zarrs): zarrj reads the values
 * the sample README lists, and encoding the unrounded inputs gives the same chunk bytes.
 */
class BitRoundVectorsTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final String CODECS = "[{\"name\":\"bitround\",\"configuration\":{\"keepbits\":3}},"
            + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]";

    private static Path vector(String name) {
        Assumptions.assumeTrue(SharedVectors.root().isPresent(), SharedVectors.ABSENT);
        return SharedVectors.root().get().resolve("zarr-extensions/bitround").resolve(name);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    @Test
    void float32ReadsAndReencodesByteForByte() throws IOException {
        Path dir = vector("bitround_float32.zarr");
        float[] read = ZARR.openArray(ZARR.openStore(dir.toString(), true), "/").read().toFloatArray();
        assertArrayEquals(new float[] {0f, 0.1015625f, 1.25f, 12f, 120f, 1280f, Float.NaN, Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY}, read);

        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(DataTypes.FLOAT32, 9).chunks(9).codecs(CODECS).create(store, "/f");
        a.write(NdArray.copyOf(DataTypes.FLOAT32, new float[] {0f, 0.1f, 1.2f, 12.3f, 123.4f, 1234.5f, Float.NaN,
            Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}, 9));
        assertArrayEquals(Files.readAllBytes(dir.resolve("c/0")), bytes(store.get(StoreKey.of("f/c/0")).orElseThrow()));
    }

    @Test
    void uint8ReadsAndReencodesByteForByte() throws IOException {
        Path dir = vector("bitround_uint8.zarr");
        byte[] read = ZARR.openArray(ZARR.openStore(dir.toString(), true), "/").read().toByteArray();
        assertArrayEquals(new byte[] {0, 1, 10, 12, 96, (byte) 128, (byte) 192, (byte) 192, (byte) 224, (byte) 224},
                read);

        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(DataTypes.UINT8, 10).chunks(10).codecs(CODECS).create(store, "/u");
        a.write(NdArray.copyOf(DataTypes.UINT8, new byte[] {0, 1, 10, 11, 100, 123, (byte) 200, (byte) 208,
            (byte) 209, (byte) 255}, 10));
        assertArrayEquals(Files.readAllBytes(dir.resolve("c/0")), bytes(store.get(StoreKey.of("u/c/0")).orElseThrow()));
    }
}
