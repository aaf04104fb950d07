package dev.zarrj.spark.internal.read;

import java.io.IOException;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Creates the readers of a scan's partitions on the executors: columnar, rows only as a fallback. */
final class ZarrReaderFactory implements PartitionReaderFactory {
    private final ReadSpec spec;

    ZarrReaderFactory(ReadSpec spec) {
        this.spec = spec;
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return true;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        return new ChunkBatchReader(spec, (ChunkRun) partition);
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        ChunkBatchReader batches = new ChunkBatchReader(spec, (ChunkRun) partition);
        return new PartitionReader<>() {
            private Iterator<InternalRow> rows;
            private InternalRow row;

            @Override
            public boolean next() throws IOException {
                while (rows == null || !rows.hasNext()) {
                    if (!batches.next()) {
                        return false;
                    }
                    rows = batches.get().rowIterator();
                }
                row = rows.next();
                return true;
            }

            @Override
            public InternalRow get() {
                return row;
            }

            @Override
            public void close() throws IOException {
                batches.close();
            }
        };
    }
}
