package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.Region;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.registry.ExtensionPoint;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Reads every sharded array of the shared test vectors (written by zarr-python, zarrita.js, zarrs
 * and zarr-java: index at the start and at the end, crc32c, empty inner chunks, inner chunks not in
 * C order, edge shards) whose codecs are all installed, and compares each element with the
 * manifest; then reads random regions (partial shard reads) and compares them with the whole, and
 * writes the data again with zarrj under the same metadata.
 *
 * <p>The vectors are found by walking up from the working directory to {@code shared/vectors};
 * without them the tests are skipped, saying why.
 */
class ShardVectorsTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final List<String> REQUIRED = List.of(
            "zarrita.js/data.zarr/2d.chunked.compressed.sharded.filled.i2",
            "zarrita.js/data.zarr/3d.contiguous.compressed.sharded.i2",
            "zarrs/sharded_array_write_read.zarr/group/array",
            "zarrita.js/data.zarr/1d.contiguous.compressed.sharded.f8");

    static Optional<Path> root() {
        for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("vectors");
            if (Files.isRegularFile(candidate.resolve("MANIFEST.json"))) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static JsonNode manifest() throws IOException {
        Optional<Path> root = root();
        if (root.isEmpty()) {
            System.out.println("ShardVectorsTest skipped: no shared/vectors/MANIFEST.json above " + System.getProperty("user.dir"));
        }
        Assumptions.assumeTrue(root.isPresent(), "shared/vectors/MANIFEST.json not found above the working directory");
        return new ObjectMapper().readTree(root.get().resolve("MANIFEST.json").toFile());
    }

    private static boolean sharded(JsonNode a) {
        for (JsonNode c : a.get("codecs")) {
            if (c.asText().startsWith("sharding_indexed")) {
                return true;
            }
        }
        return false;
    }

    /** Codecs the array uses, outer and inner, that are not installed. */
    private static Set<String> missing(JsonNode a) {
        Set<String> installed = ZARR.registry().names(ExtensionPoint.CODEC);
        Set<String> out = new TreeSet<>();
        for (JsonNode f : a.path("features")) {
            String s = f.asText();
            if (s.startsWith("inner:codec:") && !installed.contains(s.substring("inner:codec:".length()))) {
                out.add(s.substring("inner:codec:".length()));
            }
        }
        for (JsonNode c : a.get("codecs")) {
            String name = c.asText().replaceAll("\\(.*", "");
            if (!installed.contains(name)) {
                out.add(name);
            }
        }
        return out;
    }

    @Test
    void theNamedVectorsAreReadable() throws IOException {
        JsonNode manifest = manifest();
        List<String> readable = new ArrayList<>();
        for (JsonNode a : manifest.get("arrays")) {
            if (sharded(a) && missing(a).isEmpty()) {
                readable.add(a.get("id").asText());
            }
        }
        assertTrue(readable.containsAll(REQUIRED), "readable sharded vectors " + readable + " include " + REQUIRED);
    }

    @TestFactory
    Stream<DynamicTest> everyReadableShardedVector() throws IOException {
        JsonNode manifest = manifest();
        Path root = root().orElseThrow();
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode a : manifest.get("arrays")) {
            if (!sharded(a)) {
                continue;
            }
            String id = a.get("id").asText();
            Set<String> missing = missing(a);
            tests.add(DynamicTest.dynamicTest(id, () -> {
                if (!missing.isEmpty()) {
                    System.out.println(id + " skipped: needs " + missing + ", not installed");
                    Assumptions.abort("needs " + missing + ", not installed");
                }
                check(root, a);
            }));
        }
        return tests.stream();
    }

    private static void check(Path root, JsonNode a) {
        String id = a.get("id").asText();
        Store store = ZARR.openStore(root.resolve(a.get("path").asText()).toString(), true);
        ZarrArray array = ZARR.openArray(store, "/");
        NdArray values = array.read();
        JsonNode expected = a.get("expected").get("values");
        switch (expected.get("kind").asText()) {
            case "arange" -> {
                BigDecimal start = new BigDecimal(expected.get("start").asText());
                BigDecimal step = new BigDecimal(expected.get("step").asText());
                for (long i = 0; i < values.elementCount(); i++) {
                    assertElement(values, i, start.add(step.multiply(BigDecimal.valueOf(i))).toString(), id);
                }
            }
            case "list" -> {
                JsonNode list = expected.get("values");
                assertEquals(list.size(), values.elementCount(), id + " element count");
                for (int i = 0; i < list.size(); i++) {
                    assertElement(values, i, list.get(i).asText(), id);
                }
            }
            default -> fail(id + ": no check for expected values of kind " + expected.get("kind"));
        }
        // Random regions, read through the partial decoder, against the whole.
        Random rnd = new Random(id.hashCode());
        long[] shape = array.shape();
        for (int round = 0; round < 25; round++) {
            long[] off = new long[shape.length];
            long[] ext = new long[shape.length];
            for (int d = 0; d < shape.length; d++) {
                off[d] = rnd.nextInt((int) shape[d]);
                ext[d] = 1 + rnd.nextInt((int) (shape[d] - off[d]));
            }
            assertTrue(values.region(Region.of(off, ext)).contentEquals(array.read(off, ext)), id + " region at "
                    + java.util.Arrays.toString(off) + " of " + java.util.Arrays.toString(ext));
        }
        // Written again by zarrj under the same metadata, it reads the same.
        Store copy = ZARR.openStore("memory:");
        ZarrArray target = ZARR.createArray(copy, "/", array.metadata(), false);
        target.write(values);
        assertTrue(ZARR.openArray(copy, "/").read().contentEquals(values), id + " rewritten by zarrj");
    }

    private static void assertElement(NdArray values, long i, String expected, String id) {
        String where = id + " element " + i;
        switch (values.dataType().kind()) {
            case BOOL -> assertEquals(Boolean.parseBoolean(expected), values.getBoolean(i), where);
            case INT -> assertEquals(new BigDecimal(expected).longValueExact(), values.getLong(i), where);
            case UINT -> assertEquals(new BigDecimal(expected).toBigIntegerExact().toString(),
                    Long.toUnsignedString(values.getLong(i)), where);
            case FLOAT -> {
                double want = Double.parseDouble(expected);
                if (values.dataType().size() == 4) {
                    assertEquals((float) want, (float) values.getDouble(i), where);
                } else {
                    assertEquals(want, values.getDouble(i), where);
                }
            }
            default -> fail(where + ": no comparison for " + values.dataType().name());
        }
    }
}
