package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.registry.ExtensionPoint;
import java.io.IOException;
import java.math.BigDecimal;
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
 * Reads every array of the shared vectors (written by zarr-python, zarrita.js, zarrs and
 * zarr-java) with every plugin of zarrj installed, and compares it element by element with the
 * manifest's expected values.
 *
 * <p>An array whose metadata names an extension that is not installed here must fail to open with
 * an {@link UnknownExtensionException} naming that extension; every other array must read
 * correctly. Arrays marked {@code must_fail} must fail to open.
 */
class VectorReadTest {
    private static final Zarr ZARR = Zarr.defaults();
    /**
     * Codecs that zarrj knows but cannot run, because they need a native library no Java binding
     * provides here: arrays using them must fail to open with an {@link UnsupportedFormatException}
     * naming the codec.
     */
    private static final Set<String> UNAVAILABLE = Set.of("numcodecs.pcodec");

    @TestFactory
    Stream<DynamicTest> everyArrayReadsAsTheManifestSays() throws IOException {
        Path root = vectorsOrSkip();
        JsonNode manifest = manifest(root);
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode a : manifest.get("arrays")) {
            String id = a.get("id").asText();
            tests.add(DynamicTest.dynamicTest(id, () -> check(root, a)));
        }
        return tests.stream();
    }

    /**
     * Every readable array, re-written by zarrj with the same metadata, reads back the same; where
     * the chain has no compressor, every chunk zarrj stores is byte-identical to the other
     * implementation's, and every chunk it leaves out held only the fill value.
     */
    @TestFactory
    Stream<DynamicTest> rewrittenByZarrjEveryArrayReadsTheSame() throws IOException {
        Path root = vectorsOrSkip();
        JsonNode manifest = manifest(root);
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode a : manifest.get("arrays")) {
            String id = a.get("id").asText();
            // Only arrays this build can read; the others are checked to fail in everyArrayReadsAsTheManifestSays.
            // Nor arrays of a lossy chain (numcodecs.zfpy): decoding and encoding again need not give the values back.
            if (a.get("expected").get("values").get("kind").asText().equals("must_fail") || !missingExtensions(a).isEmpty()
                    || !unavailable(a).isEmpty() || a.get("codecs").toString().contains("numcodecs.zfpy")) {
                continue;
            }
            tests.add(DynamicTest.dynamicTest(id, () -> {
                Store original = ZARR.openStore(root.resolve(a.get("path").asText()).toString(), true);
                ZarrArray source = ZARR.openArray(original, "/");
                NdArray data = source.read();
                Store copy = ZARR.openStore("memory:");
                ZarrArray target = ZARR.createArray(copy, "/", source.metadata(), false);
                target.write(data);
                assertTrue(ZARR.openArray(copy, "/").read().contentEquals(data), id + " reads back the same");
                boolean compressed = compressed(source.codecs());
                for (dev.zarrj.api.store.StoreKey k : copy.list()) {
                    if (k.value().equals("zarr.json")) {
                        assertEquals(source.metadata().toString(), ZARR.openArray(copy, "/").metadata().toString(),
                                id + " metadata");
                    } else if (!compressed) {
                        assertEquals(original.get(k).orElseThrow(() -> new AssertionError(id + ": zarrj stored " + k
                                + ", which the original does not have")), copy.get(k).orElseThrow(), id + " chunk " + k);
                    }
                }
            }));
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> everyGroupOpensWithItsAttributes() throws IOException {
        Path root = vectorsOrSkip();
        JsonNode manifest = manifest(root);
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode g : manifest.get("groups")) {
            String id = g.get("id").asText();
            tests.add(DynamicTest.dynamicTest(id, () -> {
                Store store = ZARR.openStore(root.resolve(id).toString(), true);
                ZarrGroup group = ZARR.openGroup(store, "/");
                assertEquals(g.get("attributes"), new ObjectMapper().readTree(group.attributes().toString()), "attributes of " + id);
                for (String child : group.childNames()) {
                    assertTrue(ZARR.exists(store, child), child + " listed as a child of " + id);
                }
            }));
        }
        return tests.stream();
    }

    /**
     * Whether a chain has a codec whose bytes another implementation may legitimately write
     * differently (a compressor); {@code bytes}, {@code transpose}, {@code crc32c},
     * {@code packbits} are exact, and so is {@code optional} when its mask and data chains are.
     */
    private static boolean compressed(JsonNode codecs) {
        for (JsonNode c : codecs) {
            String n = c.isTextual() ? c.asText() : c.get("name").asText();
            if (n.equals("optional") || n.equals("zarrs.optional")) {
                JsonNode conf = c.path("configuration");
                if (compressed(conf.path("mask_codecs")) || compressed(conf.path("data_codecs"))) {
                    return true;
                }
            } else if (!(n.equals("bytes") || n.equals("transpose") || n.equals("crc32c") || n.equals("packbits"))) {
                return true;
            }
        }
        return false;
    }

    /** The shared vectors' folder; skips the test, saying why, when it is absent. */
    private static Path vectorsOrSkip() {
        Optional<Path> root = VectorCatTest.vectors();
        Assumptions.assumeTrue(root.isPresent(), "shared test vectors not found (no shared/vectors above the working directory)");
        return root.get();
    }

    private static JsonNode manifest(Path root) throws IOException {
        return new ObjectMapper().readTree(root.resolve("MANIFEST.json").toFile());
    }

    private static void check(Path root, JsonNode a) throws IOException {
        String id = a.get("id").asText();
        Store store = ZARR.openStore(root.resolve(a.get("path").asText()).toString(), true);
        JsonNode expected = a.get("expected");
        String kind = expected.get("values").get("kind").asText();
        Set<String> missing = missingExtensions(a);
        if (kind.equals("must_fail")) {
            ZarrException e = assertThrows(ZarrException.class, () -> ZARR.openArray(store, "/"));
            assertInstanceOf(UnknownExtensionException.class, e, id + ": " + e.getMessage());
            return;
        }
        Set<String> unavailable = unavailable(a);
        if (missing.isEmpty() && !unavailable.isEmpty()) {
            ZarrException e = assertThrows(ZarrException.class, () -> ZARR.openArray(store, "/").read(),
                    id + " uses " + unavailable + ", which zarrj cannot run");
            assertInstanceOf(UnsupportedFormatException.class, e, id + ": " + e.getMessage());
            assertTrue(unavailable.stream().anyMatch(e.getMessage()::contains), "the error names the codec: "
                    + e.getMessage());
            return;
        }
        if (!missing.isEmpty()) {
            UnknownExtensionException e = assertThrows(UnknownExtensionException.class,
                    () -> ZARR.openArray(store, "/").read(), id + " uses " + missing + ", which is not installed");
            assertTrue(missing.contains(e.extensionName()), "the error names " + e.extensionName()
                    + ", one of the missing " + missing + ": " + e.getMessage());
            return;
        }
        ZarrArray array = ZARR.openArray(store, "/");
        NdArray values = array.read();
        assertEquals(a.get("shape").size(), values.rank(), id + " rank");
        double tolerance = tolerance(array.codecs());
        switch (kind) {
            case "arange" -> {
                double start = expected.get("values").get("start").asDouble();
                double step = expected.get("values").get("step").asDouble();
                for (long i = 0; i < values.elementCount(); i++) {
                    if (tolerance > 0) {
                        assertEquals(start + step * i, values.getDouble(i), tolerance, id + " element " + i
                                + " within the lossy codec's tolerance");
                        continue;
                    }
                    assertElement(values, i, new BigDecimal(start).add(new BigDecimal(step).multiply(BigDecimal.valueOf(i))), id);
                }
            }
            case "list" -> {
                JsonNode list = expected.get("values").get("values");
                assertEquals(list.size(), values.elementCount(), id + " element count");
                boolean asciiBytes = expected.get("values").path("element_encoding").asText().equals("ascii-bytes");
                for (int i = 0; i < list.size(); i++) {
                    if (asciiBytes) {
                        assertArrayEquals(list.get(i).asText().getBytes(StandardCharsets.US_ASCII), values.getBytes(i),
                                id + " element " + i + " (listed as ASCII text)");
                    } else {
                        assertElement(values, i, list.get(i), id);
                    }
                }
            }
            case "lines" -> {
                // Element i is line i of a UTF-8 text file, each line ended by '\n'.
                String text = Files.readString(root.resolve(expected.get("values").get("file").asText()), StandardCharsets.UTF_8);
                assertTrue(text.endsWith("\n"), id + ": the lines file ends with a line break");
                String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
                assertEquals(lines.length, values.elementCount(), id + " element count");
                for (int i = 0; i < lines.length; i++) {
                    assertEquals(lines[i], values.getString(i), id + " element " + i);
                }
            }
            case "fill" -> {
                FillValue fill = array.fillValue();
                assertTrue(values.isAll(fill), id + ": every element should be the fill value " + fill);
            }
            case "unknown" -> {
                Path file = root.resolve(expected.get("regression_values_file").asText());
                JsonNode decoded = new ObjectMapper().readTree(Files.readString(file));
                JsonNode list = decoded.get("values");
                assertEquals(list.size(), values.elementCount(), id + " element count");
                for (int i = 0; i < list.size(); i++) {
                    assertElement(values, i, list.get(i), id);
                }
            }
            default -> fail(id + ": no check for expected values of kind " + kind);
        }
    }

    /** The codecs of {@link #UNAVAILABLE} that an array uses. */
    private static Set<String> unavailable(JsonNode a) {
        Set<String> out = new java.util.TreeSet<>();
        for (JsonNode c : a.get("codecs")) {
            String name = c.asText().replaceAll("\\(.*", "");
            if (UNAVAILABLE.contains(name)) {
                out.add(name);
            }
        }
        return out;
    }

    /**
     * How far a lossy codec may move values: the {@code tolerance} of {@code numcodecs.zfpy} in
     * fixed-accuracy mode (4); 0 for lossless chains.
     */
    private static double tolerance(JsonNode codecs) {
        for (JsonNode c : codecs) {
            if (c.path("name").asText().equals("numcodecs.zfpy") && c.path("configuration").path("mode").asInt() == 4) {
                return Math.max(0, c.path("configuration").path("tolerance").asDouble());
            }
        }
        return 0;
    }

    /** Extensions the array's metadata names that this build does not install. */
    private static Set<String> missingExtensions(JsonNode a) throws IOException {
        Set<String> missing = new java.util.TreeSet<>();
        JsonNode dt = a.get("data_type");
        String dtName = dt.isTextual() ? dt.asText() : dt.get("name").asText();
        if (!dtName.matches("r[0-9]+") && !ZARR.registry().names(ExtensionPoint.DATA_TYPE).contains(dtName)) {
            missing.add(dtName);
        }
        for (JsonNode c : a.get("codecs")) {
            String name = c.asText().replaceAll("\\(.*", "");
            if (!ZARR.registry().names(ExtensionPoint.CODEC).contains(name)) {
                missing.add(name);
            }
        }
        for (String f : iterable(a.get("features"))) {
            if (f.startsWith("inner:codec:")) {
                String name = f.substring("inner:codec:".length());
                if (!ZARR.registry().names(ExtensionPoint.CODEC).contains(name)) {
                    missing.add(name);
                }
            }
        }
        return missing;
    }

    private static List<String> iterable(JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n != null) {
            n.forEach(e -> out.add(e.asText()));
        }
        return out;
    }

    private static void assertElement(NdArray values, long i, Object expected, String id) {
        String where = id + " element " + i;
        ElementKind kind = values.dataType().kind();
        JsonNode e = expected instanceof JsonNode j ? j : null;
        switch (kind) {
            case BOOL -> assertEquals(e != null ? e.asBoolean() : ((BigDecimal) expected).signum() != 0,
                    values.getBoolean(i), where);
            case INT, UINT -> {
                BigDecimal want = e != null ? new BigDecimal(e.asText()) : (BigDecimal) expected;
                long got = values.getLong(i);
                String gotText = kind == ElementKind.UINT ? Long.toUnsignedString(got) : Long.toString(got);
                assertEquals(0, want.compareTo(new BigDecimal(gotText)), where + ": expected " + want + ", got " + gotText);
            }
            case FLOAT -> {
                double got = values.getDouble(i);
                if (e != null && e.isTextual()) {
                    switch (e.asText()) {
                        case "NaN" -> assertTrue(Double.isNaN(got), where + ": expected NaN, got " + got);
                        case "Infinity" -> assertEquals(Double.POSITIVE_INFINITY, got, where);
                        case "-Infinity" -> assertEquals(Double.NEGATIVE_INFINITY, got, where);
                        default -> fail(where + ": unexpected expected value " + e);
                    }
                    return;
                }
                double want = e != null ? e.asDouble() : ((BigDecimal) expected).doubleValue();
                if (values.dataType().size() == 4) {
                    assertEquals((float) want, (float) got, where);
                } else if (values.dataType().size() == 2) {
                    float half = dev.zarrj.api.datatype.Float16.toFloat(dev.zarrj.api.datatype.Float16.fromFloat((float) want));
                    assertEquals(half, (float) got, where);
                } else {
                    assertEquals(want, got, where);
                }
            }
            case STRING -> assertEquals(e.asText(), values.getString(i), where);
            case OTHER -> {
                // Types of their own (optional, numbers in their own encodings): as zarr cat prints them in JSON.
                JsonNode got = ElementFormats.element(values, i);
                assertTrue(e != null && sameJson(e, got), where + ": expected " + expected + ", got " + got);
            }
            default -> fail(where + ": no comparison for " + values.dataType().name());
        }
    }

    /** JSON equality with numbers compared by value (1.5 written as a double or a decimal is one number). */
    private static boolean sameJson(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int k = 0; k < a.size(); k++) {
                if (!sameJson(a.get(k), b.get(k))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }
}
