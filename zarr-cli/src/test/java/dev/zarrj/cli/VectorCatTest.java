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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code zarr cat --format raw} of every shared vector whose extensions are installed equals the
 * manifest's values, encoded independently here as little-endian bytes.
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
            if (!installed(a) || kind.equals("must_fail") || kind.equals("lines")) {
                continue;
            }
            tests.add(DynamicTest.dynamicTest(a.get("id").asText(), () -> check(root.get(), a)));
        }
        assertTrue(tests.size() >= 14 + 18, "at least the core and the datetime vectors are readable: " + tests.size());
        return tests.stream();
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
