package dev.zarrj.core.internal.datatype;

import static dev.zarrj.core.internal.datatype.FillValueJson.MAPPER;
import static dev.zarrj.core.internal.datatype.FillValueJson.json;
import static dev.zarrj.core.internal.datatype.FillValueJson.nativeBytes;
import static dev.zarrj.core.internal.datatype.FillValueJson.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.datatype.FillValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The fill values in zarr-python's metadata fixtures
 * ({@code shared/vectors/zarr-python/metadata_fixtures/v3/data_type/<type>/fill_values.json}) for
 * every core type: each parses, and its canonical JSON parses back to the same bytes.
 */
class ZarrPythonFixturesTest {
    private static final List<String> CORE = List.of("bool", "int8", "int16", "int32", "int64", "uint8",
            "uint16", "uint32", "uint64", "float16", "float32", "float64", "complex64", "complex128", "raw");

    /** The fixture folder, found by walking up from the working directory; null when absent. */
    private static Path fixtures() {
        for (Path p = Paths.get(System.getProperty("user.dir")).toAbsolutePath(); p != null; p = p.getParent()) {
            Path vectors = p.resolve("shared/vectors");
            if (Files.isDirectory(vectors)) {
                return vectors.resolve("zarr-python/metadata_fixtures/v3/data_type");
            }
        }
        return null;
    }

    private static Path fixturesOrSkip() {
        Path dir = fixtures();
        Assumptions.assumeTrue(dir != null && Files.isDirectory(dir),
                "no shared/vectors/zarr-python/metadata_fixtures/v3/data_type above " + System.getProperty("user.dir"));
        return dir;
    }

    private static JsonNode read(Path dir, String type) throws IOException {
        return MAPPER.readTree(dir.resolve(type).resolve("fill_values.json").toFile());
    }

    @TestFactory
    List<DynamicTest> everyFixtureParsesAndRoundTrips() throws IOException {
        Path dir = fixturesOrSkip();
        List<DynamicTest> tests = new ArrayList<>();
        for (String type : CORE) {
            JsonNode cases = read(dir, type);
            assertFalse(cases.isEmpty(), type + " has no fixtures");
            for (Iterator<Map.Entry<String, JsonNode>> it = cases.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> c = it.next();
                JsonNode value = c.getValue();
                CoreDataType t = type.equals("raw") ? CoreDataType.raw(8 * value.size())
                        : CoreDataType.byName(type).orElseThrow();
                tests.add(DynamicTest.dynamicTest(type + " " + c.getKey() + " = " + value, () -> {
                    FillValue parsed = t.parseFillValue(value, "/fill_value");
                    String written = text(t.fillValueToJson(parsed));
                    assertEquals(parsed, t.parseFillValue(json(written), "/fill_value"), written);
                }));
            }
        }
        return tests;
    }

    /** Spot checks that the fixtures mean what their names say. */
    @Test
    void fixtureValuesDecodeToTheExpectedBits() throws IOException {
        Path dir = fixturesOrSkip();
        Map<String, byte[]> expected = new HashMap<>();
        expected.put("float16 hex_signaling_nan", nativeBytes(2, b -> b.putShort((short) 0x7d00)));
        expected.put("float16 nan", nativeBytes(2, b -> b.putShort((short) 0x7e00)));
        expected.put("float32 hex_signaling_nan", nativeBytes(4, b -> b.putInt(0x7fa00000)));
        expected.put("float64 hex_signaling_nan", nativeBytes(8, b -> b.putLong(0x7ff4000000000000L)));
        expected.put("float64 neg_infinity", nativeBytes(8, b -> b.putLong(0xfff0000000000000L)));
        expected.put("uint64 max", nativeBytes(8, b -> b.putLong(-1L)));
        expected.put("int8 min", new byte[] {-128});
        expected.put("complex64 with_sentinel_components",
                nativeBytes(8, b -> b.putInt(0xff800000).putInt(0x7fc00000)));
        for (Map.Entry<String, byte[]> e : expected.entrySet()) {
            String[] typeAndCase = e.getKey().split(" ");
            CoreDataType t = CoreDataType.byName(typeAndCase[0]).orElseThrow();
            JsonNode value = read(dir, typeAndCase[0]).get(typeAndCase[1]);
            assertArrayEquals(e.getValue(), t.parseFillValue(value, "/fill_value").bytes(), e.getKey());
        }
        assertEquals("\"0x7d00\"", text(CoreDataType.FLOAT16.fillValueToJson(
                CoreDataType.FLOAT16.parseFillValue(read(dir, "float16").get("hex_signaling_nan"), "/f"))));
    }
}
