package dev.zarrj.codec.blosc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.conformance.vectors.SharedVectors;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Arrays that use blosc, read and written through {@link Zarr}, as a user would. */
class BloscEndToEndTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final ObjectMapper JSON = new ObjectMapper();

    static Path vectors() {
        Optional<Path> root = SharedVectors.root();
        if (root.isEmpty()) {
            System.out.println("BloscEndToEndTest: skipped: " + SharedVectors.ABSENT);
        }
        Assumptions.assumeTrue(root.isPresent(), SharedVectors.ABSENT);
        return root.get();
    }

    /** float32 arrays whose element i is i, written by zarrs and by zarr-python (bitshuffled zstd). */
    @ParameterizedTest
    @ValueSource(strings = {"zarrs/v3/array_blosc.zarr", "zarrs/v3/array_blosc_transpose.zarr",
        "zarrs/v3_zarr_python/array_blosc.zarr"})
    void zarrsArraysReadAsArange(String path) {
        Store store = ZARR.openStore(vectors().resolve(path).toString(), true);
        ZarrArray array = ZARR.openArray(store, "/");
        assertEquals("blosc", array.codecs().get(array.codecs().size() - 1).get("name").asText());
        NdArray values = array.read();
        assertEquals(100, values.elementCount());
        for (int i = 0; i < 100; i++) {
            assertEquals(i, values.getDouble(i), path + " element " + i);
        }
    }

    /** Every array of the manifest that uses blosc (and no codec from another module) reads as it says. */
    @TestFactory
    Stream<DynamicTest> everyBloscArrayOfTheManifestReads() throws Exception {
        Path root = vectors();
        JsonNode manifest = JSON.readTree(root.resolve("MANIFEST.json").toFile());
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode a : manifest.get("arrays")) {
            String features = a.get("features").toString();
            if (!features.contains("\"codec:blosc\"") || features.contains("sharding")) {
                continue;
            }
            tests.add(DynamicTest.dynamicTest(a.get("id").asText(), () -> {
                ZarrArray array = ZARR.openArray(ZARR.openStore(root.resolve(a.get("path").asText()).toString(), true), "/");
                NdArray values = array.read();
                JsonNode expected = a.get("expected").get("values");
                for (int i = 0; i < values.elementCount(); i++) {
                    JsonNode e = expected.get("kind").asText().equals("list") ? expected.get("values").get(i) : null;
                    if (e != null && e.isBoolean()) {
                        assertEquals(e.booleanValue(), values.getBoolean(i), a.get("id").asText() + " element " + i);
                    } else {
                        double want = e != null ? e.asDouble()
                                : expected.get("start").asDouble() + i * expected.get("step").asDouble();
                        assertEquals(want, values.getDouble(i), a.get("id").asText() + " element " + i);
                    }
                }
            }));
        }
        assertTrue(tests.size() >= 20, "the manifest has the blosc arrays it had: " + tests.size());
        return tests.stream();
    }

    /**
     * A new array whose blosc codec leaves {@code typesize} out gets the data type's size in its
     * metadata, writes frames with it, and reads back what it wrote.
     */
    @Test
    void aNewArrayRecordsTheTypesizeAndRoundTrips() {
        Store store = ZARR.openStore("memory:");
        ZarrArray array = ZARR.array(DataTypes.FLOAT64, 50, 70).chunks(16, 32)
                .codecs("[{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}},"
                        + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
                        + "{\"name\":\"blosc\",\"configuration\":"
                        + "{\"cname\":\"zstd\",\"clevel\":5,\"shuffle\":\"bitshuffle\",\"blocksize\":0}}]")
                .create(store, "/a");
        JsonNode blosc = ZARR.openArray(store, "/a").codecs().get(2);
        assertEquals(jsonOf("{\"name\":\"blosc\",\"configuration\":{\"cname\":\"zstd\",\"clevel\":5,"
                + "\"shuffle\":\"bitshuffle\",\"typesize\":8,\"blocksize\":0}}"), jsonOf(blosc.toString()));

        double[] data = new double[50 * 70];
        for (int i = 0; i < data.length; i++) {
            data[i] = i * 0.25;
        }
        array.write(NdArray.copyOf(DataTypes.FLOAT64, data, 50, 70));
        NdArray back = ZARR.openArray(store, "/a").read();
        for (int i = 0; i < data.length; i++) {
            assertEquals(data[i], back.getDouble(i), "element " + i);
        }
        ByteBuffer chunk = store.get(StoreKey.of(array.chunkKey(1, 1))).orElseThrow();
        BloscHeader h = BloscHeader.read(chunk, dev.zarrj.api.EncodedSize.fixed(16 * 32 * 8), TestData.system().compressors());
        assertEquals(8, h.typesize());
        assertTrue((h.flags() & BloscHeader.BIT_SHUFFLE) != 0);
        assertTrue(chunk.remaining() < 16 * 32 * 8, "compressed: " + chunk.remaining());
    }

    /** Metadata from elsewhere that lacks a required typesize: readable, but writing says what to fix. */
    @Test
    void anArrayWithoutTypesizeIsReadableButNotWritable() throws Exception {
        Store store = ZARR.openStore("memory:");
        ObjectNode meta = (ObjectNode) JSON.readTree("{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[8],"
                + "\"data_type\":\"int32\",\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[8]}},"
                + "\"chunk_key_encoding\":{\"name\":\"default\"},\"fill_value\":7,\"codecs\":["
                + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
                + "{\"name\":\"blosc\",\"configuration\":{\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":\"shuffle\","
                + "\"blocksize\":0}}]}");
        ZarrArray array = ZARR.createArray(store, "/b", meta, false);
        assertEquals(7, array.read().getLong(3));
        ZarrException e = assertThrows(ZarrException.class,
                () -> array.write(NdArray.copyOf(DataTypes.INT32, new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 8)));
        Throwable cause = e;
        while (!(cause instanceof InvalidMetadataException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        assertTrue(cause instanceof InvalidMetadataException, "caused by the metadata: " + e);
        assertEquals("/codecs/1/configuration/typesize", ((InvalidMetadataException) cause).pointer());
        assertTrue(e.getMessage().contains("typesize"), e.getMessage());
    }

    private static JsonNode jsonOf(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception ex) {
            throw new AssertionError(ex);
        }
    }
}
