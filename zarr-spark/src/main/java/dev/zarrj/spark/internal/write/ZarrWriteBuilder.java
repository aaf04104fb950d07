package dev.zarrj.spark.internal.write;

import dev.zarrj.spark.ZarrOptions;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;

/**
 * Builds the write of a table into a Zarr array: {@code mode("append")} writes the rows'
 * elements into the array (creating it when absent), {@code mode("overwrite")} (Spark's
 * truncate) replaces the array by the table's content. See {@link ZarrWrite} for how the job
 * runs and what a failed job leaves.
 *
 * <p>The table: one column per dimension (integral: element indices) and one value column. By
 * default the last column is the value and the others are the dimensions in order;
 * {@code value} and {@code dimensions} name them (other columns are refused). When the array
 * names its dimensions and the columns carry exactly those names, they are matched by name.
 *
 * <p>The array's metadata:
 * <ul>
 *   <li>append to an existing array: its own (a {@code shape} or {@code dataType} given must be
 *       its; the other creation options are ignored);</li>
 *   <li>overwrite of an existing array without any creation option: its own, its content
 *       replaced; with one: a new array from the options, {@code shape} defaulting to the old;</li>
 *   <li>a new array: {@code shape} (required), {@code chunks} (default: the shape, or the shard
 *       shape, halved along its longest side until a chunk holds at most 1 MiB), {@code shards}
 *       (optional: {@code sharding_indexed} with {@code chunks} inside), {@code codecs} (JSON) or
 *       {@code compressor} (default {@code zstd:1}), {@code fillValue} (JSON, or text), {@code
 *       dataType} (a name, numpy's {@code datetime64[ms]}, or the JSON of {@code data_type};
 *       default from the value column's type: boolean, byte... double to bool, int8... float64,
 *       string to {@code string}, binary to {@code bytes}, timestamp to {@code
 *       numpy.datetime64[us]}, date to {@code numpy.datetime64[D]}, a struct of two float or
 *       double fields to complex64/complex128; decimal needs {@code dataType}, e.g. uint64),
 *       {@code attributes} (a JSON object), {@code zarrFormat} (default: the format of the
 *       groups above, else 3). The dimension columns' names become {@code dimension_names}.</li>
 * </ul>
 * Values are range-checked against the data type; a value that does not fit fails the job naming
 * the row's indices, the column and the value.
 */
public final class ZarrWriteBuilder implements WriteBuilder, SupportsTruncate {
    private final ZarrOptions options;
    private final LogicalWriteInfo info;
    private final boolean truncate;

    public ZarrWriteBuilder(ZarrOptions options, LogicalWriteInfo info) {
        this(options, info, false);
    }

    private ZarrWriteBuilder(ZarrOptions options, LogicalWriteInfo info, boolean truncate) {
        this.options = options;
        this.info = info;
        this.truncate = truncate;
    }

    @Override
    public WriteBuilder truncate() {
        return new ZarrWriteBuilder(options, info, true);
    }

    /**
     * Decides the write on the driver (reads the array's metadata if it exists).
     *
     * @throws ZarrWriteException when an option, a column or the array does not fit, naming it
     */
    @Override
    public Write build() {
        return new ZarrWrite(WritePlanner.plan(options, info.schema(), truncate));
    }
}
