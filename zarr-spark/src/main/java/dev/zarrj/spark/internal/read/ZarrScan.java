package dev.zarrj.spark.internal.read;

import dev.zarrj.core.ZarrArray;
import dev.zarrj.spark.ZarrOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
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
        this.readSchema = new StructType(fields.toArray(new StructField[0]));
        this.columns = cols.stream().mapToInt(Integer::intValue).toArray();
        this.readArrays = arrays.arraysToRead(reads);
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
            rows = ChunkPlanning.multiplySaturated(rows, s.count());
        }
        long rowBytes = 8L * arrays.dimensions().size();
        for (int a : readArrays) {
            rowBytes += arrays.arrays().get(a).dataType().size();
        }
        long r = rows;
        long bytes = ChunkPlanning.multiplySaturated(rows, rowBytes);
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

    @Override
    public InputPartition[] planInputPartitions() {
        long[] shape = arrays.shape();
        long[] grid = arrays.gridChunkShape();
        int rank = shape.length;
        long[] gridShape = ChunkPlanning.gridShape(shape, grid);
        long[][] perDim = new long[rank][];
        for (int d = 0; d < rank; d++) {
            perDim[d] = selection[d].chunks(grid[d]);
            if (perDim[d].length == 0) {
                return new InputPartition[0];
            }
        }
        Set<Long> stored = ChunkPlanning.storedChunks(arrays, gridShape);
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
        List<InputPartition> out = new ArrayList<>();
        for (long[] run : ChunkPlanning.runs(chunks, chunkBytes(grid), arrays.sharded(), arrays.options())) {
            out.add(new ChunkRun(run));
        }
        return out.toArray(new InputPartition[0]);
    }

    /** The decoded bytes of one whole chunk of every array read (at least 1). */
    private long chunkBytes(long[] grid) {
        long elements = 1;
        for (long g : grid) {
            elements = ChunkPlanning.multiplySaturated(elements, g);
        }
        long bytes = 0;
        for (ZarrArray a : arrays.arrays()) {
            bytes += ChunkPlanning.multiplySaturated(elements, a.dataType().size());
        }
        return Math.max(1, bytes);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new ZarrReaderFactory(new ReadSpec(arrays.refs(readArrays), columns, arrays.shape(), arrays.gridChunkShape(),
                arrays.innerChunkShape(), selection, arrays.options().skipFill(), arrays.options().batchRows(),
                arrays.elementBytes(readArrays), arrays.options().regionBytes()));
    }
}
