package dev.zarrj.ext.datetime.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.ext.datetime.DateTimeUnit;
import dev.zarrj.ext.datetime.NumpyTimeType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The datetime64 and timedelta64 arrays of the shared vectors (written by zarr-python and zarrs)
 * read element by element as the manifest says, convert to the instants their generator wrote, and
 * survive a rewrite by zarrj; arrays zarrj writes read back.
 */
class NumpyTimeVectorsTest {
    private static final Zarr ZARR = Zarr.defaults();

    /**
     * The moments zarr-python's generator stored (zarrs tests/data/zarr_python_compat), element by
     * element, as ISO text of the stored value (numpy truncates to the unit); null is NaT.
     */
    private static final Map<String, String[]> ISO = Map.of(
            "zarrs/zarr_python_compat/datetime64[s].zarr", new String[] {"1970-01-01T00:00:00Z", null,
                "2005-02-03T00:00:00Z", "2005-02-03T04:05:00Z", "2005-02-03T04:05:06Z", null},
            "zarrs/zarr_python_compat/datetime64[10ms].zarr", new String[] {"1970-01-01T00:00:00Z", null,
                "2005-02-03T00:00:00Z", "2005-02-03T04:05:00Z", "2005-02-03T04:05:06Z", null},
            "zarrs/zarr_python_compat/datetime64[h].zarr", new String[] {"1970-01-01T00:00:00Z", null,
                "2005-02-03T00:00:00Z", "2005-02-03T04:00:00Z", "2005-02-03T04:00:00Z", null},
            "zarrs/zarr_python_compat/datetime64[W].zarr", new String[] {"1970-01-01T00:00:00Z", null,
                "2005-02-03T00:00:00Z", "2005-02-03T00:00:00Z", "2005-02-03T00:00:00Z", null},
            "zarrs/zarr_python_compat/datetime64[Y].zarr", new String[] {"1970-01-01T00:00:00Z", null,
                "2005-01-01T00:00:00Z", "2005-01-01T00:00:00Z", "2005-01-01T00:00:00Z", null},
            "zarrs/zarr_python_compat/timedelta64[10ms].zarr", new String[] {"PT31536000S", "PT1209600S",
                "PT259200S", "PT14400S", "PT300S", "PT6S", "PT7S", "PT8S", "PT9S", "PT0S", null},
            "zarrs/issue_287.zarr/meta/date", new String[] {"2023-01-01T00:00:00Z", "2023-01-02T00:00:00Z",
                "2023-01-03T00:00:00Z"});

    static Optional<Path> vectors() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            Path candidate = dir.resolve("shared").resolve("vectors");
            if (Files.isRegularFile(candidate.resolve("MANIFEST.json"))) {
                return Optional.of(candidate);
            }
            dir = dir.getParent();
        }
        return Optional.empty();
    }

    private static List<JsonNode> timeArrays(Path root) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode a : new ObjectMapper().readTree(root.resolve("MANIFEST.json").toFile()).get("arrays")) {
            String name = a.get("data_type").path("name").asText();
            if (name.equals("numpy.datetime64") || name.equals("numpy.timedelta64")) {
                out.add(a);
            }
        }
        return out;
    }

    private static Path vectorsOrSkip() {
        Optional<Path> root = vectors();
        Assumptions.assumeTrue(root.isPresent(), "shared test vectors not found (no shared/vectors above the working"
                + " directory)");
        return root.get();
    }

    @TestFactory
    Stream<DynamicTest> everyTimeVectorReadsAsTheManifestSays() throws IOException {
        Path root = vectorsOrSkip();
        List<JsonNode> arrays = timeArrays(root);
        assertEquals(18, arrays.size(), "the manifest lists 12 datetime64 and 6 timedelta64 arrays");
        return arrays.stream().map(a -> DynamicTest.dynamicTest(a.get("id").asText(), () -> {
            String id = a.get("id").asText();
            Store store = ZARR.openStore(root.resolve(a.get("path").asText()).toString(), true);
            ZarrArray array = ZARR.openArray(store, "/");
            NumpyTimeType type = assertInstanceOf(NumpyTimeType.class, array.dataType(), id);
            assertEquals(a.get("data_type").get("name").asText(), type.name());
            assertEquals(a.get("data_type").get("configuration").get("scale_factor").asInt(), type.scaleFactor());
            assertEquals(NumpyTimeType.NAT,
                    ByteBuffer.wrap(array.fillValue().bytes()).order(ByteOrder.nativeOrder()).getLong(), id + " fill value");
            NdArray values = array.read();
            JsonNode expected = a.get("expected").get("values").get("values");
            assertEquals(expected.size(), values.elementCount(), id);
            long[] longs = values.toLongArray();
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(Long.parseLong(expected.get(i).asText()), values.getLong(i), id + " element " + i);
                assertEquals(values.getLong(i), longs[i]);
            }
            String[] iso = ISO.get(id);
            if (iso != null) {
                for (int i = 0; i < iso.length; i++) {
                    assertEquals(Optional.ofNullable(iso[i]), type.toIsoString(longs[i]), id + " element " + i);
                }
            }
            // Rewritten by zarrj with the same metadata: the same document and elements.
            Store copy = ZARR.openStore("memory:");
            ZarrArray target = ZARR.createArray(copy, "/", array.metadata(), false);
            target.write(values);
            ZarrArray back = ZARR.openArray(copy, "/");
            assertEquals(array.metadata(), back.metadata(), id + " metadata");
            assertArrayEquals(longs, back.read().toLongArray(), id);
            assertChunksByteIdenticalBeforeCompression(store, array, values, id);
        }));
    }

    /**
     * zstd output differs between implementations, so the comparison is one step earlier: each
     * chunk the other implementation stored, decompressed, equals the chunk zarrj encodes with the
     * same chain minus zstd (bytes, little endian), byte for byte.
     */
    private static void assertChunksByteIdenticalBeforeCompression(Store original, ZarrArray array, NdArray values,
                                                                   String id) {
        JsonNode codecs = array.metadata().get("codecs");
        assertEquals("bytes", codecs.get(0).get("name").asText(), id);
        assertEquals("zstd", codecs.get(1).get("name").asText(), id);
        BytesToBytesCodec zstd = (BytesToBytesCodec) ZARR.registry().find(ExtensionPoint.CODEC, "zstd", CodecProvider.class)
                .orElseThrow().create(ExtensionConfig.of("zstd", codecs.get(1).get("configuration"), "/codecs/1/configuration"),
                        ZARR.providerContext());
        ObjectNode plain = array.metadata().deepCopy();
        plain.putArray("codecs").add(codecs.get(0));
        Store copy = ZARR.openStore("memory:");
        ZARR.createArray(copy, "/", plain, false).write(values);
        int checked = 0;
        for (long[] c : array.storedChunks()) {
            StoreKey key = StoreKey.of(array.chunkKey(c));
            ByteBuffer theirs = zstd.decode(original.get(key).orElseThrow(), EncodedSize.unbounded());
            ByteBuffer ours = copy.get(key).orElseThrow(() -> new AssertionError(id + ": zarrj stored no " + key));
            assertEquals(theirs, ours, id + " chunk " + key + " before compression");
            checked++;
        }
        assertTrue(checked > 0, id + " has stored chunks");
    }

    @Test
    void arraysZarrjWritesReadBackWithTheirTypeAndNaT() {
        NumpyTimeType type = NumpyTimeType.datetime64(DateTimeUnit.MILLISECOND, 10);
        Store store = ZARR.openStore("memory:");
        ZarrArray a = ZARR.array(type, 7).chunks(2).fillValue("NaT").create(store, "/t");
        long[] written = {0, NumpyTimeType.NAT, 110740350600L, -1, Long.MAX_VALUE};
        a.write(new long[] {0}, new long[] {5}, written);
        ZarrArray back = ZARR.openArray(store, "/t");
        assertEquals(type, back.dataType());
        ObjectNode md = back.metadata();
        assertEquals("{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"ms\",\"scale_factor\":10}}",
                md.get("data_type").toString());
        assertEquals("\"NaT\"", md.get("fill_value").toString(), "the fill value as given");
        assertEquals(NumpyTimeType.NAT, ByteBuffer.wrap(back.fillValue().bytes()).order(ByteOrder.nativeOrder()).getLong());
        JsonNode canonical = type.fillValueToJson(back.fillValue());
        assertTrue(canonical.isIntegralNumber() && canonical.longValue() == Long.MIN_VALUE,
                "NaT's canonical form is the integer, as zarr-python writes it: " + canonical);
        long[] all = back.read().toLongArray();
        assertArrayEquals(written, java.util.Arrays.copyOf(all, 5));
        assertEquals(NumpyTimeType.NAT, all[5], "an unwritten chunk holds the fill value NaT");
        assertEquals(NumpyTimeType.NAT, all[6]);
    }
}
