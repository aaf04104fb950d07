package dev.zarrj.spark.internal.chunks;

import dev.zarrj.spark.ZarrOptions;
import dev.zarrj.spark.internal.read.ArraySet;
import dev.zarrj.spark.internal.read.ChunkPlanning;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
        long[] gridShape = ChunkPlanning.gridShape(shape, grid);
        long[][] candidates = filters.candidates(gridShape, grid);
        for (long[] c : candidates) {
            if (c.length == 0) {
                return new InputPartition[0];
            }
        }
        Set<Long> stored = ChunkPlanning.storedChunks(arrays, gridShape);
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
        List<InputPartition> out = new ArrayList<>();
        for (long[] run : ChunkPlanning.runs(chunks, chunkBytes(grid), false, arrays.options())) {
            out.add(new ChunkPartition(run));
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
        for (int a : readArrays) {
            bytes = Math.max(bytes, bytes + ChunkPlanning.multiplySaturated(elements, arrays.arrays().get(a).dataType().size()));
        }
        return Math.max(1, bytes);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new ChunkReaderFactory(new ChunkReadSpec(arrays.refs(readArrays), columns, arrays.shape(), arrays.gridChunkShape(),
                arrays.options().skipFill()));
    }
}
