package dev.zarrj.spark.internal.read;

import java.io.IOException;
import java.util.Arrays;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads one partition as columnar batches: each region {@link RegionReader} reads gives batches
 * of at most {@code batchRows} rows whose vectors read the decoded values in place.
 */
final class ChunkBatchReader implements PartitionReader<ColumnarBatch> {
    private final ReadSpec spec;
    private final ChunkRun run;
    private RegionReader regions;
    private RegionReader.Region region;
    private long position;
    private ColumnarBatch batch;

    ChunkBatchReader(ReadSpec spec, ChunkRun run) {
        this.spec = spec;
        this.run = run;
    }

    @Override
    public boolean next() throws IOException {
        if (regions == null) {
            regions = new RegionReader(spec, run);
        }
        while (region == null || position >= region.count()) {
            region = regions.next();
            position = 0;
            if (region == null) {
                return false;
            }
        }
        int n = (int) Math.min(spec.batchRows(), region.count() - position);
        Vectors.Rows rows;
        if (region.rows() == null) {
            rows = Vectors.Rows.run(position);
        } else {
            rows = Vectors.Rows.list(Arrays.copyOfRange(region.rows(), (int) position, (int) position + n));
        }
        position += n;
        int[] columns = spec.columns();
        ColumnVector[] vectors = new ColumnVector[columns.length];
        for (int c = 0; c < columns.length; c++) {
            int col = columns[c];
            if (col >= 0) {
                long stride = 1;
                for (int d = col + 1; d < region.shape().length; d++) {
                    stride *= region.shape()[d];
                }
                vectors[c] = new Vectors.Coordinate(rows, region.offset()[col], stride, region.shape()[col]);
            } else {
                int a = -1 - col;
                vectors[c] = regions.values()[a].vector(region.data()[a], rows);
            }
        }
        batch = new ColumnarBatch(vectors, n);
        return true;
    }

    @Override
    public ColumnarBatch get() {
        return batch;
    }

    @Override
    public void close() {
        if (regions != null) {
            regions.close();
        }
        region = null;
        batch = null;
    }
}
