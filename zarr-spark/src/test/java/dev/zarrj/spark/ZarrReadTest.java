package dev.zarrj.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
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
}
