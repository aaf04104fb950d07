package dev.zarrj.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads through the data source against the same values read with plain zarrj. */
class ZarrReadTest {
    @TempDir
    Path dir;

    @Test
    void readsEveryElementOfAChunked3dArrayWithItsCoordinates() {
        long[] shape = {5, 7, 9};
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(DataTypes.INT32, shape).chunks(2, 3, 4).dimensionNames("t", null, "x")
                    .create(dir.toString(), "v");
            int[] values = new int[5 * 7 * 9];
            for (int i = 0; i < values.length; i++) {
                values[i] = i * 3 - 7;
            }
            a.write(new long[3], shape, values);
        }
        Dataset<Row> t = TestSpark.session().read().format("zarr").option("array", "v").load(dir.toString());
        assertEquals(List.of("t", "dim_1", "x", "v"), List.of(t.columns()));
        List<Row> rows = t.collectAsList();
        assertEquals(5 * 7 * 9, rows.size());
        for (Row r : rows) {
            long flat = (r.getLong(0) * 7 + r.getLong(1)) * 9 + r.getLong(2);
            assertEquals((int) flat * 3 - 7, r.getInt(3), "at " + r);
        }
        List<Row> some = t.where(col("t").equalTo(3).and(col("x").between(2, 5))).orderBy("t", "dim_1", "x").collectAsList();
        assertEquals(7 * 4, some.size());
        for (Row r : some) {
            assertEquals(3, r.getLong(0));
            assertTrue(r.getLong(2) >= 2 && r.getLong(2) <= 5);
        }
    }

    @Test
    void aGroupIsRefusedNamingItsArrays() {
        try (Zarr zarr = Zarr.defaults()) {
            zarr.createGroup(dir.toString(), "");
            zarr.array(DataTypes.INT8, 4).create(dir.toString(), "temperature");
            zarr.array(DataTypes.INT8, 4).create(dir.toString(), "pressure");
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TestSpark.session().read().format("zarr").load(dir.toString()).collectAsList());
        assertTrue(e.getMessage().contains("is a group, not an array"), e.getMessage());
        assertTrue(e.getMessage().contains("pressure") && e.getMessage().contains("temperature"), e.getMessage());
    }

    @Test
    void aSchemaThatDiffersFromTheMetadataIsRefused() {
        try (Zarr zarr = Zarr.defaults()) {
            zarr.array(DataTypes.FLOAT64, 4).create(dir.toString(), "v");
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TestSpark.session().read()
                .format("zarr").schema("dim_0 LONG, v STRING").option("array", "v").load(dir.toString()).collectAsList());
        assertTrue(e.getMessage().contains("v:double"), e.getMessage());
        List<Row> rows = TestSpark.session().read().format("zarr").schema("dim_0 LONG, v DOUBLE").option("array", "v")
                .load(dir.toString()).collectAsList();
        assertEquals(4, rows.size());
    }

    @Test
    void aShardLargerThanTheRegionBudgetIsReadInSlabsWithTheSameValues() {
        long[] shape = {20, 30};
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(DataTypes.FLOAT64, shape).chunks(3, 4).shards(12, 16).create(dir.toString(), "s");
            double[] values = new double[20 * 30];
            for (int i = 0; i < values.length; i++) {
                values[i] = i + 0.5;
            }
            a.write(new long[2], shape, values);
        }
        for (String budget : new String[] {"8", "100", "1k", "128m"}) {
            List<Row> rows = TestSpark.session().read().format("zarr").option("array", "s")
                    .option(ZarrOptions.REGION_BYTES, budget).load(dir.toString()).collectAsList();
            assertEquals(20 * 30, rows.size(), "rows with regionBytes " + budget);
            java.util.Set<Long> seen = new java.util.HashSet<>();
            for (Row r : rows) {
                long flat = r.getLong(0) * 30 + r.getLong(1);
                assertTrue(seen.add(flat), "element " + flat + " read twice with regionBytes " + budget);
                assertEquals(flat + 0.5, r.getDouble(2), "at " + r + " with regionBytes " + budget);
            }
        }
    }

    @Test
    void readsZarrV2AndAnswersSqlThroughATemporaryView() {
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(DataTypes.UINT16, 6, 4).chunks(4, 3).zarrFormat(2).dimensionNames("y", "x")
                    .create(dir.toString(), "counts");
            short[] values = new short[24];
            for (int i = 0; i < values.length; i++) {
                values[i] = (short) (65535 - i);
            }
            a.write(new long[2], new long[] {6, 4}, values);
        }
        assertTrue(java.nio.file.Files.exists(dir.resolve("counts/.zarray")), "written as Zarr v2");
        TestSpark.session().sql("CREATE OR REPLACE TEMPORARY VIEW counts USING zarr OPTIONS (path '"
                + dir.toString().replace("'", "\\'") + "', array 'counts')");
        List<Row> rows = TestSpark.session().sql("SELECT x, sum(counts) AS s FROM counts WHERE y >= 2 GROUP BY x ORDER BY x")
                .collectAsList();
        assertEquals(4, rows.size());
        for (Row r : rows) {
            long x = r.getLong(0);
            long expected = 0;
            for (long y = 2; y < 6; y++) {
                expected += 65535 - (y * 4 + x);     // uint16 read as int, not as a negative short
            }
            assertEquals(expected, r.getLong(1), "sum at x = " + x);
        }
    }
}
