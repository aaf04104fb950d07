package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.spark.CountingStoreProvider.Request;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Filters on dimension columns prune chunks: a read through the {@code counting:} store
 * ({@link CountingStoreProvider}) fetches exactly the chunks (shards) the filter's rows lie in, and
 * a full read fetches each chunk or shard once.
 */
class ReadPruningTest {
    /** {@code p}: int32 [12, 10, 8] in chunks [2, 5, 4], a grid of 6 × 2 × 2; element (i, j, k) = 10000 i + 100 j + k. */
    static final long[] SHAPE = {12, 10, 8};
    static final long[] CHUNKS = {2, 5, 4};
    /** {@code s}: int16 [16, 16] in shards [8, 8] of chunks [4, 4]; element (i, j) = 16 i + j. */
    static final long[] S_SHAPE = {16, 16};

    @TempDir
    static Path dir;

    @BeforeAll
    static void write() {
        int[] values = new int[12 * 10 * 8];
        for (int i = 0; i < 12; i++) {
            for (int j = 0; j < 10; j++) {
                for (int k = 0; k < 8; k++) {
                    values[(i * 10 + j) * 8 + k] = value(i, j, k);
                }
            }
        }
        short[] s = new short[16 * 16];
        for (int i = 0; i < s.length; i++) {
            s[i] = (short) i;
        }
        Zarr zarr = Zarr.defaults();
        try (ZarrArray a = zarr.array(DataTypes.INT32, SHAPE).chunks(CHUNKS).fillValue(-1).create(dir.toString(), "/p")) {
            a.write(new long[3], SHAPE, values);
        }
        try (ZarrArray a = zarr.array(DataTypes.INT16, S_SHAPE).chunks(4, 4).shards(8, 8).create(dir.toString(), "/s")) {
            a.write(new long[2], S_SHAPE, s);
        }
        try (ZarrArray a = zarr.array(DataTypes.INT16, S_SHAPE).chunks(4, 4).dimensionNames("lat.deg", "lon `w`")
                .create(dir.toString(), "/named")) {
            a.write(new long[2], S_SHAPE, s);
        }
    }

    static int value(long i, long j, long k) {
        return (int) (10000 * i + 100 * j + k);
    }

    /** The table of {@code p} read through the counting store, with the counts reset. */
    private static Dataset<Row> table(String array) {
        Dataset<Row> t = Tables.read(CountingStoreProvider.uri(dir), array);
        CountingStoreProvider.reset(dir);
        return t;
    }

    /** The chunk keys of an array that were requested, with how often. */
    private static Map<String, Integer> chunkRequests(String array) {
        Map<String, Integer> out = new java.util.TreeMap<>();
        CountingStoreProvider.requestsPerKey(dir).forEach((k, n) -> {
            if (k.startsWith(array + "/c/")) {
                out.put(k, n);
            }
        });
        return out;
    }

    /** The keys of {@code p}'s chunks whose grid coordinates pass the tests. */
    private static Set<String> chunkKeys(IntPredicate ci, IntPredicate cj, IntPredicate ck) {
        Set<String> out = new TreeSet<>();
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 2; j++) {
                for (int k = 0; k < 2; k++) {
                    if (ci.test(i) && cj.test(j) && ck.test(k)) {
                        out.add("p/c/" + i + "/" + j + "/" + k);
                    }
                }
            }
        }
        return out;
    }

    /** Asserts that the rows are exactly the elements passing the tests, with their values. */
    private static void assertRows(List<Row> rows, IntPredicate i, IntPredicate j, IntPredicate k, String what) {
        assertRows(rows, i, j, k, v -> true, what);
    }

    /** Asserts that the rows are exactly the elements passing the tests, with their values. */
    private static void assertRows(List<Row> rows, IntPredicate i, IntPredicate j, IntPredicate k, IntPredicate value,
                                   String what) {
        Set<String> want = new TreeSet<>();
        for (int a = 0; a < 12; a++) {
            for (int b = 0; b < 10; b++) {
                for (int c = 0; c < 8; c++) {
                    if (i.test(a) && j.test(b) && k.test(c) && value.test(value(a, b, c))) {
                        want.add(a + "," + b + "," + c + "=" + value(a, b, c));
                    }
                }
            }
        }
        List<String> got = rows.stream().map(r -> r.getLong(0) + "," + r.getLong(1) + "," + r.getLong(2) + "=" + r.getInt(3))
                .sorted().toList();
        assertEquals(want.size(), got.size(), what + ": row count");
        assertEquals(new ArrayList<>(want), got, what + ": rows");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        // filter; dim_0 range [from, to); dim_1 range; dim_2 range
        "dim_0 = 5; 5; 6; 0; 10; 0; 8",
        "dim_0 BETWEEN 3 AND 6; 3; 7; 0; 10; 0; 8",
        "dim_2 < 4; 0; 12; 0; 10; 0; 4",
        "dim_0 >= 10; 10; 12; 0; 10; 0; 8",
        "dim_1 > 4 AND dim_1 <= 5; 0; 12; 5; 6; 0; 8",
        "dim_0 = 5 AND dim_1 >= 5 AND dim_2 < 4; 5; 6; 5; 10; 0; 4",
        "dim_0 > 100; 0; 0; 0; 10; 0; 8",
        "5 > dim_0 AND dim_0 > 2; 3; 5; 0; 10; 0; 8",
    })
    void rangesAndEqualityReadOnlyTheChunksTheyNeed(String filter, int i0, int i1, int j0, int j1, int k0, int k1) {
        IntPredicate i = x -> x >= i0 && x < i1;
        IntPredicate j = x -> x >= j0 && x < j1;
        IntPredicate k = x -> x >= k0 && x < k1;
        List<Row> rows = table("p").where(filter).collectAsList();
        assertRows(rows, i, j, k, filter);
        Set<String> want = chunkKeys(c -> overlaps(c, CHUNKS[0], i0, i1), c -> overlaps(c, CHUNKS[1], j0, j1),
                c -> overlaps(c, CHUNKS[2], k0, k1));
        assertEquals(want, chunkRequests("p").keySet(), filter + ": the chunks fetched");
    }

    private static boolean overlaps(int chunk, long size, int from, int to) {
        return chunk * size < to && (chunk + 1) * size > from;
    }

    @Test
    void inListsReadOnlyTheChunksOfTheirValues() {
        String filter = "dim_0 IN (1, 11, 50) AND dim_2 IN (6)";
        List<Row> rows = table("p").where(filter).collectAsList();
        assertRows(rows, x -> x == 1 || x == 11, x -> true, x -> x == 6, filter);
        assertEquals(chunkKeys(c -> c == 0 || c == 5, c -> true, c -> c == 1), chunkRequests("p").keySet(), filter);
    }

    @Test
    void aFilterOnTheValueGivesTheRightRows() {
        List<Row> rows = table("p").where("p % 7 = 0 AND dim_1 = 3").collectAsList();
        assertRows(rows, x -> true, x -> x == 3, x -> true, v -> v % 7 == 0, "value filter");
        assertEquals(chunkKeys(c -> true, c -> c == 0, c -> true), chunkRequests("p").keySet(), "dim_1 = 3 prunes still");
    }

    @Test
    void aFullReadFetchesEachChunkOnce() {
        List<Row> rows = table("p").collectAsList();
        assertRows(rows, x -> true, x -> true, x -> true, "full read");
        Map<String, Integer> requests = chunkRequests("p");
        assertEquals(chunkKeys(c -> true, c -> true, c -> true), requests.keySet(), "every chunk");
        assertEquals(Set.of(1), Set.copyOf(requests.values()), "each chunk fetched once: " + requests);
    }

    @Test
    void aFullReadOfAShardedArrayFetchesEachShardOnce() {
        List<Row> rows = table("s").collectAsList();
        assertEquals(256, rows.size());
        for (Row r : rows) {
            assertEquals((short) (r.getLong(0) * 16 + r.getLong(1)), r.getShort(2), r.toString());
        }
        Map<String, Integer> requests = chunkRequests("s");
        assertEquals(Set.of("s/c/0/0", "s/c/0/1", "s/c/1/0", "s/c/1/1"), requests.keySet());
        List<Request> all = CountingStoreProvider.requests(dir).stream().filter(r -> r.key().startsWith("s/c/")).toList();
        assertEquals(Set.of(1), Set.copyOf(requests.values()), "each shard fetched in one request: " + all);
    }

    /**
     * Spark quotes a column name that is not a plain identifier in the filters it pushes
     * ({@code `lat.deg`}); such dimensions prune too (before, their filters pruned nothing).
     */
    @Test
    void dimensionNamesThatSparkQuotesStillPrune() {
        List<Row> rows = table("named").where("`lat.deg` = 5 AND `lon ``w``` >= 12").collectAsList();
        assertEquals(4, rows.size());
        for (Row r : rows) {
            assertEquals(5, r.getLong(0));
            assertEquals((short) (5 * 16 + r.getLong(1)), r.getShort(2));
        }
        assertEquals(Set.of("named/c/1/3"), chunkRequests("named").keySet());
    }

    @Test
    void aFilterOnAShardedArrayReadsOnlyItsShards() {
        List<Row> rows = table("s").where("dim_0 < 8 AND dim_1 IN (9, 10)").collectAsList();
        assertEquals(16, rows.size());
        assertEquals(Set.of("s/c/0/1"), chunkRequests("s").keySet(),
                "the one shard holding the rows: " + CountingStoreProvider.requests(dir));
        assertEquals(List.of(9L, 10L), rows.stream().map(r -> r.getLong(1)).distinct().sorted().collect(Collectors.toList()));
    }
}
