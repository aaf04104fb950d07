package dev.zarrj.spark.internal.chunks;

import dev.zarrj.api.NdArray;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.spark.internal.ExecutorArrays;
import dev.zarrj.spark.internal.read.ValueColumn;
import dev.zarrj.spark.internal.read.Vectors;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.vectorized.ColumnarArray;

/**
 * Reads one partition's chunks, one row each: the chunk's coordinates, origin and shape, and per
 * array its values (the part inside the array, one region read) as an array column whose
 * elements are read from the decoded region by the element table's vectors.
 */
final class ChunkRowReader implements PartitionReader<InternalRow> {
    private final ChunkReadSpec spec;
    private final long[] chunks;
    private final long[] gridShape;
    private ZarrArray[] arrays;
    private ValueColumn[] values;
    private int next;
    private InternalRow row;

    ChunkRowReader(ChunkReadSpec spec, ChunkPartition partition) {
        this.spec = spec;
        this.chunks = partition.chunks();
        this.gridShape = spec.gridShape();
    }

    private void open() {
        if (arrays == null) {
            arrays = new ZarrArray[spec.arrays().size()];
            values = new ValueColumn[arrays.length];
            for (int i = 0; i < arrays.length; i++) {
                arrays[i] = ExecutorArrays.readArray(spec.arrays().get(i));
                values[i] = ValueColumn.of(arrays[i].dataType(), arrays[i].fillValue(), arrays[i].path());
            }
        }
    }

    @Override
    public boolean next() {
        open();
        while (next < chunks.length) {
            row = read(chunks[next++]);
            if (row != null) {
                return true;
            }
        }
        row = null;
        return false;
    }

    /** The row of a chunk, or null when skipFill omits it. */
    private InternalRow read(long linear) {
        int rank = gridShape.length;
        long[] coords = new long[rank];
        long rest = linear;
        for (int d = rank - 1; d >= 0; d--) {
            coords[d] = rest % gridShape[d];
            rest /= gridShape[d];
        }
        long[] origin = new long[rank];
        long[] shape = new long[rank];
        int[] intShape = new int[rank];
        long count = 1;
        for (int d = 0; d < rank; d++) {
            origin[d] = coords[d] * spec.grid()[d];
            shape[d] = Math.min(spec.grid()[d], spec.shape()[d] - origin[d]);
            intShape[d] = Math.toIntExact(shape[d]);
            count *= shape[d];
        }
        NdArray[] data = new NdArray[arrays.length];
        for (int a = 0; a < arrays.length; a++) {
            data[a] = arrays[a].read(origin, shape);
        }
        if (spec.skipFill() && allFill(data, count)) {
            return null;
        }
        int[] columns = spec.columns();
        Object[] out = new Object[columns.length];
        for (int c = 0; c < columns.length; c++) {
            int col = columns[c];
            if (col >= 0) {
                out[c] = origin[col];
            } else if (col == ChunkReadSpec.COORDS) {
                out[c] = UnsafeArrayData.fromPrimitiveArray(coords);
            } else if (col == ChunkReadSpec.SHAPE) {
                out[c] = UnsafeArrayData.fromPrimitiveArray(intShape);
            } else {
                int a = ChunkReadSpec.VALUES - col;
                out[c] = new ColumnarArray(values[a].vector(data[a], Vectors.Rows.run(0)), 0, (int) count);
            }
        }
        return new GenericInternalRow(out);
    }

    private boolean allFill(NdArray[] data, long count) {
        for (int a = 0; a < data.length; a++) {
            for (long i = 0; i < count; i++) {
                if (!values[a].isFill(data[a], i)) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public InternalRow get() {
        return row;
    }

    @Override
    public void close() {
        row = null;
    }
}
