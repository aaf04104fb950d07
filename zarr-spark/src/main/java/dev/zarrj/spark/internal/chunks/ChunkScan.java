package dev.zarrj.spark.internal.chunks;

import dev.zarrj.core.ZarrArray;
import dev.zarrj.spark.ZarrOptions;
import dev.zarrj.spark.internal.ArrayRef;
import dev.zarrj.spark.internal.read.ArraySet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A planned read of chunk rows. Every chunk of the grid (every shard, when sharded) whose origin
 * the pushed filters keep is one row; input partitions are runs of consecutive chunks in C order
 * (up to {@link ZarrOptions#PARTITION_BYTES} decoded, at most {@link ZarrOptions#MAX_PARTITIONS}
 * of them), so each chunk is fetched by one task. With {@link ZarrOptions#SKIP_FILL}, chunks that
 * no array stores are not planned (when the store can be listed).
 */
final class ChunkScan implements Scan, Batch {
    private final ArraySet arrays;
    private final StructType readSchema;
    private final ChunkFilters filters;
    private final int[] columns;
    private final List<Integer> readArrays;

    ChunkScan(ArraySet arrays, StructType schema, StructType required, ChunkFilters filters) {
        this.arrays = arrays;
        this.filters = filters;
        Set<String> wanted = new HashSet<>();
        for (StructField f : required.fields()) {
            wanted.add(f.name());
        }
        int rank = arrays.dimensions().size();
        List<StructField> fields = new ArrayList<>();
        List<Integer> cols = new ArrayList<>();
        List<Integer> reads = new ArrayList<>();
        for (int i = 0; i < schema.fields().length; i++) {
            StructField f = schema.fields()[i];
            if (!wanted.contains(f.name())) {
                continue;
            }
            fields.add(f);
            // coords, rank origins, shape, then the arrays
            if (i == 0) {
                cols.add(ChunkReadSpec.COORDS);
            } else if (i <= rank) {
                cols.add(i - 1);
            } else if (i == rank + 1) {
                cols.add(ChunkReadSpec.SHAPE);
            } else {
                reads.add(i - rank - 2);
                cols.add(ChunkReadSpec.VALUES - (reads.size() - 1));
            }
        }
        if (arrays.options().skipFill()) {
            // every array's values decide whether a chunk is all fill, read or not
            for (int a = 0; a < arrays.arrays().size(); a++) {
                if (!reads.contains(a)) {
                    reads.add(a);
                }
            }
        }
        this.readSchema = new StructType(fields.toArray(new StructField[0]));
        this.columns = cols.stream().mapToInt(Integer::intValue).toArray();
        this.readArrays = reads;
    }

    @Override
    public StructType readSchema() {
        return readSchema;
    }

    @Override
    public String description() {
        return "zarr chunks " + arrays.location() + " " + arrays.options().arrayPaths() + " shape "
                + Arrays.toString(arrays.shape()) + " grid " + Arrays.toString(arrays.gridChunkShape());
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        long[] shape = arrays.shape();
        long[] grid = arrays.gridChunkShape();
        int rank = shape.length;
        long[] gridShape = new long[rank];
        for (int d = 0; d < rank; d++) {
            gridShape[d] = shape[d] == 0 ? 0 : (shape[d] + grid[d] - 1) / grid[d];
        }
        long[][] candidates = filters.candidates(gridShape, grid);
        for (long[] c : candidates) {
            if (c.length == 0) {
                return new InputPartition[0];
            }
        }
        Set<Long> stored = storedChunks(gridShape);
        List<Long> chunks = new ArrayList<>();
        int[] at = new int[rank];
        long[] origin = new long[rank];
        while (true) {
            long linear = 0;
            for (int d = 0; d < rank; d++) {
                linear = linear * gridShape[d] + candidates[d][at[d]];
                origin[d] = candidates[d][at[d]] * grid[d];
            }
            if ((stored == null || stored.contains(linear)) && filters.keeps(origin)) {
                chunks.add(linear);
            }
            int d = rank - 1;
            while (d >= 0 && ++at[d] == candidates[d].length) {
                at[d] = 0;
                d--;
            }
            if (d < 0) {
                break;
            }
        }
        return group(chunks, chunkBytes(grid)).toArray(new InputPartition[0]);
    }

    /** The decoded bytes of one whole chunk of every array read (at least 1). */
    private long chunkBytes(long[] grid) {
        long elements = 1;
        for (long g : grid) {
            elements = saturated(elements, g);
        }
        long bytes = 0;
        for (int a : readArrays) {
            bytes = Math.max(bytes, bytes + saturated(elements, arrays.arrays().get(a).dataType().size()));
        }
        return Math.max(1, bytes);
    }

    private static long saturated(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
    }

    private List<ChunkPartition> group(List<Long> chunks, long chunkBytes) {
        ZarrOptions o = arrays.options();
        long total = saturated(chunkBytes, chunks.size());
        long target = Math.min(o.partitionBytes(), Math.max(chunkBytes, total / (2L * parallelism())));
        int perRun = (int) Math.max(1, Math.min(Integer.MAX_VALUE, target / chunkBytes));
        if ((chunks.size() + (long) perRun - 1) / perRun > o.maxPartitions()) {
            perRun = (int) ((chunks.size() + (long) o.maxPartitions() - 1) / o.maxPartitions());
        }
        List<ChunkPartition> out = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i += perRun) {
            List<Long> part = chunks.subList(i, Math.min(chunks.size(), i + perRun));
            out.add(new ChunkPartition(part.stream().mapToLong(Long::longValue).toArray()));
        }
        return out;
    }

    private static int parallelism() {
        try {
            return Math.max(1, SparkSession.active().sparkContext().defaultParallelism());
        } catch (RuntimeException e) {
            return 1;
        }
    }

    /** With {@code skipFill}, the chunks any array stores (linear indices) when the store can be listed, else null. */
    private Set<Long> storedChunks(long[] gridShape) {
        if (!arrays.options().skipFill()) {
            return null;
        }
        Set<Long> out = new HashSet<>();
        for (ZarrArray a : arrays.arrays()) {
            if (!a.store().capabilities().listable()) {
                return null;
            }
            for (long[] c : a.storedChunks()) {
                long linear = 0;
                for (int d = 0; d < c.length; d++) {
                    linear = linear * gridShape[d] + c[d];
                }
                out.add(linear);
            }
        }
        return out;
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        List<ArrayRef> refs = arrays.refs();
        List<ArrayRef> read = new ArrayList<>();
        for (int a : readArrays) {
            read.add(refs.get(a));
        }
        return new ChunkReaderFactory(new ChunkReadSpec(read, columns, arrays.shape(), arrays.gridChunkShape(),
                arrays.options().skipFill()));
    }
}
