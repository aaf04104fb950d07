package dev.zarrj.spark;

import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Defects found in review of the read and write paths (each test failed before its fix), and
 * edge cases checked on the way: empty and 0-d arrays, pruning by compound filters, dotted
 * dimension names, skipFill on shards and strings.
 */
class ReviewDefectsTest {
    @TempDir
    Path dir;

    private Dataset<Row> read(String... options) {
        DataFrameReader r = TestSpark.session().read().format("zarr");
        for (int i = 0; i < options.length; i += 2) {
            r = r.option(options[i], options[i + 1]);
        }
        return r.load(dir.toString());
    }

    /** The query with aggregate push-down and without (Spark aggregating the rows): the same rows. */
    private void sameAsSpark(Function<Dataset<Row>, Dataset<Row>> query, String... options) {
        String[] off = Arrays.copyOf(options, options.length + 2);
        off[options.length] = ZarrOptions.AGGREGATE_PUSH_DOWN;
        off[options.length + 1] = "false";
        assertEquals(query.apply(read(off)).collectAsList().toString(), query.apply(read(options)).collectAsList().toString());
    }

    private static int[] range(int n) {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = i;
        }
        return v;
    }

    /**
     * With skipFill, the chunks to read were taken from every array's stored chunks as if all
     * arrays had the first one's chunk grid: the second array's chunk 3 (elements 15..19 with
     * chunks of 5) became the first grid's chunk 3, which does not exist, and row 17 was lost.
     */
    @Test
    void skipFillKeepsTheRowsOfAnArrayChunkedUnlikeTheFirst() {
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(DataTypes.INT32, 20).chunks(10).create(dir.toString(), "a");
            ZarrArray b = zarr.array(DataTypes.INT32, 20).chunks(5).create(dir.toString(), "b");
            a.write(new long[] {0}, NdArray.copyOf(DataTypes.INT32, new int[] {1}, 1));
            b.write(new long[] {17}, NdArray.copyOf(DataTypes.INT32, new int[] {7}, 1));
            ZarrArray c = zarr.array(DataTypes.INT32, 20).chunks(15).create(dir.toString(), "c");
            c.write(new long[] {16}, NdArray.copyOf(DataTypes.INT32, new int[] {9}, 1));
        }
        assertEquals("[[0,1,0], [17,0,7]]", read("arrays", "a,b", ZarrOptions.SKIP_FILL, "true").orderBy("dim_0")
                .collectAsList().toString());
        // a chunk of the second array spanning two of the first's
        assertEquals("[[0,1,0], [16,0,9]]", read("arrays", "a,c", ZarrOptions.SKIP_FILL, "true").orderBy("dim_0")
                .collectAsList().toString());
    }

    /**
     * Spark pushes AVG as SUM and COUNT; its own AVG of a bigint column sums in double, the pushed
     * SUM in long: 4 × 2^62 overflowed ("long overflow" in ANSI mode, a wrong average without).
     */
    @Test
    void theAverageOfLargeInt64ValuesIsSparksNotAnOverflow() {
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(DataTypes.INT64, 4).chunks(2).create(dir.toString(), "l");
            long big = 1L << 62;
            a.write(new long[] {0}, NdArray.copyOf(DataTypes.INT64, new long[] {big, big, big, big}, 4));
        }
        assertEquals(4.611686018427388E18, read("array", "l").agg(avg("l")).first().getDouble(0));
        sameAsSpark(t -> t.agg(avg("l"), min("l"), max("l"), count(lit(1))), "array", "l");
        Dataset<Row> minMax = read("array", "l").agg(min("l"), max("l"));
        assertTrue(minMax.queryExecution().executedPlan().toString().contains("aggregated"),
                "MIN and MAX of int64 are still pushed");
    }

    /**
     * The overwrite of the array a table is read from was refused only when the store was named
     * exactly as in the read: with a trailing slash or as a file URI, the old array was erased
     * before the job read it, and the job then failed, leaving nothing.
     */
    @Test
    void anOverwriteOfItsOwnInputIsRefusedHoweverTheStoreIsNamed() {
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(DataTypes.INT32, 6).chunks(3).create(dir.toString(), "o");
            a.write(new long[] {0}, NdArray.copyOf(DataTypes.INT32, new int[] {1, 2, 3, 4, 5, 6}, 6));
        }
        Dataset<Row> t = read("array", "o");
        for (String store : List.of(dir + "/", dir.toUri().toString(), dir.resolve("x").resolve("..").toString())) {
            Exception e = assertThrows(Exception.class,
                    () -> t.write().format("zarr").mode(SaveMode.Overwrite).option("array", "/o/").save(store), store);
            assertTrue(String.valueOf(e.getMessage()).contains("read from the array it overwrites"), store + ": " + e);
            try (Zarr zarr = Zarr.defaults(); ZarrArray a = zarr.openArray(dir.toString(), "o")) {
                assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6}, a.read().toIntArray(), store);
            }
        }
    }

    /**
     * An append checks that a {@code dataType} option is the array's, but compared names only:
     * {@code datetime64[ms]} passed for a {@code datetime64[s]} array, whose counts are seconds.
     */
    @Test
    void anAppendRefusesADataTypeOfAnotherUnit() {
        StructType schema = new StructType().add("i", "long").add("t", "timestamp");
        Dataset<Row> df = TestSpark.session().createDataFrame(List.of(RowFactory.create(0L, new Timestamp(2000))), schema);
        df.write().format("zarr").mode(SaveMode.Append).option("array", "t").option("shape", "4")
                .option("dataType", "datetime64[s]").save(dir.toString());
        Exception e = assertThrows(Exception.class, () -> df.write().format("zarr").mode(SaveMode.Append)
                .option("array", "t").option("dataType", "datetime64[ms]").save(dir.toString()));
        assertTrue(e.getMessage().contains("option 'dataType' is 'datetime64[ms]'"), e.getMessage());
        // the array's own type, in either spelling, is accepted
        df.write().format("zarr").mode(SaveMode.Append).option("array", "t").option("dataType", "numpy.datetime64[s]")
                .save(dir.toString());
        try (Zarr zarr = Zarr.defaults(); ZarrArray a = zarr.openArray(dir.toString(), "t")) {
            assertEquals(2L, a.read().getLong(0));
        }
    }

    /** The same with chunk rows: the chunk of the first grid holding the second array's stored chunk was dropped. */
    @Test
    void chunkRowsWithSkipFillKeepTheChunksOfAnArrayChunkedUnlikeTheFirst() {
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(DataTypes.INT32, 20).chunks(10).create(dir.toString(), "a");
            ZarrArray b = zarr.array(DataTypes.INT32, 20).chunks(5).create(dir.toString(), "b");
            a.write(new long[] {0}, NdArray.copyOf(DataTypes.INT32, new int[] {1}, 1));
            b.write(new long[] {17}, NdArray.copyOf(DataTypes.INT32, new int[] {7}, 1));
        }
        Dataset<Row> t = read("arrays", "a,b", ZarrOptions.SKIP_FILL, "true", ZarrOptions.ROWS, "chunks");
        List<Row> rows = t.orderBy("dim_0").select("dim_0").collectAsList();
        assertEquals("[[0], [10]]", rows.toString(), t.schema().simpleString());
    }

    @Test
    void emptyAndZeroDimensionalArraysReadAndAggregate() {
        try (Zarr zarr = Zarr.defaults()) {
            zarr.array(DataTypes.FLOAT32, 0, 4).chunks(2, 2).create(dir.toString(), "e").close();
            ZarrArray z = zarr.array(DataTypes.INT32, new long[0]).create(dir.toString(), "z");
            z.write(new long[0], NdArray.copyOf(DataTypes.INT32, new int[] {42}, new long[0]));
        }
        assertEquals("[0,null,null]", read("array", "e").agg(count(lit(1)), sum("e"), min("e")).first().toString());
        sameAsSpark(t -> t.agg(count(lit(1)), sum("e"), min("e")), "array", "e");
        sameAsSpark(t -> t.groupBy("dim_1").agg(sum("e")), "array", "e");
        assertEquals("[[42]]", read("array", "z").collectAsList().toString());
        assertEquals("[1,42,42]", read("array", "z").agg(count(lit(1)), sum("z"), max("z")).first().toString());
    }

    @Test
    void compoundFiltersOnDimensionsKeepEveryMatchingRow() {
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(DataTypes.INT32, 20, 6).chunks(4, 3).create(dir.toString(), "p");
            a.write(new long[2], NdArray.copyOf(DataTypes.INT32, range(120), 20, 6));
        }
        Dataset<Row> full = read("array", "p");
        Dataset<Row> plain = TestSpark.session().createDataFrame(full.collectAsList(), full.schema());
        for (String f : List.of("dim_0 IN (0, 9) OR dim_0 > 17", "dim_0 <=> 3", "dim_0 = 2 OR dim_1 = 5",
                "NOT (dim_0 < 18)", "dim_0 > 2.5", "dim_0 BETWEEN 3 AND 2", "dim_1 != 2", "dim_0 = 3 OR p = 7",
                "dim_0 IN (3, NULL)", "dim_0 < 4 AND (dim_1 = 0 OR dim_1 = 5)", "dim_0 = 19.0",
                "dim_0 >= -1 AND dim_0 < 1", "dim_0 > 9223372036854775807 OR dim_1 = 1")) {
            assertEquals(plain.where(f).orderBy("p").collectAsList().toString(),
                    full.where(f).orderBy("p").collectAsList().toString(), f);
        }
    }

    /**
     * Filters the scan applies on its own (not evaluated again by Spark) and aggregations pushed
     * below them give what Spark gives over the same rows in a plain table.
     */
    @Test
    void filtersTheScanAppliesAndAggregatesBelowThemEqualSparks() {
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(DataTypes.INT32, 20, 6).chunks(4, 4).shards(8, 4).create(dir.toString(), "p");
            int[] v = range(120);
            for (int i = 0; i < v.length; i++) {
                v[i] = i % 7 == 0 ? 0 : (i * 37) % 101 - 50;
            }
            a.write(new long[2], NdArray.copyOf(DataTypes.INT32, v, 20, 6));
        }
        Dataset<Row> full = read("array", "p");
        Dataset<Row> plain = TestSpark.session().createDataFrame(full.collectAsList(), full.schema());
        List<String> filters = List.of("dim_0 IN (1, 5, 9, 19)", "dim_0 < 3 OR dim_0 > 17", "dim_0 = 2 AND dim_1 IN (0, 5)",
                "dim_0 IN (3, NULL)", "dim_1 IN (1, 3) AND (dim_0 <= 2 OR dim_0 IN (7, 15))", "dim_0 <=> NULL",
                "dim_1 != 2", "dim_0 IN (0, 19) OR dim_0 IS NOT NULL");
        for (String f : filters) {
            for (String[] options : List.of(new String[0], new String[] {ZarrOptions.REGION_BYTES, "40",
                ZarrOptions.SKIP_FILL, "true", ZarrOptions.BATCH_ROWS, "3"})) {
                Dataset<Row> t = read(concat(options, "array", "p"));
                String where = f + " " + Arrays.toString(options);
                Dataset<Row> expectedRows = Arrays.asList(options).contains(ZarrOptions.SKIP_FILL) ? plain.where("p != 0") : plain;
                assertEquals(expectedRows.where(f).orderBy("dim_0", "dim_1").collectAsList().toString(),
                        t.where(f).orderBy("dim_0", "dim_1").collectAsList().toString(), where);
                assertEquals(expectedRows.where(f).count(), t.where(f).count(), where);
                if (options.length == 0 && f.startsWith("dim_0 IN (1, 5")) {
                    assertTrue(t.where(f).groupBy("dim_1").agg(sum("p")).queryExecution().executedPlan().toString()
                            .contains("aggregated"), "the aggregation is pushed below the filter");
                }
                Function<Dataset<Row>, Dataset<Row>> q = d -> d.where(f).groupBy("dim_1")
                        .agg(sum("p"), min("p"), max("p"), count(lit(1)), avg("p")).orderBy("dim_1");
                assertEquals(q.apply(expectedRows).collectAsList().toString(), q.apply(t).collectAsList().toString(), where);
                Function<Dataset<Row>, Dataset<Row>> g = d -> d.where(f).agg(sum("p"), count(lit(1)));
                assertEquals(g.apply(expectedRows).collectAsList().toString(), g.apply(t).collectAsList().toString(), where);
            }
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void dottedDimensionNamesFilterAndGroup() {
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(DataTypes.INT32, 8, 4).chunks(3, 2).dimensionNames("t.x", "Y")
                    .create(dir.toString(), "d");
            a.write(new long[2], NdArray.copyOf(DataTypes.INT32, range(32), 8, 4));
        }
        assertEquals(4L, read("array", "d").where("`t.x` = 2").count());
        sameAsSpark(t -> t.groupBy("`t.x`").agg(sum("d"), min("d")).orderBy("`t.x`"), "array", "d");
        sameAsSpark(t -> t.groupBy("y").agg(sum("d"), max("d")).orderBy("y"), "array", "d");
    }

    @Test
    void skipFillOnAShardedArrayAndAStringArray() {
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(DataTypes.INT32, 16).shards(8).chunks(2).create(dir.toString(), "s");
            a.write(new long[] {12}, NdArray.copyOf(DataTypes.INT32, new int[] {5}, 1));
            ZarrArray t = zarr.array(dev.zarrj.ext.strings.StringTypes.STRING, 6).chunks(3).codec("vlen-utf8")
                    .fillValue("").create(dir.toString(), "t");
            t.write(new long[] {0}, NdArray.copyOf(dev.zarrj.ext.strings.StringTypes.STRING,
                    new String[] {"", "x", "", "", "", "yz"}, 6));
        }
        assertEquals("[[12,5]]", read("array", "s", ZarrOptions.SKIP_FILL, "true").collectAsList().toString());
        assertEquals("[[1,x], [5,yz]]", read("array", "t", ZarrOptions.SKIP_FILL, "true").orderBy("dim_0")
                .collectAsList().toString());
    }
}
