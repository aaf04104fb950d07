package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.datatype.Float16;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.registry.ExtensionPoint;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code zarr cat --format raw} of every shared vector whose extensions are installed equals the
 * manifest's values, encoded independently here as little-endian bytes; for types raw does not
 * cover here ({@code string}, {@code bytes}, {@code fixed_length_utf32}, {@code optional}...),
 * {@code zarr cat --format json} equals them element by element, and raw is refused for the
 * variable-length ones.
 */
class VectorCatTest {
    static Optional<Path> vectors() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            Path c = dir.resolve("shared").resolve("vectors");
            if (Files.isRegularFile(c.resolve("MANIFEST.json"))) {
                return Optional.of(c);
            }
            dir = dir.getParent();
        }
        return Optional.empty();
    }

    @TestFactory
    Stream<DynamicTest> catRawOfEveryReadableVectorEqualsTheManifest() throws IOException {
        Optional<Path> root = vectors();
        Assumptions.assumeTrue(root.isPresent(), "shared test vectors not found (no shared/vectors above the working directory)");
        JsonNode manifest = new ObjectMapper().readTree(root.get().resolve("MANIFEST.json").toFile());
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode a : manifest.get("arrays")) {
            String kind = a.get("expected").get("values").get("kind").asText();
            if (!installed(a) || kind.equals("must_fail")) {
                continue;
            }
            boolean raw = RAW_ENCODED.contains(typeName(a)) || typeName(a).startsWith("int") || typeName(a).startsWith("uint");
            tests.add(DynamicTest.dynamicTest(a.get("id").asText(), () -> {
                if (raw) {
                    check(root.get(), a);
                } else {
                    checkJson(root.get(), a);
                }
            }));
        }
        assertTrue(tests.size() >= 14 + 18 + 12, "at least the core, datetime and string vectors are readable: " + tests.size());
        return tests.stream();
    }

    /** The types {@link #encode} writes as raw bytes, besides int* and uint*. */
    private static final java.util.Set<String> RAW_ENCODED = java.util.Set.of("bool", "float16", "float32", "float64",
            "numpy.datetime64", "numpy.timedelta64");

    /** The variable-length types, which raw refuses. */
    private static final java.util.Set<String> VARIABLE_LENGTH = java.util.Set.of("string", "bytes", "variable_length_bytes");

    /**
     * {@code cat --format json}, flattened to C order, equals the manifest's values: strings as
     * themselves, byte strings (listed as ASCII text) as base64, anything else as the manifest's
     * JSON; raw is refused in one line for variable-length types and, for fixed_length_utf32, gives
     * the UTF-32LE code units padded with zeros.
     */
    private static void checkJson(Path root, JsonNode a) throws IOException {
        String id = a.get("id").asText();
        String store = root.resolve(a.get("path").asText()).toString();
        ZarrCliTest.Result r = ZarrCliTest.zarr("cat", store, "--format", "json");
        assertEquals(0, r.code(), r.stderr());
        ObjectMapper m = new ObjectMapper();
        List<JsonNode> got = new ArrayList<>();
        flatten(m.readTree(r.stdout()), a.get("shape").size(), got);
        List<JsonNode> want = new ArrayList<>();
        JsonNode values = a.get("expected").get("values");
        switch (values.get("kind").asText()) {
            case "list" -> values.get("values").forEach(want::add);
            case "lines" -> {
                String text = Files.readString(root.resolve(values.get("file").asText()), StandardCharsets.UTF_8);
                for (String line : text.substring(0, text.length() - 1).split("\n", -1)) {
                    want.add(m.getNodeFactory().textNode(line));
                }
            }
            default -> throw new AssertionError("unexpected kind " + values);
        }
        if (values.path("element_encoding").asText().equals("ascii-bytes")) {
            want.replaceAll(v -> m.getNodeFactory().textNode(
                    Base64.getEncoder().encodeToString(v.asText().getBytes(StandardCharsets.US_ASCII))));
        }
        assertEquals(want.size(), got.size(), id + " element count");
        for (int i = 0; i < want.size(); i++) {
            assertEquals(m.readTree(want.get(i).toString()), got.get(i), id + " element " + i);
        }
        String type = typeName(a);
        ZarrCliTest.Result raw = ZarrCliTest.zarr("cat", store, "--format", "raw");
        if (VARIABLE_LENGTH.contains(type)) {
            assertEquals(2, raw.code(), id + ": raw refuses variable-length elements");
            assertEquals(0, raw.stdout().length, id);
            assertTrue(raw.stderr().contains("--format raw cannot hold") && raw.stderr().strip().lines().count() == 1,
                    raw.stderr());
        } else if (type.equals("fixed_length_utf32")) {
            int length = a.get("data_type").get("configuration").get("length_bytes").asInt();
            ByteBuffer b = ByteBuffer.allocate(length * want.size()).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < want.size(); i++) {
                b.position(i * length);
                want.get(i).asText().codePoints().forEach(b::putInt);
            }
            assertEquals(0, raw.code(), raw.stderr());
            assertArrayEquals(b.array(), raw.stdout(), id + " raw");
        }
    }

    /** The elements of nested JSON arrays {@code rank} levels deep, in order (elements may be arrays too). */
    private static void flatten(JsonNode node, int rank, List<JsonNode> out) {
        if (rank == 0) {
            out.add(node);
            return;
        }
        node.forEach(child -> flatten(child, rank - 1, out));
    }

    /** The data type's name; numpy.datetime64 and numpy.timedelta64 print their int64 counts. */
    private static String typeName(JsonNode a) {
        JsonNode dt = a.get("data_type");
        return dt.isTextual() ? dt.asText() : dt.get("name").asText();
    }

    private static boolean installed(JsonNode a) {
        var reg = Zarr.defaults().registry();
        if (!reg.names(ExtensionPoint.DATA_TYPE).contains(typeName(a))) {
            return false;
        }
        for (JsonNode c : a.get("codecs")) {
            String name = c.asText().replaceAll("\\(.*", "");
            // numcodecs.pcodec is registered only to refuse, naming what would provide it (VectorReadTest checks that).
            if (!reg.names(ExtensionPoint.CODEC).contains(name) || name.equals("numcodecs.pcodec")) {
                return false;
            }
        }
        for (JsonNode f : a.get("features")) {
            String s = f.asText();
            if (s.startsWith("inner:codec:") && !reg.names(ExtensionPoint.CODEC).contains(s.substring(12))) {
                return false;
            }
        }
        return true;
    }

    private static void check(Path root, JsonNode a) throws IOException {
        ZarrCliTest.Result r = ZarrCliTest.zarr("cat", root.resolve(a.get("path").asText()).toString(), "--format", "raw");
        assertEquals(0, r.code(), r.stderr());
        String type = typeName(a);
        long n = 1;
        for (JsonNode d : a.get("shape")) {
            n *= d.asLong();
        }
        JsonNode expected = a.get("expected");
        JsonNode values = expected.get("values");
        List<JsonNode> list = new ArrayList<>();
        switch (values.get("kind").asText()) {
            case "list" -> values.get("values").forEach(list::add);
            case "unknown" -> new ObjectMapper().readTree(root.resolve(expected.get("regression_values_file").asText())
                    .toFile()).get("values").forEach(list::add);
            case "arange" -> {
                for (long i = 0; i < n; i++) {
                    BigDecimal v = values.get("start").decimalValue().add(values.get("step").decimalValue()
                            .multiply(BigDecimal.valueOf(i)));
                    list.add(new ObjectMapper().getNodeFactory().numberNode(v));
                }
            }
            case "fill" -> {
                for (long i = 0; i < n; i++) {
                    list.add(a.get("fill_value"));
                }
            }
            default -> throw new AssertionError("unexpected kind " + values);
        }
        assertEquals(n, list.size());
        assertArrayEquals(encode(type, list), r.stdout(), a.get("id").asText());
    }

    /** The little-endian bytes of the expected values, computed without zarrj. */
    static byte[] encode(String type, List<JsonNode> values) {
        int size = switch (type) {
            case "bool", "int8", "uint8" -> 1;
            case "int16", "uint16", "float16" -> 2;
            case "int32", "uint32", "float32" -> 4;
            default -> 8;
        };
        ByteBuffer b = ByteBuffer.allocate(size * values.size()).order(ByteOrder.LITTLE_ENDIAN);
        for (JsonNode v : values) {
            switch (type) {
                case "bool" -> b.put((byte) (v.asBoolean() ? 1 : 0));
                case "float16" -> b.putShort(Float16.fromFloat((float) number(v)));
                case "float32" -> b.putFloat((float) number(v));
                case "float64" -> b.putDouble(number(v));
                default -> {
                    long x = new BigInteger(v.asText().replaceAll("\\.0+$", "")).longValue();
                    switch (size) {
                        case 1 -> b.put((byte) x);
                        case 2 -> b.putShort((short) x);
                        case 4 -> b.putInt((int) x);
                        default -> b.putLong(x);
                    }
                }
            }
        }
        return b.array();
    }

    private static double number(JsonNode v) {
        if (v.isTextual()) {
            return switch (v.asText()) {
                case "NaN" -> Double.NaN;
                case "Infinity" -> Double.POSITIVE_INFINITY;
                case "-Infinity" -> Double.NEGATIVE_INFINITY;
                default -> Double.parseDouble(v.asText());
            };
        }
        return v.asDouble();
    }
}
