package dev.zarrj.spark;

import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** README's "Spark" examples, on a small local array instead of a bucket: they run and give what they say. */
class ReadmeExamplesTest {
    @TempDir
    Path dir;

    @Test
    void aReadAFilteredReadAndWritesAsTheReadmeShowsThem() {
        long[] shape = {12, 8, 6};
        try (Zarr zarr = Zarr.defaults()) {
            ZarrArray a = zarr.array(DataTypes.FLOAT32, shape).chunks(4, 4, 3).dimensionNames("time", "lat", "lon")
                    .create(dir.resolve("climate.zarr").toString(), "temperature");
            float[] v = new float[12 * 8 * 6];
            for (int i = 0; i < v.length; i++) {
                v[i] = i % 97;
            }
            a.write(new long[3], shape, v);
        }
        SparkSession spark = TestSpark.session();
        Dataset<Row> t = spark.read().format("zarr").option("array", "temperature").load(dir.resolve("climate.zarr").toString());
        assertEquals("struct<time:bigint,lat:bigint,lon:bigint,temperature:float>", t.schema().simpleString());

        double mean = t.where("time = 4 AND lat BETWEEN 2 AND 5").agg(avg("temperature")).first().getDouble(0);
        double expected = 0;
        for (int lat = 2; lat <= 5; lat++) {
            for (int lon = 0; lon < 6; lon++) {
                expected += ((4 * 8 + lat) * 6 + lon) % 97;
            }
        }
        assertEquals(expected / 24, mean, 1e-9);

        Dataset<Row> week = t.where(col("time").between(0, 6).and(col("lat").isin(1, 3, 5)));
        assertEquals(7, week.groupBy("time").agg(avg("temperature")).count());

        String daily = dir.resolve("daily-mean.zarr").toString();
        t.groupBy("time").agg(avg("temperature").as("mean")).write().format("zarr").mode("overwrite")
                .option("shape", "12").option("chunks", "5").save(daily);
        try (Zarr zarr = Zarr.defaults(); ZarrArray m = zarr.openArray(daily, "")) {
            assertEquals(List.of("time"), m.dimensionNames().orElseThrow());
            double first = 0;
            for (int i = 0; i < 48; i++) {
                first += i % 97;
            }
            assertEquals(first / 48, m.read().getDouble(0), 1e-9);
        }

        String north = dir.resolve("north.zarr").toString();
        t.where("lat < 4").write().format("zarr").mode("overwrite")
                .option("shape", "12,4,6").option("chunks", "1,4,6").option("compressor", "zstd:3").save(north);
        Dataset<Row> back = spark.read().format("zarr").load(north);
        assertEquals(12 * 4 * 6, back.count());
        assertEquals(0, back.exceptAll(t.where("lat < 4")).count());
    }
}
