package dev.zarrj.spark.internal.read;

import dev.zarrj.core.ZarrArray;
import dev.zarrj.spark.ZarrOptions;
import dev.zarrj.spark.internal.ArrayRef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A planned read. Input partitions follow the storage: one per shard of a sharded array, and runs
 * of consecutive chunks (C order, up to {@link ZarrOptions#PARTITION_BYTES} decoded) of an
 * unsharded one, so that every stored object is fetched by one task only; runs are merged when
 * there would be more than {@link ZarrOptions#MAX_PARTITIONS}. Chunks outside the pushed filters
 * are not planned, nor (with {@link ZarrOptions#SKIP_FILL}, where the store can be listed) chunks
 * that are not stored.
 */
final class ZarrScan implements Scan, Batch, SupportsReportStatistics {
    private final ArraySet arrays;
    private final IndexSet[] selection;
    private final StructType readSchema;
    private final List<Filter> pushed;
    private final int[] columns;
    private final List<Integer> readArrays;

    ZarrScan(ArraySet arrays, IndexSet[] selection, StructType required, List<Filter> pushed) {
        this.arrays = arrays;
        this.selection = selection;
        this.pushed = pushed;
        StructType full = arrays.schema();
        Set<String> wanted = new HashSet<>();
        for (StructField f : required.fields()) {
            wanted.add(f.name());
        }
        List<StructField> fields = new ArrayList<>();
        List<Integer> cols = new ArrayList<>();
        List<Integer> reads = new ArrayList<>();
        int rank = arrays.dimensions().size();
        for (int i = 0; i < full.fields().length; i++) {
            StructField f = full.fields()[i];
            if (!wanted.contains(f.name())) {
                continue;
            }
            fields.add(f);
            if (i < rank) {
                cols.add(i);
            } else {
                reads.add(i - rank);
                cols.add(-reads.size());
            }
        }
        if (arrays.options().skipFill()) {
            // every array's values decide whether a row is all fill, read or not
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
        return "zarr " + arrays.location() + " " + arrays.options().arrayPaths() + " shape "
                + Arrays.toString(arrays.shape()) + " selection " + Arrays.toString(selection)
                + (pushed.isEmpty() ? "" : " pushed " + pushed);
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public Statistics estimateStatistics() {
        long rows = 1;
        for (IndexSet s : selection) {
            rows = multiplySaturated(rows, s.count());
        }
        long rowBytes = 8L * arrays.dimensions().size();
        for (int a : readArrays) {
            rowBytes += arrays.arrays().get(a).dataType().size();
        }
        long r = rows;
        long bytes = multiplySaturated(rows, rowBytes);
        return new Statistics() {
            @Override
            public OptionalLong sizeInBytes() {
                return OptionalLong.of(bytes);
            }

            @Override
            public OptionalLong numRows() {
                return OptionalLong.of(r);
            }
        };
    }

    private static long multiplySaturated(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        long[] shape = arrays.shape();
        long[] grid = arrays.gridChunkShape();
        int rank = shape.length;
        long[] gridShape = new long[rank];
        long[][] perDim = new long[rank][];
        for (int d = 0; d < rank; d++) {
            gridShape[d] = shape[d] == 0 ? 0 : (shape[d] + grid[d] - 1) / grid[d];
            perDim[d] = selection[d].chunks(grid[d]);
            if (perDim[d].length == 0) {
                return new InputPartition[0];
            }
        }
        Set<Long> stored = storedChunks(gridShape);
        List<Long> chunks = new ArrayList<>();
        int[] at = new int[rank];
        while (true) {
            long linear = 0;
            for (int d = 0; d < rank; d++) {
                linear = linear * gridShape[d] + perDim[d][at[d]];
            }
            if (stored == null || stored.contains(linear)) {
                chunks.add(linear);
            }
            int d = rank - 1;
            while (d >= 0 && ++at[d] == perDim[d].length) {
                at[d] = 0;
                d--;
            }
            if (d < 0) {
                break;
            }
        }
        if (rank == 0) {
            chunks = List.of(0L);
        }
        return group(chunks, chunkBytes(grid)).toArray(new InputPartition[0]);
    }

    /** The decoded bytes of one whole chunk of every array read (at least 1). */
    private long chunkBytes(long[] grid) {
        long elements = 1;
        for (long g : grid) {
            elements = multiplySaturated(elements, g);
        }
        long bytes = 0;
        for (ZarrArray a : arrays.arrays()) {
            bytes += multiplySaturated(elements, a.dataType().size());
        }
        return Math.max(1, bytes);
    }

    private List<ChunkRun> group(List<Long> chunks, long chunkBytes) {
        ZarrOptions o = arrays.options();
        int perRun;
        if (arrays.sharded()) {
            perRun = 1;
        } else {
            long total = multiplySaturated(chunkBytes, chunks.size());
            long target = Math.min(o.partitionBytes(), Math.max(chunkBytes, total / (2L * parallelism())));
            perRun = (int) Math.max(1, Math.min(Integer.MAX_VALUE, target / chunkBytes));
        }
        int runs = (chunks.size() + perRun - 1) / perRun;
        if (runs > o.maxPartitions()) {
            perRun = (int) ((chunks.size() + (long) o.maxPartitions() - 1) / o.maxPartitions());
        }
        List<ChunkRun> out = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i += perRun) {
            List<Long> part = chunks.subList(i, Math.min(chunks.size(), i + perRun));
            out.add(new ChunkRun(part.stream().mapToLong(Long::longValue).toArray()));
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

    /**
     * With {@code skipFill}, the chunks stored for any array (linear indices), when the store can
     * be listed; null when every chunk is to be read.
     */
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
        long elementBytes = 0;
        for (int a : readArrays) {
            read.add(refs.get(a));
            elementBytes += arrays.arrays().get(a).dataType().size();
        }
        return new ZarrReaderFactory(new ReadSpec(read, columns, arrays.shape(), arrays.gridChunkShape(),
                arrays.innerChunkShape(), selection, arrays.options().skipFill(), arrays.options().batchRows(),
                elementBytes, arrays.options().regionBytes()));
    }
}
