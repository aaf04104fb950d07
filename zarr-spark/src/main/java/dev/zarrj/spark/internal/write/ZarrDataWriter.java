package dev.zarrj.spark.internal.write;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.spark.internal.ExecutorArrays;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * One task's writer: puts each row's value into a buffer holding the stored object (shard, or
 * chunk when unsharded; the inner chunk of a shard larger than the memory budget) the row falls
 * in, and writes it once when the rows move on to another one. The job sorts a task's rows by
 * that unit, so each is buffered and written once per task and one unit's elements are held at a
 * time; rows that arrive out of order would still give the right result, by reading back what
 * was written before.
 *
 * <p>An object the task covers only in part keeps its other elements: for an array that existed
 * before the job the buffer starts from the stored content; for one the job creates, from the fill
 * value (nothing else writes the object: the job's distribution gives each object to one task).
 */
final class ZarrDataWriter implements AutoCloseable {
    private final WritePlan plan;
    private final Store store;
    private final ZarrArray array;
    private final int rank;
    private final long[] shape;
    private final long[] unit;
    private final long[] gridStrides;
    private final long[] coords;
    private final ValueConversion.RowName rowName;
    private final FillValue fill;
    private final NdArray fillElement;
    private final Set<String> written = new LinkedHashSet<>();
    private final Set<Long> flushed = new HashSet<>();
    private long rows;

    private long blockIndex = -1;
    private long[] blockOffset;
    private long[] blockShape;
    private long[] blockStrides;
    private NdArray block;

    ZarrDataWriter(WritePlan plan) {
        this.plan = plan;
        this.store = ExecutorArrays.store(plan.location);
        this.array = plan.unstoredArray(ExecutorArrays.zarr(), store);
        this.rank = plan.rank();
        this.shape = plan.shape;
        this.unit = plan.bufferChunk;
        long[] grid = plan.gridShape(unit);
        this.gridStrides = new long[rank];
        long s = 1;
        for (int d = rank - 1; d >= 0; d--) {
            gridStrides[d] = s;
            s *= grid[d];
        }
        this.coords = new long[rank];
        this.rowName = new ValueConversion.RowName(plan.dimensionColumns, coords);
        this.fill = array.fillValue();
        this.fillElement = NdArray.filled(array.dataType(), fill, 1);
    }

    void write(InternalRow row) {
        long linear = 0;
        for (int d = 0; d < rank; d++) {
            int o = plan.dimensionOrdinals[d];
            if (row.isNullAt(o)) {
                throw new ZarrWriteException("dimension column '" + plan.dimensionColumns[d] + "' is null in a row"
                        + (d > 0 ? " with " + new ValueConversion.RowName(Arrays.copyOf(plan.dimensionColumns, d),
                        Arrays.copyOf(coords, d)) : "") + "; every row names an element by its indices");
            }
            coords[d] = ValueConversion.integral(row, o, plan.dimensionTypes[d]);
        }
        for (int d = 0; d < rank; d++) {
            if (coords[d] < 0 || coords[d] >= shape[d]) {
                throw new ZarrWriteException(rowName + ": column '" + plan.dimensionColumns[d] + "' = " + coords[d]
                        + " lies outside the array's shape " + Arrays.toString(shape) + " (indices 0 to "
                        + (shape[d] - 1) + ") at " + plan.describe());
            }
            linear += coords[d] / unit[d] * gridStrides[d];
        }
        if (linear != blockIndex) {
            flush();
            open(linear);
        }
        long flat = 0;
        for (int d = 0; d < rank; d++) {
            flat += (coords[d] - blockOffset[d]) * blockStrides[d];
        }
        if (row.isNullAt(plan.valueOrdinal)) {
            setFill(flat);
        } else {
            plan.conversion.set(row, plan.valueOrdinal, block, flat, rowName);
        }
        rows++;
    }

    private void open(long linear) {
        blockIndex = linear;
        blockOffset = new long[rank];
        blockShape = new long[rank];
        blockStrides = new long[rank];
        long s = 1;
        for (int d = rank - 1; d >= 0; d--) {
            blockOffset[d] = coords[d] / unit[d] * unit[d];
            blockShape[d] = Math.min(unit[d], shape[d] - blockOffset[d]);
            blockStrides[d] = s;
            s *= blockShape[d];
        }
        if (!plan.createsArray || flushed.contains(linear)) {
            block = array.read(blockOffset, blockShape);
        } else {
            block = NdArray.filled(array.dataType(), fill, blockShape);
        }
    }

    private void setFill(long flat) {
        if (array.dataType().kind().isVariableLength()) {
            if (array.dataType().kind() == dev.zarrj.api.datatype.ElementKind.STRING) {
                block.setString(flat, fillElement.getString(0));
            } else {
                block.setBytes(flat, fillElement.getBytes(0));
            }
        } else {
            byte[] f = new byte[array.dataType().size()];
            fillElement.bytes().get(0, f);
            block.bytes().put(Math.toIntExact(flat * f.length), f);
        }
    }

    /** Writes the buffered object, if any. */
    private void flush() {
        if (block == null) {
            return;
        }
        TaskContext task = TaskContext.get();
        if (task != null) {
            task.killTaskIfInterrupted(); // the job failed: store nothing more, its abort erases what is stored
        }
        array.write(blockOffset, block);
        long[] gridCoords = new long[rank];
        for (int d = 0; d < rank; d++) {
            gridCoords[d] = blockOffset[d] / plan.storedChunk[d];
        }
        flushed.add(blockIndex);
        written.add(array.chunkKey(gridCoords));
        block = null;
        blockIndex = -1;
    }

    WrittenObjects commit() {
        flush();
        return new WrittenObjects(List.copyOf(written), rows);
    }

    /**
     * Drops the buffer. What the task stored stays: the job's abort erases an array the job was
     * creating; a retried or speculative attempt of this task writes the same objects again (and
     * erasing here could remove what a concurrent, successful attempt wrote).
     */
    void abort() {
        block = null;
    }

    /** Drops the buffer; the store stays open for the JVM's next tasks ({@link ExecutorArrays}). */
    @Override
    public void close() {
        block = null;
    }
}
