package dev.zarrj.ext.strings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The shared vectors of text and byte strings (zarr-python, zarrita.js and zarrs wrote them) read
 * element by element as the manifest says; zarrj writing the same values with the same metadata
 * stores the same chunk bytes where no compressor is involved.
 */
class StringVectorsTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final Set<String> TYPES = Set.of("string", "bytes", "variable_length_bytes", "fixed_length_utf32");

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

    @TestFactory
    Stream<DynamicTest> everyStringVectorReadsAndRewritesTheSame() throws IOException {
        Optional<Path> found = vectors();
        Assumptions.assumeTrue(found.isPresent(), "shared test vectors not found (no shared/vectors above the working"
                + " directory)");
        Path root = found.get();
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode a : new ObjectMapper().readTree(root.resolve("MANIFEST.json").toFile()).get("arrays")) {
            JsonNode dt = a.get("data_type");
            if (TYPES.contains(dt.isTextual() ? dt.asText() : dt.path("name").asText())) {
                tests.add(DynamicTest.dynamicTest(a.get("id").asText(), () -> check(root, a)));
            }
        }
        assertEquals(12, tests.size(), "the manifest lists 10 string arrays, one of bytes, one fixed_length_utf32");
        return tests.stream();
    }

    private static void check(Path root, JsonNode a) throws IOException {
        String id = a.get("id").asText();
        Store original = ZARR.openStore(root.resolve(a.get("path").asText()).toString(), true);
        ZarrArray array = ZARR.openArray(original, "/");
        NdArray values = array.read();
        String[] got = text(values);
        JsonNode expected = a.get("expected").get("values");
        if (expected.get("kind").asText().equals("lines")) {
            List<String> lines = Files.readAllLines(root.resolve(expected.get("file").asText()), StandardCharsets.UTF_8);
            assertArrayEquals(lines.toArray(new String[0]), got, id);
        } else {
            assertEquals("list", expected.get("kind").asText(), id);
            String[] want = new String[expected.get("values").size()];
            for (int i = 0; i < want.length; i++) {
                want[i] = expected.get("values").get(i).asText();
            }
            assertArrayEquals(want, got, id);
        }

        Store copy = ZARR.openStore("memory:");
        ZarrArray target = ZARR.createArray(copy, "/", array.metadata(), false);
        target.write(values);
        assertTrue(ZARR.openArray(copy, "/").read().contentEquals(values), id + " reads back the same");
        if (!array.codecs().toString().contains("zstd")) {
            for (StoreKey k : copy.list()) {
                if (!k.value().equals("zarr.json")) {
                    assertEquals(original.get(k).orElseThrow(), copy.get(k).orElseThrow(), id + " chunk " + k);
                }
            }
        }
    }

    /** The elements as text: strings as they are, byte strings as ASCII, fixed_length_utf32 decoded. */
    private static String[] text(NdArray values) {
        if (values.dataType().kind() == ElementKind.STRING) {
            return values.toStringArray();
        } else if (values.dataType().kind() == ElementKind.BYTES) {
            byte[][] b = values.toBytesArray();
            String[] out = new String[b.length];
            for (int i = 0; i < b.length; i++) {
                out[i] = new String(b[i], StandardCharsets.US_ASCII);
            }
            return out;
        }
        return ((FixedLengthUtf32Type) values.dataType()).toStringArray(values);
    }
}
