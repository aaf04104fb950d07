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
 * @param inner     the inner chunk shape of a sharded array (where its slabs are cut), else null
 * @param selection the indices each dimension keeps after pushed filters
 * @param skipFill  whether rows whose values all equal the fill value are omitted
 * @param batchRows the most rows of one batch
 * @param elementBytes the decoded bytes of one element of every array read
 * @param regionBytes  the most decoded bytes of one region read
 */
record ReadSpec(List<ArrayRef> arrays, int[] columns, long[] shape, long[] grid, long[] inner, IndexSet[] selection,
                boolean skipFill, int batchRows, long elementBytes, long regionBytes) implements Serializable {
}
