package dev.zarrj.cli;

import static dev.zarrj.cli.ZarrCliTest.zarr;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.NdArray;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.ext.strings.FixedLengthUtf32Type;
import dev.zarrj.ext.strings.StringTypes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * string, bytes and fixed_length_utf32 on the command line: cat prints JSON strings (base64 for
 * bytes) and CSV that follows it, raw refuses the variable-length types in one line, create takes
 * --dtype string/bytes/fixed_length_utf32[&lt;U12], write takes the JSON cat prints, and info shows
 * type and fill value.
 */
class StringsCliTest {
    private static final Zarr ZARR = Zarr.defaults();

    @TempDir
    Path tmp;

    /** Text that needs escaping in JSON and quoting in CSV, beside non-ASCII and empty text. */
    private static final String[] TEXTS = {"héllo", "世界🚀", "", "a,b\"c\nd"};

    /** A string array of 6 elements in chunks of 2, fill "n/a": the last chunk is never written. */
    private String stringArray() {
        String store = tmp.resolve("s.zarr").toString();
        if (Files.exists(Path.of(store, "s", "zarr.json"))) {
            return store;
        }
        ZarrArray a = ZARR.array(StringTypes.STRING, 6).chunks(2).fillValue("n/a").create(store, "/s");
        a.write(new long[] {0}, NdArray.copyOf(StringTypes.STRING, TEXTS, 4));
        a.close();
        return store;
    }

    private static void assertOneLineError(ZarrCliTest.Result r, String mention) {
        assertEquals(2, r.code(), r.out() + r.stderr());
        assertTrue(r.stderr().contains(mention), "stderr should mention '" + mention + "': " + r.stderr());
        assertEquals(1, r.stderr().strip().lines().count(), r.stderr());
    }

    @Test
    void catJsonPrintsStringsWithUnicodeEmptyTextAndTheFillOfMissingChunks() {
        ZarrCliTest.Result r = zarr("cat", stringArray(), "--path", "/s", "--format", "json");
        assertEquals(0, r.code(), r.stderr());
        assertEquals("[\"héllo\",\"世界🚀\",\"\",\"a,b\\\"c\\nd\",\"n/a\",\"n/a\"]\n", r.out());
    }

    @Test
    void catCsvQuotesCommasQuotesLineBreaksAndEmptyText() {
        ZarrCliTest.Result r = zarr("cat", stringArray(), "--path", "/s", "--format", "csv");
        assertEquals(0, r.code(), r.stderr());
        assertEquals("héllo\n世界🚀\n\"\"\n\"a,b\"\"c\nd\"\nn/a\nn/a\n", r.out());
        ZarrCliTest.Result region = zarr("cat", stringArray(), "--path", "/s", "--format", "csv", "--region", "1:3");
        assertEquals("世界🚀\n\"\"\n", region.out(), "a region");
    }

    @Test
    void catCsvOfTwoDimensionsPutsARowPerLine() throws Exception {
        String store = tmp.resolve("m.zarr").toString();
        ZarrArray a = ZARR.array(StringTypes.STRING, 2, 2).chunks(1, 2).create(store, "/m");
        a.write(new long[] {0, 0}, NdArray.copyOf(StringTypes.STRING, new String[] {"x", "y,z"}, 1, 2));
        a.close();
        assertEquals("x,\"y,z\"\n\"\",\"\"\n", zarr("cat", store, "--path", "/m", "--format", "csv").out());
        assertEquals("[[\"x\",\"y,z\"],[\"\",\"\"]]\n", zarr("cat", store, "--path", "/m", "--format", "json").out());
    }

    @Test
    void catPrintsBytesAsBase64() {
        String store = tmp.resolve("b.zarr").toString();
        ZarrArray a = ZARR.array(StringTypes.BYTES, 3).chunks(2).create(store, "/b");
        a.write(new long[] {0}, NdArray.copyOf(StringTypes.BYTES, new byte[][] {{0, 1, 2, (byte) 255}, {}}, 2));
        a.close();
        assertEquals("[\"AAEC/w==\",\"\",\"\"]\n", zarr("cat", store, "--path", "/b", "--format", "json").out());
        assertEquals("AAEC/w==\n\"\"\n\"\"\n", zarr("cat", store, "--path", "/b", "--format", "csv").out());
    }

    @Test
    void catPrintsFixedLengthUtf32AsTextAndRawAsLittleEndianCodeUnits() {
        String store = tmp.resolve("u.zarr").toString();
        FixedLengthUtf32Type type = StringTypes.fixedLengthUtf32(4);
        ZarrArray a = ZARR.array(type, 4).chunks(2).fillValue("zz").create(store, "/u");
        a.write(new long[] {0}, type.copyOf(new String[] {"abc", "🎉"}, 2));
        a.close();
        assertEquals("[\"abc\",\"🎉\",\"zz\",\"zz\"]\n", zarr("cat", store, "--path", "/u", "--format", "json").out());
        assertEquals("abc\n🎉\nzz\nzz\n", zarr("cat", store, "--path", "/u", "--format", "csv").out());
        ByteBuffer want = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        for (String s : new String[] {"abc", "🎉", "zz", "zz"}) {
            int at = want.position();
            s.codePoints().forEach(want::putInt);
            want.position(at + 16);
        }
        ZarrCliTest.Result raw = zarr("cat", store, "--path", "/u", "--format", "raw");
        assertEquals(0, raw.code(), raw.stderr());
        assertArrayEquals(want.array(), raw.stdout());
    }

    @Test
    void rawRefusesVariableLengthTypesInOneLine() throws Exception {
        String store = stringArray();
        assertOneLineError(zarr("cat", store, "--path", "/s", "--format", "raw"),
                "--format raw cannot hold string elements, whose lengths vary; use --format json or csv");
        assertOneLineError(zarr("cat", store, "--path", "/s"), "--format raw cannot hold string elements");
        Path f = tmp.resolve("in.raw");
        Files.write(f, new byte[6]);
        assertOneLineError(zarr("write", store, "--path", "/s", "--raw", f.toString()),
                "--raw cannot hold string elements, whose lengths vary; give them as --json");
        ZARR.array(StringTypes.BYTES, 2).create(store, "/b").close();
        assertOneLineError(zarr("cat", store, "--path", "/b", "--format", "raw"), "cannot hold bytes elements");
    }

    @Test
    void createWriteCatRoundTripsStringsFromJson() throws Exception {
        String store = tmp.resolve("rt.zarr").toString();
        ZarrCliTest.Result c = zarr("create", store, "--path", "/s", "--shape", "2,3", "--chunks", "1,2", "--dtype", "string");
        assertEquals(0, c.code(), c.stderr());
        var md = new ObjectMapper().readTree(Path.of(store, "s", "zarr.json").toFile());
        assertEquals("\"string\"", md.get("data_type").toString());
        assertEquals("\"\"", md.get("fill_value").toString());
        assertEquals("vlen-utf8", md.get("codecs").get(0).get("name").asText());

        String doc = "[[\"ü, \\\"q\\\"\",\"\",\"x\\ny\"],[\"🚀\",\"plain\",\"\"]]";
        Path in = tmp.resolve("in.json");
        Files.writeString(in, doc);
        ZarrCliTest.Result w = zarr("write", store, "--path", "/s", "--json", in.toString());
        assertEquals(0, w.code(), w.stderr());
        assertEquals(doc + "\n", zarr("cat", store, "--path", "/s", "--format", "json").out());

        Files.writeString(in, "[[\"new\"]]");
        assertEquals(0, zarr("write", store, "--path", "/s", "--region", "1:2,2:3", "--json", in.toString()).code());
        assertEquals("[[\"🚀\",\"plain\",\"new\"]]\n",
                zarr("cat", store, "--path", "/s", "--region", "1:2,:", "--format", "json").out());
    }

    @Test
    void createWriteCatRoundTripsBytesFromBase64Json() throws Exception {
        String store = tmp.resolve("rb.zarr").toString();
        ZarrCliTest.Result c = zarr("create", store, "--path", "/b", "--shape", "3", "--dtype", "bytes", "--fill", "eA==");
        assertEquals(0, c.code(), c.stderr());
        var md = new ObjectMapper().readTree(Path.of(store, "b", "zarr.json").toFile());
        assertEquals("\"bytes\"", md.get("data_type").toString());
        assertEquals("vlen-bytes", md.get("codecs").get(0).get("name").asText());
        Path in = tmp.resolve("in.json");
        Files.writeString(in, "[\"AAE=\",\"\"]");
        ZarrCliTest.Result w = zarr("write", store, "--path", "/b", "--region", "0:2", "--json", in.toString());
        assertEquals(0, w.code(), w.stderr());
        assertEquals("[\"AAE=\",\"\",\"eA==\"]\n", zarr("cat", store, "--path", "/b", "--format", "json").out(),
                "the unwritten element is the fill value b'x'");
        Files.writeString(in, "[[0, 1], [255], [120]]");
        assertEquals(0, zarr("write", store, "--path", "/b", "--json", in.toString()).code(),
                "a byte string also as a list of integers");
        assertEquals("[\"AAE=\",\"/w==\",\"eA==\"]\n", zarr("cat", store, "--path", "/b", "--format", "json").out());
    }

    @Test
    void createTakesFixedLengthUtf32InNumpysSpellingAndWriteTakesJson() throws Exception {
        String store = tmp.resolve("f.zarr").toString();
        assertEquals(0, zarr("create", store, "--path", "/u", "--shape", "2", "--dtype", "fixed_length_utf32[<U3]",
                "--fill", "-").code());
        assertEquals(0, zarr("create", store, "--path", "/v", "--shape", "2", "--dtype", "fixed_length_utf32[12]").code());
        var md = new ObjectMapper().readTree(Path.of(store, "u", "zarr.json").toFile());
        assertEquals("{\"name\":\"fixed_length_utf32\",\"configuration\":{\"length_bytes\":12}}", md.get("data_type").toString());
        assertEquals("\"-\"", md.get("fill_value").toString());
        assertEquals(48, new ObjectMapper().readTree(Path.of(store, "v", "zarr.json").toFile())
                .get("data_type").get("configuration").get("length_bytes").asInt());
        Path in = tmp.resolve("in.json");
        Files.writeString(in, "[\"ab🎉\"]");
        assertEquals(0, zarr("write", store, "--path", "/u", "--region", "1:2", "--json", in.toString()).code());
        assertEquals("[\"-\",\"ab🎉\"]\n", zarr("cat", store, "--path", "/u", "--format", "json").out());
        Files.writeString(in, "[\"abcd\"]");
        assertOneLineError(zarr("write", store, "--path", "/u", "--region", "1:2", "--json", in.toString()),
                "has 4 code points");
        assertOneLineError(zarr("create", store, "--path", "/w", "--shape", "2", "--dtype", "fixed_length_utf32[0]"),
                "1 to");
        assertOneLineError(zarr("create", store, "--path", "/w", "--shape", "2", "--dtype", "fixed_length_utf32"),
                "length_bytes");
    }

    @Test
    void infoShowsTheTypesAndTheirFillValues() {
        String store = tmp.resolve("i.zarr").toString();
        assertEquals(0, zarr("create", store, "--path", "/s", "--shape", "3", "--dtype", "string", "--fill", "hello").code());
        assertEquals(0, zarr("create", store, "--path", "/q", "--shape", "3", "--dtype", "string", "--fill", "\"0\"").code());
        assertEquals(0, zarr("create", store, "--path", "/b", "--shape", "3", "--dtype", "bytes").code());
        assertEquals(0, zarr("create", store, "--path", "/c", "--shape", "3", "--dtype", "bytes", "--fill", "AAEC").code());
        assertEquals(0, zarr("create", store, "--path", "/u", "--shape", "3", "--dtype", "fixed_length_utf32[<U12]",
                "--fill", "é").code());
        ZarrCliTest.Result r = zarr("info", "-l", store);
        assertEquals(0, r.code(), r.stderr());
        assertTrue(r.out().contains("/s  array string shape [3]") && r.out().contains("fill \"hello\","), r.out());
        assertTrue(r.out().contains("/q  array string shape [3]") && r.out().contains("fill \"0\","), r.out());
        assertTrue(r.out().contains("/b  array bytes shape [3]") && r.out().contains("fill \"\","), r.out());
        assertTrue(r.out().contains("/c  array bytes shape [3]") && r.out().contains("fill \"AAEC\" (base64 of 3 bytes),"),
                r.out());
        assertTrue(r.out().contains("/u  array fixed_length_utf32[<U12] shape [3]") && r.out().contains("fill \"é\","),
                r.out());
    }

    @Test
    void aVariableLengthArrayHasNoCompressionRatio() {
        String store = stringArray();
        ZarrCliTest.Result r = zarr("info", store, "--path", "/s", "--json");
        assertEquals(0, r.code(), r.stderr());
        assertTrue(r.out().contains("\"stored_chunks\" : 2"), r.out());
        assertFalse(r.out().contains("compression_ratio"), "the decoded size of strings is only an estimate: " + r.out());
    }

    @Test
    void aShardedStringArrayGetsVlenUtf8InsideTheShards() throws Exception {
        String store = tmp.resolve("sh.zarr").toString();
        ZarrCliTest.Result c = zarr("create", store, "--path", "/s", "--shape", "4", "--chunks", "2", "--shard", "4",
                "--dtype", "string");
        assertEquals(0, c.code(), c.stderr());
        Path in = tmp.resolve("in.json");
        Files.writeString(in, "[\"a\",\"\",\"ccc\",\"dd\"]");
        ZarrCliTest.Result w = zarr("write", store, "--path", "/s", "--json", in.toString());
        assertEquals(0, w.code(), w.stderr());
        assertEquals("[\"a\",\"\",\"ccc\",\"dd\"]\n", zarr("cat", store, "--path", "/s", "--format", "json").out());
        var md = new ObjectMapper().readTree(Path.of(store, "s", "zarr.json").toFile());
        assertEquals("vlen-utf8", md.get("codecs").get(0).get("configuration").get("codecs").get(0).get("name").asText());
    }

    @Test
    void writeJsonErrorsAreOneLine() throws Exception {
        String store = stringArray();
        Path in = tmp.resolve("in.json");
        Files.writeString(in, "[\"a\",\"b\"]");
        assertOneLineError(zarr("write", store, "--path", "/s", "--region", "0:3", "--json", in.toString()),
                "--json document: expected an array of 3");
        Files.writeString(in, "[\"a\",7]");
        assertOneLineError(zarr("write", store, "--path", "/s", "--region", "0:2", "--json", in.toString()),
                "--json element [1]");
        Files.writeString(in, "[\"a\",null]");
        assertOneLineError(zarr("write", store, "--path", "/s", "--region", "0:2", "--json", in.toString()),
                "--json element [1]");
        Files.writeString(in, "[\"a\",\"b\"] x");
        assertOneLineError(zarr("write", store, "--path", "/s", "--region", "0:2", "--json", in.toString()),
                "is not valid JSON");
        assertOneLineError(zarr("write", store, "--path", "/s", "--json", tmp.resolve("none.json").toString()),
                "no such file");
        assertOneLineError(zarr("write", store, "--path", "/s"), "one of --raw FILE or --json FILE");
        assertOneLineError(zarr("write", store, "--path", "/s", "--raw", in.toString(), "--json", in.toString()),
                "one of --raw FILE or --json FILE");
        assertEquals("[\"héllo\",\"世界🚀\"]\n", zarr("cat", store, "--path", "/s", "--region", "0:2", "--format", "json")
                .out(), "nothing written");
    }

    /** zarr-python 3.0's name for bytes is read with a warning, which the command prints as one line. */
    @Test
    void theWarningForVariableLengthBytesIsOneLine() throws Exception {
        Optional<Path> vectors = VectorCatTest.vectors();
        Assumptions.assumeTrue(vectors.isPresent() && CliJvm.available(), "needs the shared vectors and a JVM to start");
        CliJvm.Run r = CliJvm.finish(CliJvm.start("cat",
                vectors.get().resolve("zarrs/zarr_python_compat/v3_bytes.zarr").toString(), "--format", "json"));
        assertEquals(0, r.code(), r.err());
        assertEquals("[\"TmV3IFlvcms=\",\"TG9zIEFuZ2VsZXM=\",\"Q2hpY2Fnbw==\"]\n", r.out(), "New York, Los Angeles, Chicago");
        assertEquals("zarr: WARNING: data type 'variable_length_bytes' (as zarr-python 3.0 wrote it) read as 'bytes',"
                + " the name zarrj writes\n", r.err());
    }

    @Test
    void writeJsonTakesNumbersAndIsoDatetimesAsCatPrintsThem() throws Exception {
        String store = tmp.resolve("n.zarr").toString();
        assertEquals(0, zarr("create", store, "--path", "/f", "--shape", "2,2", "--dtype", "float32").code());
        Path in = tmp.resolve("in.json");
        Files.writeString(in, "[[1.5,\"NaN\"],[-2,\"-Infinity\"]]");
        assertEquals(0, zarr("write", store, "--path", "/f", "--json", in.toString()).code());
        assertEquals("[[1.5,\"NaN\"],[-2.0,\"-Infinity\"]]\n", zarr("cat", store, "--path", "/f", "--format", "json").out());

        assertEquals(0, zarr("create", store, "--path", "/d", "--shape", "3", "--dtype", "numpy.datetime64[10ms]").code());
        String doc = "[\"2005-02-03T04:05:06.010Z\",null,\"1969-12-31T23:59:59.990Z\"]";
        Files.writeString(in, doc);
        ZarrCliTest.Result w = zarr("write", store, "--path", "/d", "--json", in.toString());
        assertEquals(0, w.code(), w.stderr());
        assertEquals(doc + "\n", zarr("cat", store, "--path", "/d", "--format", "json").out());
        Files.writeString(in, "[\"2005-02-03T04:05:06.001Z\"]");
        assertOneLineError(zarr("write", store, "--path", "/d", "--region", "0:1", "--json", in.toString()),
                "--json element [0]");
    }
}
