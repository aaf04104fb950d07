package dev.zarrj.spark.internal.read;

import dev.zarrj.spark.ZarrOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.SparkSession;

/**
 * How a read's chunks become input partitions, for element rows ({@link ZarrScan}) and chunk rows
 * alike: runs of consecutive chunks (C order) of about {@link ZarrOptions#PARTITION_BYTES} decoded,
 * fewer when that would leave the cluster's cores idle, at most {@link ZarrOptions#MAX_PARTITIONS}.
 */
public final class ChunkPlanning {
    private ChunkPlanning() {}

    /** The number of chunks along each dimension. */
    public static long[] gridShape(long[] shape, long[] grid) {
        long[] out = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            out[d] = shape[d] == 0 ? 0 : (shape[d] + grid[d] - 1) / grid[d];
        }
        return out;
    }

    /** {@code a * b}, or {@code Long.MAX_VALUE} when that overflows (sizes that only bound). */
    public static long multiplySaturated(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
    }

    /**
     * The chunks (linear indices) cut into runs, one per partition.
     *
     * @param chunkBytes   the decoded bytes of one chunk of every array read
     * @param onePerChunk  whether each chunk is a partition of its own (a shard: an object fetched whole)
     */
    public static List<long[]> runs(List<Long> chunks, long chunkBytes, boolean onePerChunk, ZarrOptions options) {
        long perChunk = Math.max(1, chunkBytes);
        int perRun;
        if (onePerChunk) {
            perRun = 1;
        } else {
            long total = multiplySaturated(perChunk, chunks.size());
            long target = Math.min(options.partitionBytes(), Math.max(perChunk, total / (2L * parallelism())));
            perRun = (int) Math.max(1, Math.min(Integer.MAX_VALUE, target / perChunk));
        }
        if ((chunks.size() + (long) perRun - 1) / perRun > options.maxPartitions()) {
            perRun = (int) ((chunks.size() + (long) options.maxPartitions() - 1) / options.maxPartitions());
        }
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i += perRun) {
            List<Long> part = chunks.subList(i, Math.min(chunks.size(), i + perRun));
            out.add(part.stream().mapToLong(Long::longValue).toArray());
        }
        return out;
    }

    /** The cores of the active session's cluster (1 outside a session). */
    private static int parallelism() {
        try {
            return Math.max(1, SparkSession.active().sparkContext().defaultParallelism());
        } catch (RuntimeException e) {
            return 1;
        }
    }

    /**
     * With {@code skipFill}, the chunks of the first array's grid (linear indices) that hold a
     * stored chunk of any array, when every store can be listed; null when every chunk is to be
     * read.
     */
    public static Set<Long> storedChunks(ArraySet arrays, long[] gridShape) {
        return arrays.options().skipFill() ? arrays.storedGridChunks(gridShape) : null;
    }
}
