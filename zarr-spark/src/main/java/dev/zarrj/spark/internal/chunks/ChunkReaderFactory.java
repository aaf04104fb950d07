package dev.zarrj.spark.internal.chunks;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** Creates the readers of chunk rows on the executors. */
final class ChunkReaderFactory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;

    private final ChunkReadSpec spec;

    ChunkReaderFactory(ChunkReadSpec spec) {
        this.spec = spec;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        return new ChunkRowReader(spec, (ChunkPartition) partition);
    }
}
