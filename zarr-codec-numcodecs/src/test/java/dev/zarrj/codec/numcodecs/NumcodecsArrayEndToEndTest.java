package dev.zarrj.codec.numcodecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.BytesConfiguration;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Arrays with numcodecs codecs written and read through {@link Zarr}, as a user would. */
class NumcodecsArrayEndToEndTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * fixedscaleoffset turns float64 into int16 before the bytes codec, and shuffle after it then
     * works on 2-byte elements: the metadata records the types zarr-python would (dtype filled in,
     * elementsize 2), the chunks hold 2-byte values, and the data reads back within the scale.
     */
    @Test
    void aTypeChangingFilterFeedsTheNextCodecsItsType() {
        Store store = ZARR.openStore("memory:");
        ZarrArray array = ZARR.array(DataTypes.FLOAT64, 20, 30).chunks(10, 10)
                .codecs("[{\"name\":\"numcodecs.fixedscaleoffset\",\"configuration\":{\"offset\":1000,\"scale\":10,"
                        + "\"astype\":\"<i2\"}},{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
                        + "{\"name\":\"numcodecs.shuffle\"},{\"name\":\"numcodecs.zlib\",\"configuration\":{\"level\":5}},"
                        + "{\"name\":\"numcodecs.crc32\"}]")
                .create(store, "/a");
        JsonNode codecs = ZARR.openArray(store, "/a").codecs();
        assertEquals("float64", codecs.get(0).get("configuration").get("dtype").asText());
        assertEquals(2, codecs.get(2).get("configuration").get("elementsize").asInt());

        double[] data = new double[20 * 30];
        for (int i = 0; i < data.length; i++) {
            data[i] = 1000 + Math.sin(i) * 50;
        }
        array.write(NdArray.copyOf(DataTypes.FLOAT64, data, 20, 30));
        NdArray back = ZARR.openArray(store, "/a").read();
        for (int i = 0; i < data.length; i++) {
            assertEquals(data[i], back.getDouble(i), 0.05 + 1e-9, "element " + i);
        }
        ByteBuffer chunk = store.get(StoreKey.of("a/c/1/2")).orElseThrow();
        ByteBuffer decoded = new dev.zarrj.codec.numcodecs.internal.TestAccess().zlibDecode(chunk, 5);
        assertEquals(10 * 10 * 2, decoded.remaining(), "int16 elements reached the bytes codec");
    }

    @Test
    void deltaBz2Fletcher32RoundTripExactly() {
        Store store = ZARR.openStore("memory:");
        ZarrArray array = ZARR.array(DataTypes.INT32, 100).chunks(30)
                .codecs(NumcodecsConfiguration.delta("int32"), BytesConfiguration.LITTLE_ENDIAN,
                        NumcodecsConfiguration.bz2(9), NumcodecsConfiguration.fletcher32())
                .create(store, "/d");
        int[] data = new int[100];
        for (int i = 0; i < data.length; i++) {
            data[i] = i * i - 7 * i;
        }
        array.write(NdArray.copyOf(DataTypes.INT32, data, 100));
        assertArrayEquals(data, ZARR.openArray(store, "/d").read().toIntArray());

        // A flipped bit in a stored chunk's checksum is reported as a checksum mismatch.
        ByteBuffer stored = store.get(StoreKey.of("d/c/1")).orElseThrow();
        byte[] bytes = new byte[stored.remaining()];
        stored.get(bytes);
        bytes[bytes.length - 1] ^= 1;
        store.set(StoreKey.of("d/c/1"), ByteBuffer.wrap(bytes));
        ZarrException e = assertThrows(ZarrException.class, () -> ZARR.openArray(store, "/d").read());
        Throwable t = e;
        while (!(t instanceof ChecksumMismatchException) && t.getCause() != null) {
            t = t.getCause();
        }
        assertTrue(t instanceof ChecksumMismatchException, e.toString());
        assertTrue(t.getMessage().contains("numcodecs.fletcher32"), t.getMessage());
    }

    @Test
    void packbitsLz4AndAstypeRoundTrip() {
        Store store = ZARR.openStore("memory:");
        ZarrArray bits = ZARR.array(DataTypes.BOOL, 37).chunks(13)
                .codecs(NumcodecsConfiguration.packbits(), BytesConfiguration.LITTLE_ENDIAN,
                        NumcodecsConfiguration.lz4(1))
                .create(store, "/b");
        boolean[] flags = new boolean[37];
        for (int i = 0; i < flags.length; i++) {
            flags[i] = i % 3 == 0 || i % 5 == 1;
        }
        bits.write(NdArray.copyOf(DataTypes.BOOL, flags, 37));
        assertArrayEquals(flags, ZARR.openArray(store, "/b").read().toBooleanArray());

        ZarrArray small = ZARR.array(DataTypes.FLOAT64, 10).chunks(10)
                .codecs(NumcodecsConfiguration.astype("<f4", "<f8"), BytesConfiguration.LITTLE_ENDIAN,
                        NumcodecsConfiguration.adler32())
                .create(store, "/f");
        small.write(NdArray.copyOf(DataTypes.FLOAT64, new double[] {0.1, 1, 2, 3, 4, 5, 6, 7, 8, 9.5}, 10));
        NdArray back = ZARR.openArray(store, "/f").read();
        assertEquals((double) 0.1f, back.getDouble(0));
        assertEquals(9.5, back.getDouble(9));
        assertEquals(4 + 10 * 4, store.get(StoreKey.of("f/c/0")).orElseThrow().remaining(), "float32 stored");
    }

    @Test
    void aFilterConfiguredForAnotherTypeIsRefusedNamingBoth() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> ZARR.array(DataTypes.INT16, 10)
                .chunks(10).codecs(NumcodecsConfiguration.delta("int32"), BytesConfiguration.LITTLE_ENDIAN)
                .create(ZARR.openStore("memory:"), "/x"));
        assertTrue(e.getMessage().contains("'dtype'") && e.getMessage().contains("int32")
                && e.getMessage().contains("int16"), e.getMessage());
    }

    @Test
    void numcodecsWritesWhatZarrPythonWrites() throws Exception {
        assertEquals(JSON.readTree("{\"name\":\"numcodecs.lzma\",\"configuration\":{\"format\":1,\"check\":-1,"
                + "\"preset\":6,\"filters\":null}}"), NumcodecsConfiguration.lzma(6).toJson());
        assertEquals(JSON.readTree("{\"name\":\"numcodecs.astype\",\"configuration\":{\"encode_dtype\":\"<f4\","
                + "\"decode_dtype\":\"<f8\"}}"), NumcodecsConfiguration.astype("<f4", "<f8").toJson());
        assertThrows(IllegalArgumentException.class, () -> new NumcodecsConfiguration("zlib", null));
    }
}
