package dev.zarrj.codec.zstd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.Zstd;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Arrays compressed with zstd, read and written through zarr-core with this module installed. */
class ZstdArrayEndToEndTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final ObjectMapper JSON = new ObjectMapper();

    @AfterAll
    static void close() {
        ZARR.close();
    }

    /** The shared test vectors: {@code shared/vectors} in the working directory or one above it. */
    static Optional<Path> vectors() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("vectors");
            if (Files.isRegularFile(candidate.resolve("MANIFEST.json"))) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    static Path vectorsOrSkip() {
        Optional<Path> root = vectors();
        Assumptions.assumeTrue(root.isPresent(), "shared test vectors not found: no shared/vectors/MANIFEST.json"
                + " in or above " + Path.of("").toAbsolutePath());
        return root.get();
    }

    /** Written by zarrs and by zarr-python (numcodecs): float32 10×10 in 5×5 chunks, element i == i. */
    @ParameterizedTest
    @ValueSource(strings = {"zarrs/v3/array_zstd.zarr", "zarrs/v3_zarr_python/array_zstd.zarr"})
    void readsArraysWrittenByOtherImplementations(String id) {
        Path root = vectorsOrSkip();
        ZarrArray array = ZARR.openArray(ZARR.openStore(root.resolve(id).toString(), true), "/");
        assertEquals("zstd", array.codecs().get(1).get("name").asText());
        assertEquals(5, array.codecs().get(1).get("configuration").get("level").asInt());
        NdArray values = array.read();
        assertArrayEquals(new long[] {10, 10}, values.shape());
        for (int i = 0; i < 100; i++) {
            assertEquals(i, values.getDouble(i), id + " element " + i);
        }
    }

    /**
     * Written by zarr-java (zstd-jni) in the OME-Zarr samples; expected values were decoded
     * independently by zarrita and a mini-decoder.
     */
    @ParameterizedTest
    @ValueSource(strings = {"zarr-java/ome/v0.5/0", "zarr-java/ome/v0.5/1", "zarr-java/ome/v0.5/labels/nuclei/0",
            "zarr-java/ome/v0.5_hcs/A/1/0/0"})
    void readsZarrJavaArraysAsTheirRegressionValues(String id) throws IOException {
        Path root = vectorsOrSkip();
        JsonNode expected = JSON.readTree(root.resolve("_decoded").resolve(id.replace("/", "__") + ".json").toFile());
        NdArray values = ZARR.openArray(ZARR.openStore(root.resolve(id).toString(), true), "/").read();
        JsonNode list = expected.get("values");
        assertEquals(list.size(), values.elementCount(), id + " element count");
        for (int i = 0; i < list.size(); i++) {
            assertEquals((float) list.get(i).asDouble(), (float) values.getDouble(i), id + " element " + i);
        }
    }

    @Test
    void anArrayWrittenByZarrjReadsBackAndItsChunksAreStandardFrames(@TempDir Path dir) throws IOException {
        Store store = ZARR.openStore(dir.toString());
        ZarrArray written = ZARR.array(DataTypes.FLOAT32, 100, 50).chunks(30, 20)
                .codec("zstd", Map.of("level", 5, "checksum", true)).create(store, "/a");
        float[] data = new float[100 * 50];
        for (int i = 0; i < data.length; i++) {
            data[i] = i;
        }
        written.write(new long[] {0, 0}, new long[] {100, 50}, data);

        ZarrArray read = ZARR.openArray(ZARR.openStore(dir.toString(), true), "/a");
        assertArrayEquals(data, read.read().toFloatArray());
        assertArrayEquals(new float[] {20 * 50 + 40, 20 * 50 + 41}, read.read(new long[] {20, 40}, new long[] {1, 2})
                .toFloatArray());

        JsonNode codec = JSON.readTree(dir.resolve("a").resolve("zarr.json").toFile()).get("codecs").get(1);
        assertEquals(JSON.readTree("{\"name\":\"zstd\",\"configuration\":{\"level\":5,\"checksum\":true}}"), codec);
        List<Path> chunks;
        try (Stream<Path> files = Files.walk(dir.resolve("a").resolve("c"))) {
            chunks = files.filter(Files::isRegularFile).collect(Collectors.toList());
        }
        assertEquals(4 * 3, chunks.size(), chunks.toString());
        for (Path chunk : chunks) {
            byte[] frame = Files.readAllBytes(chunk);
            assertEquals(30 * 20 * 4, Zstd.getFrameContentSize(frame), chunk + " declares the chunk's size");
            assertEquals(0x04, frame[4] & 0x04, chunk + " carries a checksum");
            assertEquals(frame.length, Zstd.findFrameCompressedSize(frame), chunk + " is one frame");
        }
    }

    @Test
    void defaultsAreWrittenIntoNewMetadata(@TempDir Path dir) throws IOException {
        Store store = ZARR.openStore(dir.toString());
        ZarrArray a = ZARR.array(DataTypes.INT32, 10).codec("zstd").create(store, "/d");
        a.write(new long[] {0}, new long[] {10}, new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        JsonNode codec = JSON.readTree(dir.resolve("d").resolve("zarr.json").toFile()).get("codecs").get(1);
        assertEquals(JSON.readTree("{\"name\":\"zstd\",\"configuration\":{\"level\":0,\"checksum\":false}}"), codec);
        assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
                ZARR.openArray(ZARR.openStore(dir.toString(), true), "/d").read().toIntArray());
    }
}
