package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An array written to s3proxy with plain zarrj ({@code zarr-store-s3}) and read through Spark,
 * the endpoint given as a store option ({@code store.endpoint}) or in the location's query.
 */
@ExtendWith(S3Proxy.class)
class ReadS3Test {
    private static final Zarr ZARR = Zarr.defaults();

    @Test
    void anArrayInS3ReadsThroughSpark() {
        String bucket = S3Proxy.get().newBucket();
        String endpoint = S3Proxy.get().endpoint().toString();
        String location = S3Proxy.get().uri(bucket, "data.zarr", "").toString();
        double[] values = new double[30 * 20];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.5 - 100;
        }
        try (ZarrArray a = ZARR.array(DataTypes.FLOAT64, 30, 20).chunks(8, 8).shards(16, 16)
                .dimensionNames("y", "x").create(location, "/g/a")) {
            a.write(new long[] {0, 0}, new long[] {30, 20}, values);
        }

        Dataset<Row> t = Tables.reader("store.endpoint", endpoint).option("array", "g/a").load("s3://" + bucket + "/data.zarr");
        assertEquals(java.util.List.of("y", "x"), java.util.List.of(t.columns()).subList(0, 2));
        Object[] read = Tables.byElement(t, new long[] {30, 20});
        for (int i = 0; i < values.length; i++) {
            assertEquals(values[i], read[i], "element " + i);
        }

        Dataset<Row> filtered = Tables.read(location, "g/a").where("y = 17 AND x >= 18");
        java.util.List<Row> rows = filtered.orderBy("x").collectAsList();
        assertEquals(2, rows.size(), rows.toString());
        assertEquals(values[17 * 20 + 18], rows.get(0).getDouble(2));
        assertEquals(values[17 * 20 + 19], rows.get(1).getDouble(2));
    }
}
