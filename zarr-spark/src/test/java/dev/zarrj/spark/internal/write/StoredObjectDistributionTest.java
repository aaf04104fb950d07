package dev.zarrj.spark.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.spark.TestSpark;
import dev.zarrj.spark.ZarrOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The repartitioning a write runs before its tasks: one stored object, one task. */
class StoredObjectDistributionTest {
    @TempDir
    Path dir;

    @Test
    void rowsOfOneShardMeetInOnePartitionSortedByShard() {
        SparkSession spark = TestSpark.session();
        List<Row> rows = new ArrayList<>();
        for (long y = 0; y < 64; y += 3) {
            for (long x = 0; x < 64; x += 5) {
                rows.add(RowFactory.create(y, x, 1.0f));
            }
        }
        StructType schema = DataTypes.createStructType(List.of(
                DataTypes.createStructField("y.a", DataTypes.LongType, false), // a dot: one column, not a field
                DataTypes.createStructField("x", DataTypes.LongType, false),
                DataTypes.createStructField("v", DataTypes.FloatType, true)));
        Dataset<Row> df = spark.createDataFrame(rows, schema).repartition(8);
        WritePlan plan = WritePlanner.plan(ZarrOptions.of(Map.of("path", dir.resolve("a.zarr").toString(),
                "shape", "64,64", "shards", "32,32", "chunks", "8,8")), schema, false);
        Dataset<Row> prepared = ZarrWrite.prepare(df, plan);

        String physical = prepared.queryExecution().executedPlan().toString().replaceAll("#\\d+L?", "");
        assertTrue(physical.contains("Exchange hashpartitioning(((FLOOR((cast(y.a as double) / 32.0)) * 2) + "
                + "FLOOR((cast(x as double) / 32.0)))"), physical);
        assertTrue(physical.contains("Sort [((FLOOR("), physical);

        List<long[]> seen = prepared.javaRDD().mapPartitionsWithIndex((Integer p, Iterator<Row> it) -> {
            List<long[]> out = new ArrayList<>();
            while (it.hasNext()) {
                Row r = it.next();
                out.add(new long[] {p, r.getLong(0) / 32 * 2 + r.getLong(1) / 32});
            }
            return out.iterator();
        }, false).collect();
        assertEquals(rows.size(), seen.size());
        Map<Long, Long> partitionOfShard = new HashMap<>();
        long lastPartition = -1;
        long lastShard = -1;
        for (long[] s : seen) {
            Long other = partitionOfShard.putIfAbsent(s[1], s[0]);
            assertTrue(other == null || other == s[0], "shard " + s[1] + " in partitions " + other + " and " + s[0]);
            if (s[0] == lastPartition) {
                assertTrue(s[1] >= lastShard, "partition " + s[0] + " not sorted by shard");
            }
            lastPartition = s[0];
            lastShard = s[1];
        }
        assertEquals(4, partitionOfShard.size());
    }

    @Test
    void aShardLargerThanTheBudgetIsBufferedByInnerChunkAndSortedSo() {
        StructType schema = DataTypes.createStructType(List.of(
                DataTypes.createStructField("y", DataTypes.LongType, false),
                DataTypes.createStructField("x", DataTypes.LongType, false),
                DataTypes.createStructField("v", DataTypes.FloatType, true)));
        Map<String, String> options = new HashMap<>(Map.of("path", dir.resolve("b.zarr").toString(),
                "shape", "64,64", "shards", "32,32", "chunks", "8,8"));
        WritePlan whole = WritePlanner.plan(ZarrOptions.of(options), schema, false);
        assertEquals("[32, 32]", java.util.Arrays.toString(whole.bufferChunk));
        options.put("regionBytes", "4095"); // a shard: 32 * 32 * 4 = 4096 bytes
        WritePlan inner = WritePlanner.plan(ZarrOptions.of(options), schema, false);
        assertEquals("[8, 8]", java.util.Arrays.toString(inner.bufferChunk));
        String physical = ZarrWrite.prepare(TestSpark.session().createDataFrame(List.of(RowFactory.create(1L, 2L, 3f), RowFactory.create(40L, 2L, 3f)), schema), inner)
                .queryExecution().executedPlan().toString().replaceAll("#\\d+L?", "");
        assertTrue(physical.contains("Sort [((FLOOR((cast(y as double) / 32.0)) * 2) + FLOOR((cast(x as double) / 32.0))) "
                + "ASC NULLS FIRST, ((FLOOR((cast(y as double) / 8.0)) * 8) + FLOOR((cast(x as double) / 8.0))) ASC"),
                physical);
    }
}
