package dev.zarrj.spark;

import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.sum;
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

/**
 * A 3-D array with {@code dimension_names} ["time", null, "lat"]: its columns are named from them
 * ({@code dim_1} for the unnamed one), and aggregations over a dimension equal the same
 * computation in Java.
 */
class ReadDimensionNamesTest {
    static final int T = 7;
    static final int X = 5;
    static final int L = 9;

    @TempDir
    static Path dir;

    @BeforeAll
    static void write() {
        int[] v = new int[T * X * L];
        for (int t = 0; t < T; t++) {
            for (int x = 0; x < X; x++) {
                for (int l = 0; l < L; l++) {
                    v[(t * X + x) * L + l] = value(t, x, l);
                }
            }
        }
        try (ZarrArray a = Zarr.defaults().array(DataTypes.INT32, T, X, L).chunks(3, 2, 4)
                .dimensionNames("time", null, "lat").create(dir.toString(), "/temperature")) {
            a.write(new long[3], new long[] {T, X, L}, v);
        }
    }

    static int value(int t, int x, int l) {
        return (t * 31 + x * 7 + l * l) % 97 - 40;
    }

    private static Dataset<Row> table() {
        return Tables.read(dir.toString(), "temperature");
    }

    @Test
    void columnsAreNamedFromTheDimensionNames() {
        Dataset<Row> t = table();
        assertEquals(List.of("time", "dim_1", "lat"), List.of(t.columns()).subList(0, 3));
        assertEquals(4, t.columns().length, t.schema().simpleString());
        Object[] read = Tables.byElement(t, new long[] {T, X, L});
        for (int i = 0; i < read.length; i++) {
            assertEquals(value(i / (X * L), i / L % X, i % L), read[i], "element " + i);
        }
    }

    @Test
    void aGroupByOverOneDimensionEqualsTheJavaComputation() {
        Dataset<Row> t = table();
        String v = t.columns()[3];
        Map<Long, Long> sums = new TreeMap<>();
        Map<Long, Long> counts = new TreeMap<>();
        for (int tt = 0; tt < T; tt++) {
            for (int x = 0; x < X; x++) {
                for (int l = 0; l < L; l++) {
                    sums.merge((long) tt, (long) value(tt, x, l), Long::sum);
                    counts.merge((long) tt, 1L, Long::sum);
                }
            }
        }
        Map<Long, Long> readSums = new TreeMap<>();
        Map<Long, Long> readCounts = new TreeMap<>();
        for (Row r : t.groupBy("time").agg(sum(col(v)), count(col(v))).collectAsList()) {
            readSums.put(r.getLong(0), r.getLong(1));
            readCounts.put(r.getLong(0), r.getLong(2));
        }
        assertEquals(sums, readSums, "sum per time step");
        assertEquals(counts, readCounts, "elements per time step");
    }

    @Test
    void aFilteredMeanPerLatitudeEqualsTheJavaComputation() {
        Dataset<Row> t = table();
        String v = t.columns()[3];
        Map<Long, Double> means = new TreeMap<>();
        for (int l = 0; l < L; l++) {
            long s = 0;
            int n = 0;
            for (int tt = 2; tt <= 4; tt++) {
                for (int x = 0; x < X; x++) {
                    s += value(tt, x, l);
                    n++;
                }
            }
            means.put((long) l, (double) s / n);
        }
        Map<Long, Double> read = new TreeMap<>();
        for (Row r : t.where("time BETWEEN 2 AND 4").groupBy("lat").agg(avg(col(v))).collectAsList()) {
            read.put(r.getLong(0), r.getDouble(1));
        }
        assertEquals(means.keySet(), read.keySet());
        means.forEach((l, m) -> assertEquals(m, read.get(l), 1e-12, "mean at lat " + l));
    }
}
