package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sparse arrays: without {@code skipFill} every element is a row (absent chunks read as the fill
 * value); with {@code skipFill=true} absent chunks give no rows and are not fetched, and elements
 * equal to the fill value are omitted. Several arrays of one grid read as one column each.
 */
class ReadSkipFillTest {
    @TempDir
    static Path dir;

    /** {@code a}: int32 [6, 6] in chunks [3, 3], fill 0; only chunks (0, 0) and (1, 1) are stored. */
    static final Map<String, Integer> A = new TreeMap<>(Map.of("0,0", 5, "0,2", 0, "1,1", -3, "4,5", 9));
    /** {@code b}: float32 [6, 6] in chunks [3, 3], fill NaN; chunks (0, 0) and (0, 1) stored. */
    static final Map<String, Float> B = new TreeMap<>(Map.of("0,0", 1.5f, "1,1", Float.NaN, "2,4", -2f));

    @BeforeAll
    static void write() {
        Zarr zarr = Zarr.defaults();
        try (ZarrArray a = zarr.array(DataTypes.INT32, 6, 6).chunks(3, 3).fillValue(0).create(dir.toString(), "/a")) {
            A.forEach((k, v) -> a.write(at(k), new long[] {1, 1}, new int[] {v}));
        }
        try (ZarrArray b = zarr.array(DataTypes.FLOAT32, 6, 6).chunks(3, 3).fillValue(Float.NaN).create(dir.toString(), "/b")) {
            B.forEach((k, v) -> b.write(at(k), new long[] {1, 1}, new float[] {v}));
            // A chunk with nothing but fill values that is stored all the same.
            b.write(new long[] {3, 3}, new long[] {1, 1}, new float[] {7f});
            b.write(new long[] {3, 3}, new long[] {1, 1}, new float[] {Float.NaN});
        }
    }

    private static long[] at(String key) {
        String[] p = key.split(",");
        return new long[] {Long.parseLong(p[0]), Long.parseLong(p[1])};
    }

    private static String key(Row r) {
        return r.getLong(0) + "," + r.getLong(1);
    }

    @Test
    void theStoredChunksAreTheOnesThisTestExpects() {
        try (ZarrArray a = Zarr.defaults().openArray(dir.toString(), "/a", true)) {
            assertEquals(Set.of("0,0", "1,1"), coords(a.storedChunks()));
        }
    }

    private static Set<String> coords(List<long[]> chunks) {
        Set<String> out = new TreeSet<>();
        chunks.forEach(c -> out.add(c[0] + "," + c[1]));
        return out;
    }

    @Test
    void withoutSkipFillEveryElementIsARow() {
        Object[] read = Tables.byElement(Tables.read(dir.toString(), "a"), new long[] {6, 6});
        for (int i = 0; i < 36; i++) {
            assertEquals(A.getOrDefault(i / 6 + "," + i % 6, 0), read[i], "element " + i);
        }
    }

    @Test
    void skipFillOmitsFillValuesAndAbsentChunks() {
        Dataset<Row> t = Tables.read(CountingStoreProvider.uri(dir), "a", "skipFill", "true");
        CountingStoreProvider.reset(dir);
        Map<String, Integer> read = new TreeMap<>();
        for (Row r : t.collectAsList()) {
            assertEquals(null, read.put(key(r), r.getInt(2)), "one row per element");
        }
        Map<String, Integer> want = new TreeMap<>(A);
        want.remove("0,2");
        assertEquals(want, read, "the elements other than the fill value");
        Set<String> fetched = new TreeSet<>();
        CountingStoreProvider.requests(dir).forEach(q -> {
            if (q.key().startsWith("a/c/")) {
                fetched.add(q.key());
            }
        });
        assertEquals(Set.of("a/c/0/0", "a/c/1/1"), fetched, "absent chunks are not requested");
    }

    @Test
    void skipFillWithANanFillOmitsNan() {
        Dataset<Row> t = Tables.read(dir.toString(), "b", "skipFill", "true");
        Map<String, Float> read = new TreeMap<>();
        for (Row r : t.collectAsList()) {
            read.put(key(r), r.getFloat(2));
        }
        assertEquals(Map.of("0,0", 1.5f, "2,4", -2f), read, "NaN is the fill value, elements holding it are omitted");
    }

    @Test
    void severalArraysAreColumns() {
        Dataset<Row> t = Tables.reader("arrays", "a,b").load(dir.toString());
        assertEquals(List.of("dim_0", "dim_1", "a", "b"), List.of(t.columns()));
        assertEquals(36, t.count());
        for (Row r : t.collectAsList()) {
            String k = key(r);
            assertEquals(A.getOrDefault(k, 0), r.getInt(2), k);
            assertEquals(B.getOrDefault(k, Float.NaN), r.getFloat(3), k);
        }
    }

    @Test
    void severalArraysWithSkipFillKeepAnElementThatOneOfThemHolds() {
        Dataset<Row> t = Tables.reader("arrays", "a,b", "skipFill", "true").load(dir.toString());
        Map<String, String> read = new TreeMap<>();
        for (Row r : t.collectAsList()) {
            read.put(key(r), r.getInt(2) + "/" + r.getFloat(3));
        }
        Map<String, String> want = new TreeMap<>();
        for (String k : List.of("0,0", "1,1", "4,5", "2,4")) {
            want.put(k, A.getOrDefault(k, 0) + "/" + B.getOrDefault(k, Float.NaN));
        }
        assertEquals(want, read, "rows where any array holds something other than its fill value");
        assertTrue(t.where("a = 0").count() > 0, "a row kept for b alone holds a's fill value");
    }
}
