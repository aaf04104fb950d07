package dev.zarrj.spark.internal.read;

import dev.zarrj.spark.internal.ArrayRef;
import java.io.Serializable;
import java.util.List;

/**
 * What an executor needs to read its partitions, sent once per task.
 *
 * @param arrays    every array whose values are read (value columns first, in {@code columns} order)
 * @param columns   the output columns in order: {@code d >= 0} is dimension {@code d}, {@code -1 - i}
 *                  the values of {@code arrays.get(i)}
 * @param shape     the arrays' shape
 * @param grid      the storage grid's chunk shape
 * @param selection the indices each dimension keeps after pushed filters
 * @param skipFill  whether rows whose values all equal the fill value are omitted
 * @param batchRows the most rows of one batch
 */
record ReadSpec(List<ArrayRef> arrays, int[] columns, long[] shape, long[] grid, IndexSet[] selection,
                boolean skipFill, int batchRows) implements Serializable {
}
