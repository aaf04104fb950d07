package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** Every command end to end through the picocli entry point, including the bad-input exits. */
class ZarrCliTest {
    @TempDir
    Path tmp;

    record Result(int code, byte[] stdout, String stderr) {
        String out() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    static Result zarr(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ZarrCli.run(args, out, err);
        return new Result(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    private String demo() {
        String store = tmp.resolve("demo.zarr").toString();
        Result r = zarr("demo", store);
        assertEquals(0, r.code(), r.stderr());
        return store;
    }

    @Test
    void demoWritesAHierarchyAndPrintsItsInfo() {
        Path store = tmp.resolve("d.zarr");
        Result r = zarr("demo", store.toString());
        assertEquals(0, r.code(), r.stderr());
        assertTrue(Files.isRegularFile(store.resolve("weather/temperature_gzip/zarr.json")));
        assertTrue(r.out().contains("/weather/temperature_gzip  array float32 shape [24,180,360]"), r.out());
        assertTrue(r.out().contains("\"title\":\"zarrj demo\""), r.out());
    }

    @Test
    void infoJsonDescribesEveryNode() throws IOException {
        String store = demo();
        Result r = zarr("info", store, "--json");
        assertEquals(0, r.code(), r.stderr());
        JsonNode doc = new ObjectMapper().readTree(r.stdout());
        JsonNode counts = null;
        for (JsonNode n : doc.get("nodes")) {
            if (n.get("path").asText().equals("/counts")) {
                counts = n;
            }
        }
        assertEquals("[200,200]", counts.get("shape").toString());
        assertEquals("[64,64]", counts.get("chunk_shape").toString());
        assertEquals("uint16", counts.get("data_type").asText());
        assertEquals(9, counts.get("stored_chunks").asInt(), "the written block touches 3x3 chunks");
        assertEquals(16, counts.get("grid_chunks").asInt());
        assertTrue(counts.get("stored_bytes").asLong() > 9 * 64 * 64 * 2, "crc32c adds 4 bytes a chunk");
    }

    @Test
    void catPrintsRawJsonAndCsvOfARegion() throws IOException {
        String store = demo();
        Result csv = zarr("cat", store, "--path", "/counts", "--region", "50:52,50:53", "--format", "csv");
        assertEquals("0,7,14\n700,707,714\n", csv.out());
        Result json = zarr("cat", store, "--path", "/counts", "--region", "49:51,50", "--format", "json");
        assertEquals("[[0],[0]]\n", json.out(), "49 is outside the written block, 50 inside it");
        Result raw = zarr("cat", store, "--path", "/counts", "--region", "50,50:52", "--format", "raw");
        assertArrayEquals(new byte[] {0, 0, 7, 0}, raw.stdout());
        Path file = tmp.resolve("flags.bin");
        assertEquals(0, zarr("cat", store, "--path", "/flags", "--region", "0:5", "-o", file.toString()).code());
        assertArrayEquals(new byte[] {1, 0, 1, 1, 0}, Files.readAllBytes(file));
    }

    /** Every core data type and codec chain: create --metadata, write --raw, cat --format raw give back the bytes. */
    @TestFactory
    Stream<DynamicTest> createWriteCatRoundTripsByteForByte() {
        String[] types = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "float32", "float64", "complex64", "complex128", "r24"};
        String[] chains = {
            "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]",
            "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}},{\"name\":\"crc32c\"}]",
            "[{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}},"
                    + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"gzip\",\"configuration\":{\"level\":5}}]",
            "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
                    + "{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":true}}]",
            "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}},{\"name\":\"blosc\",\"configuration\":"
                    + "{\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":\"shuffle\",\"typesize\":4,\"blocksize\":0}}]",
            "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[1,3],\"codecs\":"
                    + "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"gzip\",\"configuration\":{\"level\":1}}],"
                    + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}],"
                    + "\"index_location\":\"start\"}}]"};
        List<DynamicTest> tests = new ArrayList<>();
        for (String type : types) {
            for (int c = 0; c < chains.length; c++) {
                String chain = chains[c];
                int k = c;
                tests.add(DynamicTest.dynamicTest(type + " chain " + k, () -> roundTrip(type, chain, k)));
            }
        }
        return tests.stream();
    }

    private void roundTrip(String type, String chain, int k) throws IOException {
        int size = switch (type) {
            case "bool", "int8", "uint8" -> 1;
            case "int16", "uint16", "float16" -> 2;
            case "int32", "uint32", "float32", "r24" -> type.equals("r24") ? 3 : 4;
            case "complex128" -> 16;
            default -> 8;
        };
        String codecs = size == 1 || type.equals("r24") ? chain.replaceFirst("\\{\"endian\":\"(little|big)\"}", "{}") : chain;
        String fill = switch (type) {
            case "bool" -> "false";
            case "float16", "float32", "float64" -> "\"NaN\"";
            case "complex64", "complex128" -> "[0.0, \"NaN\"]";
            case "r24" -> "[1, 2, 3]";
            default -> "0";
        };
        String doc = "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[5,7],\"data_type\":\"" + type + "\","
                + "\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[2,3]}},"
                + "\"chunk_key_encoding\":{\"name\":\"default\"},\"fill_value\":" + fill + ",\"codecs\":" + codecs + "}";
        Path meta = tmp.resolve(type + k + ".json");
        Files.writeString(meta, doc);
        String store = tmp.resolve("rt.zarr").toString();
        Result created = zarr("create", store, "--path", "/" + type + k, "--metadata", meta.toString());
        assertEquals(0, created.code(), created.stderr());
        byte[] raw = new byte[4 * 5 * size];
        new Random(type.hashCode() + k).nextBytes(raw);
        if (type.equals("bool")) {
            for (int i = 0; i < raw.length; i++) {
                raw[i] = (byte) (raw[i] & 1);
            }
        }
        if (type.startsWith("float") || type.startsWith("complex")) {
            // Keep NaNs canonical only where Java would not: random bits are kept bit for bit anyway.
            ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        }
        Path in = tmp.resolve(type + k + ".bin");
        Files.write(in, raw);
        Result wrote = zarr("write", store, "--path", "/" + type + k, "--region", "1:5,2:7", "--raw", in.toString());
        assertEquals(0, wrote.code(), wrote.stderr());
        Result cat = zarr("cat", store, "--path", "/" + type + k, "--region", "1:5,2:7");
        assertEquals(0, cat.code(), cat.stderr());
        assertArrayEquals(raw, cat.stdout(), type + " with " + codecs);
    }

    @Test
    void copyReencodesAndKeepsEveryValue() {
        String store = demo();
        String copy = tmp.resolve("copy.zarr").toString();
        Result r = zarr("copy", store, copy, "--codecs",
                "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}},{\"name\":\"gzip\",\"configuration\":{\"level\":9}}]",
                "--chunks", "");
        // --chunks "" would mean rank 0; an error is expected because it does not fit the arrays.
        assertEquals(2, r.code(), r.out());
        r = zarr("copy", store, copy, "--path", "/counts", "--codecs",
                "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}},{\"name\":\"gzip\",\"configuration\":{\"level\":9}}]",
                "--chunks", "50,40");
        assertEquals(0, r.code(), r.stderr());
        byte[] before = zarr("cat", store, "--path", "/counts").stdout();
        byte[] after = zarr("cat", copy, "--path", "/counts").stdout();
        assertArrayEquals(before, after);
        String info = zarr("info", copy, "--path", "/counts").out();
        assertTrue(info.contains("chunks [50,40]") && info.contains("gzip"), info);
        Result whole = zarr("copy", store, tmp.resolve("all.zarr").toString());
        assertEquals(0, whole.code(), whole.stderr());
        assertArrayEquals(zarr("cat", store, "--path", "/weather/temperature_gzip").stdout(),
                zarr("cat", tmp.resolve("all.zarr").toString(), "--path", "/weather/temperature_gzip").stdout());
    }

    @Test
    void copyToAZipAndBackKeepsEveryValue() {
        String store = demo();
        String zip = tmp.resolve("demo.zip").toString();
        Result toZip = zarr("copy", store, zip);
        assertEquals(0, toZip.code(), toZip.stderr());
        assertTrue(Files.isRegularFile(Path.of(zip)));
        String back = tmp.resolve("back.zarr").toString();
        Result fromZip = zarr("copy", zip, back);
        assertEquals(0, fromZip.code(), fromZip.stderr());
        for (String array : List.of("/counts", "/flags", "/weather/temperature_gzip")) {
            byte[] original = zarr("cat", store, "--path", array).stdout();
            assertArrayEquals(original, zarr("cat", "zip:" + zip, "--path", array).stdout(), array + " in the zip");
            assertArrayEquals(original, zarr("cat", back, "--path", array).stdout(), array + " copied back");
        }
        assertEquals(0, zarr("verify", zip).code());
    }

    @Test
    void verifyReportsEveryCorruptChunkByKey() throws IOException {
        String store = demo();
        Result good = zarr("verify", store);
        assertEquals(0, good.code(), good.out() + good.stderr());
        Path chunk = Path.of(store, "counts", "c", "1", "1");
        byte[] b = Files.readAllBytes(chunk);
        b[10] ^= 0x40;
        Files.write(chunk, b);
        Files.write(Path.of(store, "weather", "temperature_gzip", "c", "0", "0", "0"), new byte[] {1, 2, 3});
        Result bad = zarr("verify", store);
        assertEquals(1, bad.code());
        assertTrue(bad.out().contains("BAD counts/c/1/1"), bad.out());
        assertTrue(bad.out().contains("BAD weather/temperature_gzip/c/0/0/0"), bad.out());
        assertTrue(bad.out().contains("2 bad"), bad.out());
    }

    @Test
    void pluginsListsProvidersByExtensionPoint() throws IOException {
        Result text = zarr("plugins");
        assertEquals(0, text.code());
        assertTrue(text.out().contains("gzip") && text.out().contains("dev.zarrj.codec.gzip.internal.GzipCodecProvider"),
                text.out());
        JsonNode doc = new ObjectMapper().readTree(zarr("plugins", "--json").stdout());
        boolean file = false;
        for (JsonNode p : doc.get("providers")) {
            file |= p.get("extension_point").asText().equals("store") && p.get("name").asText().equals("file");
        }
        assertTrue(file, doc.toString());
        assertEquals(0, doc.get("load_problems").size());
    }

    /** The gzip codec's entry says which library it runs on: libdeflate, or java.util.zip and why. */
    @Test
    void pluginsSaysWhichLibraryGzipRunsOn() throws IOException {
        String expected = dev.zarrj.codec.gzip.GzipLibrary.describe();
        Result text = zarr("plugins");
        assertTrue(text.out().contains("runs on " + expected), text.out());
        JsonNode doc = new ObjectMapper().readTree(zarr("plugins", "--json").stdout());
        int gzip = 0;
        for (JsonNode p : doc.get("providers")) {
            if (p.get("class").asText().equals("dev.zarrj.codec.gzip.internal.GzipCodecProvider")) {
                assertEquals(expected, p.get("implementation").asText(), p.toString());
                gzip++;
            } else {
                assertTrue(!p.has("implementation"), p.toString());
            }
        }
        assertEquals(1, gzip, doc.toString());
    }

    @Test
    void userErrorsPrintOneLineAndExit2() {
        String store = demo();
        assertUserError(zarr("cat", "gs://bucket/x"), "no store provider for 'gs:'");
        assertUserError(zarr("cat", store, "--path", "/missing"), "no array or group at '/missing'");
        assertUserError(zarr("cat", store, "--path", "/counts", "--region", "0:300,0:1"), "outside dimension 0");
        assertUserError(zarr("cat", store, "--path", "/counts", "--region", "a:b,0:1"), "is not start:stop");
        assertUserError(zarr("cat", store, "--path", "/counts", "--format", "xml"), "--format");
        assertUserError(zarr("create", store, "--path", "/x", "--shape", "4", "--dtype", "float32", "--codecs",
                "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"lzma9\"}]"), "unknown codec 'lzma9'");
        assertUserError(zarr("create", store, "--path", "/x", "--shape", "4", "--dtype", "float99"), "float99");
        assertUserError(zarr("write", store, "--path", "/counts", "--raw", tmp.resolve("none.bin").toString()), "no such file");
        assertUserError(zarr("info"), "STORE");
    }

    private static void assertUserError(Result r, String mention) {
        assertEquals(2, r.code(), r.out() + r.stderr());
        assertTrue(r.stderr().contains(mention), "stderr should mention '" + mention + "': " + r.stderr());
        assertTrue(!r.stderr().contains("\tat "), "no stack trace without --debug: " + r.stderr());
    }

    @Test
    void debugPrintsTheStackTrace() {
        Result r = zarr("--debug", "cat", "gs://bucket/x");
        assertEquals(2, r.code());
        assertTrue(r.stderr().contains("\tat "), r.stderr());
    }

    @Test
    void arrayPathReadsTheWholeArrayOrFails() throws IOException {
        String store = demo();
        Result ok = zarr("--array_path=" + Path.of(store, "counts"));
        assertEquals(0, ok.code(), ok.stderr());
        assertTrue(ok.out().contains("16 chunk(s), 65536 element(s)"), ok.out());
        Path chunk = Path.of(store, "counts", "c", "0", "0");
        Files.write(chunk, new byte[] {1});
        Result bad = zarr("--array_path=" + Path.of(store, "counts"));
        assertEquals(1, bad.code(), bad.out());
        assertTrue(bad.stderr().contains("counts") || bad.stderr().contains("c/0/0"), bad.stderr());
    }
}
