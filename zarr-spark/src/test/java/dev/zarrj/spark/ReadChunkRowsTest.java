package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.ext.datetime.DateTimeUnit;
import dev.zarrj.ext.datetime.NumpyTimeType;
import dev.zarrj.ext.strings.StringTypes;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chunk-per-row mode ({@code rows=chunks}): one row per chunk of the grid (per shard when
 * sharded) with {@code chunk_coords}, the origin per dimension (named as the dimension columns),
 * {@code chunk_shape} (trimmed at the edge) and each array's values flattened in C order.
 */
class ReadChunkRowsTest {
    /** {@code a}: int32 [10, 7] in chunks [4, 3] (a 3 × 3 grid, edge chunks trimmed); element (i, j) = 100 i + j. */
    static final long[] SHAPE = {10, 7};
    static final long[] CHUNKS = {4, 3};

    @TempDir
    static Path dir;

    @BeforeAll
    static void write() {
        Zarr zarr = Zarr.defaults();
        String at = dir.toString();
        int[] a = new int[70];
        long[] b = new long[70];
        for (int i = 0; i < 70; i++) {
            a[i] = 100 * (i / 7) + i % 7;
            b[i] = i % 3 == 0 ? 0 : -1L - i; // uint64: 2^64 - 1 - i
        }
        try (ZarrArray x = zarr.array(DataTypes.INT32, SHAPE).chunks(CHUNKS).create(at, "/a")) {
            x.write(new long[2], SHAPE, a);
        }
        try (ZarrArray x = zarr.array(DataTypes.UINT64, SHAPE).chunks(CHUNKS).dimensionNames("y", null)
                .create(at, "/b")) {
            x.write(new long[2], SHAPE, b);
        }
        short[] s = new short[16 * 16];
        for (int i = 0; i < s.length; i++) {
            s[i] = (short) i;
        }
        try (ZarrArray x = zarr.array(DataTypes.INT16, 16, 16).chunks(4, 4).shards(8, 8).create(at, "/s")) {
            x.write(new long[2], new long[] {16, 16}, s);
        }
        try (ZarrArray x = zarr.array(DataTypes.INT32, SHAPE).chunks(CHUNKS).dimensionNames("lat.deg", "lon `w`")
                .create(at, "/dotted")) {
            x.write(new long[2], SHAPE, a);
        }
        // sparse: fill 0, only chunks (0, 0) and (2, 1) stored
        try (ZarrArray x = zarr.array(DataTypes.INT32, SHAPE).chunks(CHUNKS).fillValue(0).create(at, "/sparse")) {
            x.write(new long[] {1, 1}, new long[] {1, 1}, new int[] {5});
            x.write(new long[] {9, 4}, new long[] {1, 1}, new int[] {-9});
        }
        try (ZarrArray x = zarr.array(DataTypes.FLOAT64).create(at, "/scalar")) {
            x.write(NdArray.copyOf(DataTypes.FLOAT64, new double[] {2.5}));
        }
        try (ZarrArray x = zarr.array(StringTypes.STRING, 5).chunks(2).codec("vlen-utf8").create(at, "/names")) {
            x.write(NdArray.copyOf(StringTypes.STRING, new String[] {"a", "", "ß€", "d", "🚀"}, 5));
        }
        NumpyTimeType ms = NumpyTimeType.datetime64(DateTimeUnit.MILLISECOND, 1);
        try (ZarrArray x = zarr.array(ms, 5).chunks(2).create(at, "/when")) {
            x.write(NdArray.copyOf(ms, new long[] {0, NumpyTimeType.NAT, 1_500, -2_000, 86_400_000}, 5));
        }
        NumpyTimeType days = NumpyTimeType.datetime64(DateTimeUnit.DAY, 1);
        try (ZarrArray x = zarr.array(days, 5).chunks(2).create(at, "/days")) {
            x.write(NdArray.copyOf(days, new long[] {0, 1, NumpyTimeType.NAT, -1, 20_000}, 5));
        }
        try (ZarrArray x = zarr.array(DataTypes.COMPLEX64, 3).chunks(2).create(at, "/z")) {
            x.write(NdArray.copyOf(DataTypes.COMPLEX64, new float[] {1, 2, 3, 4, 5, 6}, 3));
        }
    }

    private static Dataset<Row> chunks(String array, String... options) {
        List<String> all = new ArrayList<>(List.of(options));
        all.addAll(List.of("rows", "chunks", "array", array));
        return Tables.reader(all.toArray(new String[0])).load(dir.toString());
    }

    private static Dataset<Row> countedChunks(String array, String... options) {
        List<String> all = new ArrayList<>(List.of(options));
        all.addAll(List.of("rows", "chunks", "array", array));
        Dataset<Row> t = Tables.reader(all.toArray(new String[0])).load(CountingStoreProvider.uri(dir));
        CountingStoreProvider.reset(dir);
        return t;
    }

    private static Set<String> chunkKeysFetched(String array) {
        return new TreeSet<>(CountingStoreProvider.requestsPerKey(dir).keySet().stream()
                .filter(k -> k.startsWith(array + "/c/")).toList());
    }

    private static long[] longs(Row r, String column) {
        List<Object> l = r.getList(r.fieldIndex(column));
        return l.stream().mapToLong(o -> ((Number) o).longValue()).toArray();
    }

    private static String key(long[] coords) {
        StringBuilder s = new StringBuilder();
        for (long c : coords) {
            s.append(s.length() == 0 ? "" : ",").append(c);
        }
        return s.toString();
    }

    @Test
    void theSchemaIsCoordinatesOriginsShapeAndValueArrays() {
        StructType s = chunks("a").schema();
        assertEquals(List.of("chunk_coords", "dim_0", "dim_1", "chunk_shape", "a"), List.of(s.fieldNames()));
        assertEquals("array<bigint>", s.fields()[0].dataType().simpleString());
        assertEquals("bigint", s.fields()[1].dataType().simpleString());
        assertEquals("array<int>", s.fields()[3].dataType().simpleString());
        assertEquals("array<int>", s.fields()[4].dataType().simpleString());
        StructType b = chunks("b").schema();
        assertEquals(List.of("chunk_coords", "y", "dim_1", "chunk_shape", "b"), List.of(b.fieldNames()),
                "origin columns are named as the dimension columns");
        assertEquals("array<decimal(20,0)>", b.fields()[4].dataType().simpleString());
        StructType z = chunks("z").schema();
        assertEquals("array<struct<real:float,imag:float>>", z.fields()[3].dataType().simpleString());
        assertTrue(((ArrayType) z.fields()[3].dataType()).elementType() instanceof StructType);
    }

    @Test
    void oneRowPerChunkWithItsValuesInCOrder() {
        List<Row> rows = chunks("a").collectAsList();
        assertEquals(9, rows.size());
        Set<String> seen = new TreeSet<>();
        for (Row r : rows) {
            long[] coords = longs(r, "chunk_coords");
            assertTrue(seen.add(key(coords)), "one row per chunk");
            long[] origin = {r.getLong(1), r.getLong(2)};
            long[] shape = longs(r, "chunk_shape");
            for (int d = 0; d < 2; d++) {
                assertEquals(coords[d] * CHUNKS[d], origin[d], "origin of " + key(coords));
                assertEquals(Math.min(CHUNKS[d], SHAPE[d] - origin[d]), shape[d], "trimmed shape of " + key(coords));
            }
            List<Object> values = r.getList(4);
            assertEquals(shape[0] * shape[1], values.size(), key(coords));
            int k = 0;
            for (long i = origin[0]; i < origin[0] + shape[0]; i++) {
                for (long j = origin[1]; j < origin[1] + shape[1]; j++) {
                    assertEquals((int) (100 * i + j), values.get(k++), "element " + i + "," + j);
                }
            }
        }
        assertEquals(Set.of("0,0", "0,1", "0,2", "1,0", "1,1", "1,2", "2,0", "2,1", "2,2"), seen);
    }

    @Test
    void uint64ValuesAreDecimalsAndComplexValuesStructs() {
        for (Row r : chunks("b").collectAsList()) {
            long[] origin = {r.getLong(1), r.getLong(2)};
            long[] shape = longs(r, "chunk_shape");
            List<Object> values = r.getList(4);
            int k = 0;
            for (long i = origin[0]; i < origin[0] + shape[0]; i++) {
                for (long j = origin[1]; j < origin[1] + shape[1]; j++) {
                    long flat = i * 7 + j;
                    BigDecimal want = flat % 3 == 0 ? BigDecimal.ZERO
                            : new BigDecimal(java.math.BigInteger.TWO.pow(64).subtract(java.math.BigInteger.valueOf(1 + flat)));
                    assertEquals(0, want.compareTo((BigDecimal) values.get(k++)), "element " + flat);
                }
            }
        }
        Map<Long, List<String>> z = new TreeMap<>();
        for (Row r : chunks("z").collectAsList()) {
            List<String> parts = new ArrayList<>();
            for (Object o : r.getList(3)) {
                Row c = (Row) o;
                parts.add(c.getFloat(0) + "+" + c.getFloat(1) + "i");
            }
            z.put(r.getLong(1), parts);
        }
        assertEquals(Map.of(0L, List.of("1.0+2.0i", "3.0+4.0i"), 2L, List.of("5.0+6.0i")), z);
    }

    @Test
    void stringsTimestampsAndDatesWithNullsAreElements() {
        Dataset<Row> t = Tables.reader("rows", "chunks", "arrays", "names,when,days").load(dir.toString());
        assertEquals("array<string>", t.schema().fields()[3].dataType().simpleString());
        assertEquals("array<timestamp>", t.schema().fields()[4].dataType().simpleString());
        assertEquals("array<date>", t.schema().fields()[5].dataType().simpleString());
        Map<Long, List<Object>> dates = new TreeMap<>();
        Map<Long, List<Object>> names = new TreeMap<>();
        Map<Long, List<Object>> when = new TreeMap<>();
        for (Row r : t.collectAsList()) {
            names.put(r.getLong(1), r.getList(3));
            List<Object> instants = new ArrayList<>();
            for (Object o : r.getList(4)) {
                instants.add(o == null ? null : ((java.sql.Timestamp) o).toInstant().toEpochMilli());
            }
            when.put(r.getLong(1), instants);
            List<Object> ds = new ArrayList<>();
            for (Object o : r.getList(5)) {
                ds.add(o == null ? null : ((java.sql.Date) o).toLocalDate().toEpochDay());
            }
            dates.put(r.getLong(1), ds);
        }
        assertEquals(Arrays.asList(0L, 1L), dates.get(0L));
        assertEquals(Arrays.asList(null, -1L), dates.get(2L), "NaT is null");
        assertEquals(Arrays.asList(20_000L), dates.get(4L));
        assertEquals(Map.of(0L, List.of("a", ""), 2L, List.of("ß€", "d"), 4L, List.of("🚀")), names);
        assertEquals(List.of(0L), when.get(0L).subList(0, 1));
        assertEquals(null, when.get(0L).get(1), "NaT is null");
        assertEquals(List.of(1_500L, -2_000L), when.get(2L));
        assertEquals(List.of(86_400_000L), when.get(4L));
    }

    @Test
    void aShardedArrayHasOneRowPerShardFetchedOnce() {
        List<Row> rows = countedChunks("s").collectAsList();
        assertEquals(4, rows.size());
        for (Row r : rows) {
            assertEquals(List.of(8, 8), r.getList(3));
            List<Object> values = r.getList(4);
            assertEquals(64, values.size());
            long i0 = r.getLong(1);
            long j0 = r.getLong(2);
            assertEquals((short) (i0 * 16 + j0), values.get(0));
            assertEquals((short) ((i0 + 7) * 16 + j0 + 7), values.get(63));
        }
        Map<String, Integer> perKey = new TreeMap<>(CountingStoreProvider.requestsPerKey(dir));
        perKey.keySet().removeIf(k -> !k.startsWith("s/c/"));
        assertEquals(Map.of("s/c/0/0", 1, "s/c/0/1", 1, "s/c/1/0", 1, "s/c/1/1", 1), perKey);
    }

    @Test
    void filtersOnOriginsPruneChunks() {
        List<Row> rows = countedChunks("a").where("dim_0 = 4").collectAsList();
        assertEquals(3, rows.size());
        assertTrue(rows.stream().allMatch(r -> r.getLong(1) == 4));
        assertEquals(Set.of("a/c/1/0", "a/c/1/1", "a/c/1/2"), chunkKeysFetched("a"));

        rows = countedChunks("a").where("dim_0 >= 4 AND dim_1 < 3").collectAsList();
        assertEquals(2, rows.size());
        assertEquals(Set.of("a/c/1/0", "a/c/2/0"), chunkKeysFetched("a"));

        rows = countedChunks("a").where("dim_1 IN (3, 5, 6) OR dim_1 BETWEEN 100 AND 200").collectAsList();
        assertEquals(6, rows.size(), "origins 3 and 6 along dim_1");
        assertEquals(Set.of("a/c/0/1", "a/c/0/2", "a/c/1/1", "a/c/1/2", "a/c/2/1", "a/c/2/2"), chunkKeysFetched("a"));

        rows = countedChunks("a").where("dim_0 = 5").collectAsList();
        assertEquals(0, rows.size(), "no chunk starts at 5");
        assertEquals(Set.of(), chunkKeysFetched("a"));

        rows = countedChunks("a").where("dim_0 = 8 OR dim_1 = 6").collectAsList();
        assertEquals(5, rows.size(), "a row and a column of the grid, one chunk in both");
        assertEquals(Set.of("a/c/2/0", "a/c/2/1", "a/c/2/2", "a/c/0/2", "a/c/1/2"), chunkKeysFetched("a"));
    }

    @Test
    void filtersOnDimensionsSparkQuotesPruneChunks() {
        List<Row> rows = countedChunks("dotted").where("`lat.deg` = 4 AND `lon ``w``` < 3").collectAsList();
        assertEquals(1, rows.size());
        assertEquals(List.of("chunk_coords", "lat.deg", "lon `w`", "chunk_shape", "dotted"), List.of(rows.get(0).schema().fieldNames()));
        assertEquals(Set.of("dotted/c/1/0"), chunkKeysFetched("dotted"));
    }

    @Test
    void coordinatesAloneReadNoChunk() {
        List<Row> rows = countedChunks("a").select("chunk_coords", "chunk_shape").collectAsList();
        assertEquals(9, rows.size());
        assertEquals(Set.of(), chunkKeysFetched("a"));
        long elements = 0;
        for (Row r : rows) {
            List<Object> s = r.getList(1);
            elements += (long) (int) s.get(0) * (int) s.get(1);
        }
        assertEquals(70, elements, "the chunk shapes cover the array");
    }

    @Test
    void skipFillOmitsChunksNotStored() {
        Map<String, List<Object>> read = new TreeMap<>();
        for (Row r : countedChunks("sparse", "skipFill", "true").collectAsList()) {
            read.put(key(longs(r, "chunk_coords")), r.getList(4));
        }
        assertEquals(Set.of("0,0", "2,1"), read.keySet());
        assertEquals(5, read.get("0,0").get(4), "element (1, 1) in a 4 × 3 chunk");
        assertEquals(-9, read.get("2,1").get(4), "element (9, 4) is (1, 1) of chunk (2, 1), 2 × 3");
        assertEquals(Set.of("sparse/c/0/0", "sparse/c/2/1"), chunkKeysFetched("sparse"));
        assertEquals(9, chunks("sparse").count(), "without skipFill every chunk is a row");
    }

    @Test
    void severalArraysAreSeveralValueColumns() {
        Dataset<Row> t = Tables.reader("rows", "chunks", "arrays", "a,sparse").load(dir.toString());
        assertEquals(List.of("chunk_coords", "dim_0", "dim_1", "chunk_shape", "a", "sparse"), List.of(t.columns()));
        Row r = t.where("dim_0 = 0 AND dim_1 = 0").collectAsList().get(0);
        assertEquals(12, r.getList(4).size());
        assertEquals(101, r.getList(4).get(4));
        assertEquals(5, r.getList(5).get(4));
        assertEquals(0, r.getList(5).get(0));
    }

    @Test
    void aZeroDimensionalArrayIsOneRow() {
        List<Row> rows = chunks("scalar").collectAsList();
        assertEquals(1, rows.size());
        Row r = rows.get(0);
        assertEquals(List.of("chunk_coords", "chunk_shape", "scalar"), List.of(r.schema().fieldNames()));
        assertEquals(List.of(), r.getList(0));
        assertEquals(List.of(), r.getList(1));
        assertEquals(List.of(2.5), r.getList(2));
    }

    @Test
    void aSqlViewOfChunkRowsAggregatesEachChunk() {
        TestSpark.session().sql("CREATE OR REPLACE TEMPORARY VIEW chunk_rows_a USING zarr OPTIONS (path '"
                + dir.toString().replace("'", "\\'") + "', array 'a', rows 'chunks')");
        List<Row> rows = TestSpark.session().sql("SELECT dim_1, size(a), aggregate(a, 0L, (acc, x) -> acc + x) "
                + "FROM chunk_rows_a WHERE dim_0 = 8 ORDER BY dim_1").collectAsList();
        assertEquals(3, rows.size());
        for (Row r : rows) {
            long j0 = r.getLong(0);
            long sum = 0;
            int n = 0;
            for (long i = 8; i < 10; i++) {
                for (long j = j0; j < Math.min(j0 + 3, 7); j++) {
                    sum += 100 * i + j;
                    n++;
                }
            }
            assertEquals(n, r.getInt(1), "elements of the chunk at (8, " + j0 + ")");
            assertEquals(sum, r.getLong(2), "sum of the chunk at (8, " + j0 + ")");
        }
        TestSpark.session().catalog().dropTempView("chunk_rows_a");
    }

    @Test
    void anUnknownRowsOptionIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Tables.reader("rows", "shards", "array", "a").load(dir.toString()).collectAsList());
        assertTrue(e.getMessage().contains("'shards'"), e.getMessage());
    }
}
