package dev.zarrj.spark;

import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Run by {@link ShadedJarIT} in a JVM whose class path is Spark and the shaded jar only: writes a
 * sharded zstd array with zarrj, reads it through {@code format("zarr")}, and prints the sum.
 */
public final class ShadedJarCheck {
    private ShadedJarCheck() {}

    public static void main(String[] args) {
        String dir = args[0];
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(DataTypes.INT32, 40, 50).chunks(5, 5).shards(20, 25)
                    .codec("zstd", Map.of("level", 1)).create(dir + "/data.zarr", "v");
            int[] values = new int[40 * 50];
            for (int i = 0; i < values.length; i++) {
                values[i] = i;
            }
            a.write(new long[2], new long[] {40, 50}, values);
        }
        SparkSession spark = SparkSession.builder().master("local[1]").appName("shaded jar check")
                .config("spark.ui.enabled", "false").config("spark.local.dir", dir + "/spark")
                .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
        try {
            Row r = spark.read().format("zarr").option("array", "v").load(dir + "/data.zarr")
                    .selectExpr("count(*)", "sum(v)", "max(dim_0)", "max(dim_1)").first();
            System.out.println("RESULT " + r.getLong(0) + " " + r.getLong(1) + " " + r.getLong(2) + " " + r.getLong(3));
        } finally {
            spark.stop();
        }
    }
}
