package dev.zarrj.spark.internal.write;

import dev.zarrj.spark.ZarrOptions;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;

/**
 * Builds the write of a table into a Zarr array: {@code mode("append")} writes the rows'
 * elements into the array (creating it when absent), {@code mode("overwrite")} (Spark's
 * truncate) replaces the array by the table's content. See {@link ZarrWrite}.
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
