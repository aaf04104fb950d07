package dev.zarrj.cli;

import static dev.zarrj.cli.ZarrCliTest.zarr;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * numpy.datetime64 and numpy.timedelta64 on the command line: cat prints ISO 8601 text (NaT as
 * null) in JSON and CSV and int64 counts in raw; info shows the NumPy spelling and NaT; create
 * takes --dtype numpy.datetime64[10ms] or the data_type JSON.
 */
class DateTimeCliTest {
    @TempDir
    Path tmp;

    private static Path vector(String id) {
        Optional<Path> root = VectorCatTest.vectors();
        Assumptions.assumeTrue(root.isPresent(), "shared test vectors not found");
        return root.get().resolve(id);
    }

    @Test
    void catJsonPrintsDatetimesAsIsoTextAndNaTAsNull() {
        ZarrCliTest.Result r = zarr("cat", vector("zarrs/zarr_python_compat/datetime64[10ms].zarr").toString(),
                "--format", "json");
        assertEquals(0, r.code(), r.stderr());
        assertEquals("[\"1970-01-01T00:00:00Z\",null,\"2005-02-03T00:00:00Z\",\"2005-02-03T04:05:00Z\","
                + "\"2005-02-03T04:05:06Z\",null]\n", r.out());
    }

    @Test
    void catJsonPrintsTimedeltasAsIsoDurations() {
        ZarrCliTest.Result r = zarr("cat", vector("zarrs/zarr_python_compat/timedelta64[ms].zarr").toString(),
                "--format", "json");
        assertEquals(0, r.code(), r.stderr());
        assertEquals("[\"PT31536000S\",\"PT1209600S\",\"PT259200S\",\"PT14400S\",\"PT300S\",\"PT6S\",\"PT7S\",\"PT8S\","
                + "\"PT9S\",\"PT0S\",null]\n", r.out());
    }

    @Test
    void catCsvFollowsJsonWithNaTAsAnEmptyField() {
        ZarrCliTest.Result r = zarr("cat", vector("zarrs/zarr_python_compat/datetime64[D].zarr").toString(),
                "--format", "csv");
        assertEquals(0, r.code(), r.stderr());
        assertEquals("1970-01-01T00:00:00Z\n\n2005-02-03T00:00:00Z\n2005-02-03T00:00:00Z\n2005-02-03T00:00:00Z\n\n", r.out());
    }

    @Test
    void catRawPrintsTheCountsLittleEndianWithNaTAsMinusTwoToThe63() {
        ZarrCliTest.Result r = zarr("cat", vector("zarrs/zarr_python_compat/datetime64[s].zarr").toString(),
                "--format", "raw");
        assertEquals(0, r.code(), r.stderr());
        ByteBuffer want = ByteBuffer.allocate(48).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : new long[] {0, Long.MIN_VALUE, 1107388800L, 1107403500L, 1107403506L, Long.MIN_VALUE}) {
            want.putLong(v);
        }
        assertArrayEquals(want.array(), r.stdout());
    }

    @Test
    void infoShowsTheNumpySpellingAndNaT() {
        ZarrCliTest.Result r = zarr("info", vector("zarrs/zarr_python_compat/datetime64[10ms].zarr").toString());
        assertEquals(0, r.code(), r.stderr());
        assertTrue(r.out().contains("numpy.datetime64[10ms] shape [6]"), r.out());
        assertTrue(r.out().contains("fill NaT,"), r.out());
    }

    @Test
    void createTakesTheNumpySpellingOrTheJsonAndWriteTakesRawCounts() throws Exception {
        Path store = tmp.resolve("t.zarr");
        ZarrCliTest.Result c = zarr("create", store.toString(), "--path", "/d", "--shape", "3", "--dtype",
                "numpy.datetime64[10ms]", "--fill", "NaT");
        assertEquals(0, c.code(), c.stderr());
        Path raw = tmp.resolve("in.raw");
        Files.write(raw, ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(110740350600L).putLong(-1).array());
        ZarrCliTest.Result w = zarr("write", store.toString(), "--path", "/d", "--region", "0:2", "--raw", raw.toString());
        assertEquals(0, w.code(), w.stderr());
        ZarrCliTest.Result r = zarr("cat", store.toString(), "--path", "/d", "--format", "json");
        assertEquals("[\"2005-02-03T04:05:06Z\",\"1969-12-31T23:59:59.990Z\",null]\n", r.out());
        var md = new ObjectMapper().readTree(store.resolve("d/zarr.json").toFile());
        assertEquals("{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"ms\",\"scale_factor\":10}}",
                md.get("data_type").toString());

        ZarrCliTest.Result j = zarr("create", store.toString(), "--path", "/g", "--shape", "2", "--dtype",
                "{\"name\": \"numpy.timedelta64\", \"configuration\": {\"unit\": \"generic\", \"scale_factor\": 1}}");
        assertEquals(0, j.code(), j.stderr());
        assertEquals("[0,0]\n", zarr("cat", store.toString(), "--path", "/g", "--format", "json").out(),
                "a generic unit has no ISO text: the counts");
        assertEquals(0, zarr("create", store.toString(), "--path", "/n", "--shape", "2", "--dtype", "datetime64").code());
        assertTrue(zarr("info", store.toString(), "--path", "/n").out().contains("numpy.datetime64[generic]"));
    }

    @Test
    void aBadDtypeIsOneLineNamingIt() {
        Path store = tmp.resolve("bad.zarr");
        ZarrCliTest.Result r = zarr("create", store.toString(), "--path", "/d", "--shape", "3", "--dtype",
                "numpy.datetime64[10parsecs]");
        assertEquals(2, r.code());
        assertTrue(r.stderr().contains("\"parsecs\"") && r.stderr().contains("unit"), r.stderr());
        assertEquals(1, r.stderr().strip().lines().count(), r.stderr());
        ZarrCliTest.Result u = zarr("create", store.toString(), "--path", "/d", "--shape", "3", "--dtype", "float7");
        assertEquals(2, u.code());
        assertTrue(u.stderr().contains("'float7'"), u.stderr());
    }
}
