package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reads whatever the layout: batches smaller than a chunk, one partition for everything, edge
 * shards, a Zarr v2 array, a zip store, an empty array, and queries that need no value column.
 */
class ReadLayoutsTest {
    /** int32 [9, 11] in chunks [4, 3]; element (i, j) = 1000 i + j, fill 0 (element (0, 0)). */
    static final long[] SHAPE = {9, 11};

    @TempDir
    static Path dir;

    @BeforeAll
    static void write() {
        Zarr zarr = Zarr.defaults();
        int[] v = new int[99];
        for (int i = 0; i < v.length; i++) {
            v[i] = 1000 * (i / 11) + i % 11;
        }
        try (ZarrArray a = zarr.array(DataTypes.INT32, SHAPE).chunks(4, 3).create(dir.toString(), "/a")) {
            a.write(new long[2], SHAPE, v);
        }
        try (ZarrArray a = zarr.array(DataTypes.INT32, SHAPE).chunks(4, 3).dimensionNames("y", "x").zarrFormat(2).create(dir.resolve("v2").toString(), "/a")) {
            a.write(new long[2], SHAPE, v);
        }
        // shards [8, 8] of chunks [4, 4]: the second shard row and column overhang the edge
        try (ZarrArray a = zarr.array(DataTypes.INT32, SHAPE).chunks(4, 4).shards(8, 8).create(dir.toString(), "/s")) {
            a.write(new long[2], SHAPE, v);
        }
        try (ZarrArray a = zarr.array(DataTypes.INT32, 0, 5).chunks(2, 2).create(dir.toString(), "/empty")) {
            a.attributes();
        }
        String zip = dir.resolve("data.zip").toString();
        try (ZarrArray a = zarr.array(DataTypes.INT32, SHAPE).chunks(4, 3).create(zip, "/a")) {
            a.write(new long[2], SHAPE, v);
        }
    }

    private static void assertElements(Dataset<Row> t, String what) {
        Object[] read = Tables.byElement(t, SHAPE);
        for (int i = 0; i < read.length; i++) {
            assertEquals(1000 * (i / 11) + i % 11, read[i], what + ": element " + i);
        }
    }

    @ParameterizedTest(name = "batchRows={0}")
    @ValueSource(strings = {"1", "5", "7", "12", "1000"})
    void batchesOfAnySizeGiveEveryElement(String batchRows) {
        assertElements(Tables.read(dir.toString(), "a", "batchRows", batchRows), "batchRows " + batchRows);
        Map<String, Integer> read = new TreeMap<>();
        for (Row r : Tables.read(dir.toString(), "a", "batchRows", batchRows, "skipFill", "true")
                .where("dim_1 IN (0, 4, 10) AND dim_0 < 3").collectAsList()) {
            read.put(r.getLong(0) + "," + r.getLong(1), r.getInt(2));
        }
        Map<String, Integer> want = new TreeMap<>();
        for (int i = 0; i < 3; i++) {
            for (int j : new int[] {0, 4, 10}) {
                if (i != 0 || j != 0) {
                    want.put(i + "," + j, 1000 * i + j);
                }
            }
        }
        assertEquals(want, read, "skipFill and filters with batchRows " + batchRows);
    }

    /** Shards and chunks larger than {@code regionBytes} are read in slabs: every element still once. */
    @ParameterizedTest(name = "regionBytes={0}")
    @ValueSource(strings = {"4", "16", "64", "100", "128", "1k"})
    void slabsOfAnySizeGiveEveryElement(String regionBytes) {
        for (String array : List.of("s", "a")) {
            String what = array + " regionBytes " + regionBytes;
            assertElements(Tables.read(dir.toString(), array, "regionBytes", regionBytes, "batchRows", "5"), what);
            Map<String, Integer> read = new TreeMap<>();
            for (Row r : Tables.read(dir.toString(), array, "regionBytes", regionBytes, "skipFill", "true")
                    .where("dim_0 BETWEEN 1 AND 6 AND dim_1 IN (0, 3, 4, 5, 9)").collectAsList()) {
                assertEquals(null, read.put(r.getLong(0) + "," + r.getLong(1), r.getInt(2)), what + ": one row per element");
            }
            Map<String, Integer> want = new TreeMap<>();
            for (int i = 1; i <= 6; i++) {
                for (int j : new int[] {0, 3, 4, 5, 9}) {
                    want.put(i + "," + j, 1000 * i + j);
                }
            }
            assertEquals(want, read, what + ": filtered");
        }
    }

    @Test
    void onePartitionOrOneChunkPerPartitionGiveEveryElement() {
        assertElements(Tables.read(dir.toString(), "a", "maxPartitions", "1"), "maxPartitions 1");
        assertEquals(1, Tables.read(dir.toString(), "a", "maxPartitions", "1").rdd().getNumPartitions());
        assertElements(Tables.read(dir.toString(), "a", "partitionBytes", "1"), "partitionBytes 1");
        assertEquals(12, Tables.read(dir.toString(), "a", "partitionBytes", "1").rdd().getNumPartitions(),
                "one partition per chunk of the 3 × 4 grid");
    }

    @Test
    void edgeShardsAreReadWholeAndFetchedOnce() {
        Dataset<Row> t = Tables.read(CountingStoreProvider.uri(dir), "s");
        CountingStoreProvider.reset(dir);
        assertElements(t, "sharded");
        Map<String, Integer> perKey = new TreeMap<>(CountingStoreProvider.requestsPerKey(dir));
        perKey.keySet().removeIf(k -> !k.startsWith("s/c/"));
        assertEquals(Map.of("s/c/0/0", 1, "s/c/0/1", 1, "s/c/1/0", 1, "s/c/1/1", 1), perKey,
                "each shard in one request: " + CountingStoreProvider.requests(dir));
    }

    /**
     * A query that stops early ({@code limit}) cancels the chunks read ahead, interrupting their
     * threads; the store kept for the next query still reads (a zip archive's shared channel is
     * closed by such an interrupt).
     */
    @Test
    void readsAfterQueriesThatStopEarly() {
        String zip = dir.resolve("data.zip").toString();
        for (int i = 0; i < 5; i++) {
            assertEquals(1, Tables.read(zip, "a", "batchRows", "1", "partitionBytes", "1g", "maxPartitions", "1")
                    .limit(1).collectAsList().size());
            assertEquals(1, Tables.read(dir.toString(), "s", "batchRows", "1", "regionBytes", "16").limit(1)
                    .collectAsList().size());
        }
        assertElements(Tables.read(zip, "a"), "zip after early stops");
        assertElements(Tables.read(dir.toString(), "s"), "sharded after early stops");
    }

    @Test
    void aZarrV2Array() {
        Dataset<Row> t = Tables.read(dir.resolve("v2").toString(), "a");
        assertEquals(List.of("y", "x", "a"), List.of(t.columns()), "dimension names from _ARRAY_DIMENSIONS");
        assertElements(t, "v2");
        assertEquals(List.of(5L), t.where("y = 5 AND x = 10").collectAsList().stream().map(r -> r.getLong(0)).toList());
    }

    @Test
    void aZipStore() {
        assertElements(Tables.read(dir.resolve("data.zip").toString(), "a"), "zip");
    }

    /**
     * A zip archive replaced between two reads in one JVM reads as its new content: the store
     * kept open for the first read is not reused for a file that changed (before, the second read
     * gave the first archive's schema and values).
     */
    @Test
    void aZipReplacedBetweenReadsReadsAsItsNewContent(@TempDir Path tmp) throws Exception {
        Zarr zarr = Zarr.defaults();
        String zip = tmp.resolve("replaced.zip").toString();
        try (ZarrArray a = zarr.array(DataTypes.INT32, 4).chunks(2).create(zip, "/x")) {
            a.write(new long[1], new long[] {4}, new int[] {1, 2, 3, 4});
        }
        assertEquals(List.of(1, 2, 3, 4), Tables.read(zip, "x").orderBy("dim_0").collectAsList().stream()
                .map(r -> r.get(1)).toList());
        java.nio.file.Files.delete(Path.of(zip));
        try (ZarrArray a = zarr.array(DataTypes.INT64, 6).chunks(3).create(zip, "/x")) {
            a.write(new long[1], new long[] {6}, new long[] {10, 20, 30, 40, 50, 60});
        }
        Dataset<Row> t = Tables.read(zip, "x");
        assertEquals("bigint", t.schema().fields()[1].dataType().simpleString());
        assertEquals(List.of(10L, 20L, 30L, 40L, 50L, 60L), t.orderBy("dim_0").collectAsList().stream()
                .map(r -> r.get(1)).toList());
    }

    @Test
    void anEmptyArrayIsAnEmptyTable() {
        Dataset<Row> t = Tables.read(dir.toString(), "empty");
        assertEquals(List.of("dim_0", "dim_1", "empty"), List.of(t.columns()));
        assertEquals(0, t.collectAsList().size());
    }

    @Test
    void aCountReadsNoChunk() {
        Dataset<Row> t = Tables.read(CountingStoreProvider.uri(dir), "a");
        CountingStoreProvider.reset(dir);
        assertEquals(3 * 11, t.where("dim_0 >= 6").count());
        assertEquals(4 * 3, t.where("dim_0 < 4 AND dim_1 BETWEEN 3 AND 5").select("dim_1").collectAsList().size());
        Map<String, Integer> perKey = new TreeMap<>(CountingStoreProvider.requestsPerKey(dir));
        perKey.keySet().removeIf(k -> !k.startsWith("a/c/"));
        assertEquals(Map.of(), perKey, "no value column is used");
    }

    @Test
    void filtersPushDownCannotExpressStillGiveTheRightRows() {
        Dataset<Row> t = Tables.read(dir.toString(), "a");
        assertEquals(9 + 11 - 1, t.where("dim_0 = 1 OR dim_1 = 2").count(), "OR across dimensions");
        assertEquals(99 - 11, t.where("NOT (dim_0 = 4)").count(), "NOT");
        assertEquals(3 * 11, t.where("dim_0 < 2.5").count(), "a decimal literal");
        assertEquals(2 * 11, t.where("dim_0 > 6.5").count(), "a decimal literal");
        assertEquals(0, t.where("dim_0 < -1").count(), "a negative bound");
        assertEquals(99, t.where("dim_0 > -1").count(), "a negative bound");
        assertEquals(0, t.where("dim_0 = 5 AND dim_0 = 6").count(), "a contradiction");
        assertEquals(11, t.where("dim_0 = '5'").count(), "a string literal");
        assertEquals(1, t.where("dim_0 <=> 5 AND dim_1 = 10").count(), "null-safe equality");
        assertEquals(0, t.where("dim_0 = 9223372036854775807").count(), "the largest long");
    }
}
