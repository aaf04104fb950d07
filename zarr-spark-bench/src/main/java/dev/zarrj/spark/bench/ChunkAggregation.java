package dev.zarrj.spark.bench;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The {@link SparkBench#SPARK_CHUNK_AGG} diagnostic: what the queries cost when the aggregation is
 * done per chunk on the decoded buffer, as aggregate push-down ({@code SupportsPushDownAggregates})
 * into the zarr source would do it. Spark schedules tasks over the chunks; each task reads its
 * chunks with zarrj into one reused buffer and returns, per chunk, one partial row per
 * {@code dim_0} slice (the slice, the sum of its values in the chunk, their count); the driver
 * combines the few thousand partial rows. Not the data source: a measure of its headroom.
 */
final class ChunkAggregation {
    private ChunkAggregation() {}

    static Aggregates run(SparkSession spark, String store, Scale scale, int tasks, String op) {
        long[] shape = scale.shape();
        long[] chunks = scale.chunks();
        long[] grid = new long[3];
        for (int d = 0; d < 3; d++) {
            grid[d] = (shape[d] + chunks[d] - 1) / chunks[d];
        }
        List<Long> linear = LongStream.range(0, grid[0] * grid[1] * grid[2]).boxed().toList();
        List<double[]> partials = JavaSparkContext.fromSparkContext(spark.sparkContext())
                .parallelize(linear, tasks)
                .mapPartitions(it -> partials(store, shape, chunks, grid, it))
                .collect();
        double[] sums = new double[(int) shape[0]];
        double[] counts = new double[(int) shape[0]];
        for (double[] p : partials) {
            sums[(int) p[0]] += p[1];
            counts[(int) p[0]] += p[2];
        }
        if (op.equals(SparkBench.SUM)) {
            double total = 0;
            for (double v : sums) {
                total += v;
            }
            return Aggregates.ofSum(total);
        }
        double[] means = new double[sums.length];
        for (int z = 0; z < means.length; z++) {
            means[z] = sums[z] / counts[z];
        }
        return Aggregates.ofSliceMeans(means);
    }

    /** One task: its chunks' partial rows {z, sum, count}. */
    private static Iterator<double[]> partials(String location, long[] shape, long[] chunks, long[] grid,
                                               Iterator<Long> linear) throws Exception {
        List<double[]> out = new ArrayList<>();
        try (Zarr zarr = Zarr.builder().threads(1).build(); Store store = zarr.openStore(location, true)) {
            ZarrArray array = zarr.openArray(store, "/");
            NdArray full = NdArray.allocate(array.dataType(), chunks);
            while (linear.hasNext()) {
                long l = linear.next();
                long[] offset = {l / (grid[1] * grid[2]) * chunks[0], l / grid[2] % grid[1] * chunks[1], l % grid[2] * chunks[2]};
                long[] size = new long[3];
                for (int d = 0; d < 3; d++) {
                    size[d] = Math.min(chunks[d], shape[d] - offset[d]);
                }
                boolean whole = size[0] == chunks[0] && size[1] == chunks[1] && size[2] == chunks[2];
                NdArray data = whole ? full : NdArray.allocate(array.dataType(), size);
                array.readInto(offset, data);
                FloatBuffer values = data.bytes().asFloatBuffer();
                int plane = Math.toIntExact(size[1] * size[2]);
                for (int z = 0; z < size[0]; z++) {
                    double sum = 0;
                    for (int i = z * plane, end = i + plane; i < end; i++) {
                        sum += values.get(i);
                    }
                    out.add(new double[] {offset[0] + z, sum, plane});
                }
            }
        }
        return out.iterator();
    }
}
