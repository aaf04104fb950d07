package dev.zarrj.spark.internal.read;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/**
 * A read that aggregates as it reads ({@link AggregatePlan}): the same partitions as the rows'
 * scan, each giving one row per group it saw instead of one per element.
 */
final class AggregateScan implements Scan, Batch {
    private final ArraySet arrays;
    private final IndexSet[] selection;
    private final AggregatePlan plan;
    private final List<Integer> readArrays;

    AggregateScan(ArraySet arrays, IndexSet[] selection, AggregatePlan plan, List<Integer> readArrays) {
        this.arrays = arrays;
        this.selection = selection;
        this.plan = plan;
        this.readArrays = readArrays;
    }

    @Override
    public StructType readSchema() {
        return plan.schema(arrays);
    }

    @Override
    public String description() {
        return "zarr " + arrays.location() + " " + arrays.options().arrayPaths() + " shape "
                + Arrays.toString(arrays.shape()) + " aggregated " + plan.aggs() + " by dimensions "
                + Arrays.toString(plan.groupDims());
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        return new ZarrScan(arrays, selection, arrays.schema(), List.of()).planInputPartitions();
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        ReadSpec spec = new ReadSpec(arrays.refs(readArrays), new int[0], arrays.shape(), arrays.gridChunkShape(), arrays.innerChunkShape(),
                selection, false, arrays.options().batchRows(), arrays.elementBytes(readArrays),
                arrays.options().regionBytes());
        return new ReaderFactory(spec, plan);
    }

    /** Sent to the executors: the read and the aggregation, nothing of the driver's handles. */
    private record ReaderFactory(ReadSpec spec, AggregatePlan plan) implements PartitionReaderFactory {
        @Override
        public PartitionReader<InternalRow> createReader(InputPartition partition) {
            return new AggregateReader(spec, (ChunkRun) partition, plan);
        }
    }
}
