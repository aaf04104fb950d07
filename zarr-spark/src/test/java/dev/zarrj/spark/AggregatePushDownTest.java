package dev.zarrj.spark;

import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.datatype.DataType;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Aggregations Spark pushes into the scan give what Spark computes from the rows, for every
 * grouping of dimensions and every number type, with NaNs, and are pushed only when they can be.
 */
class AggregatePushDownTest {
    @TempDir
    Path dir;

    private Dataset<Row> table(String array) {
        return table(array, true);
    }

    private Dataset<Row> table(String array, boolean pushDown) {
        return TestSpark.session().read().format("zarr").option("array", array)
                .option(ZarrOptions.AGGREGATE_PUSH_DOWN, pushDown).load(dir.toString());
    }

    /** The same query with the pushed aggregation, and with Spark aggregating the rows. */
    private void sameAsSpark(String array, Function<Dataset<Row>, Dataset<Row>> query, boolean expectPushed) {
        Dataset<Row> pushed = query.apply(table(array));
        String plan = pushed.queryExecution().executedPlan().toString();
        assertEquals(expectPushed, plan.contains("aggregated"), "pushed or not as expected:\n" + plan);
        Dataset<Row> rows = query.apply(table(array, false));
        assertFalse(rows.queryExecution().executedPlan().toString().contains("aggregated"), rows.queryExecution().executedPlan().toString());
        List<Row> a = pushed.collectAsList();
        List<Row> b = rows.collectAsList();
        assertEquals(b.size(), a.size());
        for (int i = 0; i < a.size(); i++) {
            Row x = a.get(i);
            Row y = b.get(i);
            for (int c = 0; c < x.length(); c++) {
                Object u = x.get(c);
                Object v = y.get(c);
                if (u instanceof Double du && v instanceof Double dv && !du.equals(dv)) {
                    assertEquals(dv, du, Math.abs(dv) * 1e-12, "column " + c + " of " + x + " vs " + y);
                } else {
                    assertEquals(v, u, "column " + c + " of " + x + " vs " + y);
                }
            }
        }
    }

    private void write(String name, DataType type, double[] values, long[] shape, long[] chunks) {
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(type, shape).chunks(chunks).create(dir.toString(), name);
            a.write(new long[shape.length], convert(type, values, shape));
        }
    }

    private static dev.zarrj.api.NdArray convert(DataType type, double[] values, long[] shape) {
        dev.zarrj.api.NdArray out = dev.zarrj.api.NdArray.allocate(type, shape);
        for (int i = 0; i < values.length; i++) {
            if (type.kind() == dev.zarrj.api.datatype.ElementKind.FLOAT) {
                out.setDouble(i, values[i]);
            } else {
                out.setLong(i, (long) values[i]);
            }
        }
        return out;
    }

    @Test
    void groupedAggregatesOfFloatsWithNaNsEqualSparks() {
        long[] shape = {6, 10, 14};
        double[] v = new double[6 * 10 * 14];
        for (int i = 0; i < v.length; i++) {
            v[i] = i % 37 == 0 ? Double.NaN : Math.sin(i) * 100;
        }
        v[5] = Double.NaN;
        write("f", DataTypes.FLOAT32, v, shape, new long[] {4, 3, 5});
        sameAsSpark("f", t -> t.agg(sum("f"), count(lit(1)), min("f"), max("f"), avg("f")), true);
        sameAsSpark("f", t -> t.groupBy("dim_0").agg(avg("f"), min("f"), max("f"), count("f")).orderBy("dim_0"), true);
        sameAsSpark("f", t -> t.groupBy("dim_2", "dim_0").agg(sum("f"), max("f")).orderBy("dim_2", "dim_0"), true);
        sameAsSpark("f", t -> t.groupBy("dim_1").agg(min("f")).orderBy("dim_1"), true);
        // Filters the scan applies exactly leave nothing for Spark after the scan: still pushed.
        sameAsSpark("f", t -> t.where("dim_0 IN (1, 3, 4) AND dim_2 BETWEEN 2 AND 9").groupBy("dim_1")
                .agg(avg("f"), max("f"), count(lit(1))).orderBy("dim_1"), true);
        sameAsSpark("f", t -> t.where("(dim_1 < 2 OR dim_1 >= 7) AND dim_0 = 5").agg(sum("f"), min("f")), true);
        // A filter across two dimensions with OR is not a product: Spark applies it, and aggregates.
        sameAsSpark("f", t -> t.where("dim_0 = 1 OR dim_1 = 2").groupBy("dim_2").agg(sum("f")).orderBy("dim_2"), false);
    }

    @Test
    void integerSumsMinimaAndMaximaEqualSparksForSignedAndUnsignedTypes() {
        long[] shape = {9, 11};
        double[] v = new double[99];
        for (int i = 0; i < v.length; i++) {
            v[i] = (i * 7919) % 250;
        }
        for (DataType t : new DataType[] {DataTypes.INT8, DataTypes.UINT8, DataTypes.INT16, DataTypes.UINT16,
            DataTypes.INT32, DataTypes.UINT32, DataTypes.INT64, DataTypes.FLOAT64, DataTypes.FLOAT16}) {
            String name = "a_" + t.name();
            double[] w = v.clone();
            if (t == DataTypes.INT8) {
                for (int i = 0; i < w.length; i++) {
                    w[i] -= 125;
                }
            }
            write(name, t, w, shape, new long[] {4, 5});
            sameAsSpark(name, d -> d.groupBy("dim_1").agg(sum(name), min(name), max(name), avg(name)).orderBy("dim_1"), true);
        }
    }

    @Test
    void aggregatesThatCannotBePushedAreLeftToSpark() {
        long[] shape = {4, 4};
        double[] v = new double[16];
        for (int i = 0; i < v.length; i++) {
            v[i] = i;
        }
        write("u", DataTypes.UINT64, v, shape, new long[] {2, 2});
        // uint64 sums are decimals; a filter left after the scan; a grouping by a value
        sameAsSpark("u", t -> t.agg(sum("u")), false);
        Dataset<Row> filtered = table("u").where("dim_0 > 1 OR dim_1 = 0").agg(count(lit(1)));
        assertFalse(filtered.queryExecution().executedPlan().toString().contains("aggregated"));
        assertEquals(10L, filtered.first().getLong(0));
        Dataset<Row> exact = table("u").where("dim_0 > 1").agg(count(lit(1)));
        assertTrue(exact.queryExecution().executedPlan().toString().contains("aggregated"));
        assertEquals(8L, exact.first().getLong(0));
        Dataset<Row> byValue = table("u").groupBy("u").agg(count(lit(1)));
        assertFalse(byValue.queryExecution().executedPlan().toString().contains("aggregated"));
        assertEquals(16, byValue.count());
        Column c = org.apache.spark.sql.functions.countDistinct("dim_1");
        assertEquals(4L, table("u").agg(c).first().getLong(0));
    }
}
