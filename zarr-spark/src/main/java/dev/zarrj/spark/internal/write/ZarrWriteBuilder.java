package dev.zarrj.spark.internal.write;

import dev.zarrj.spark.ZarrOptions;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;

/** Placeholder until the write path lands (branch i17-write). */
public final class ZarrWriteBuilder implements WriteBuilder {
    private final ZarrOptions options;
    private final LogicalWriteInfo info;

    public ZarrWriteBuilder(ZarrOptions options, LogicalWriteInfo info) {
        this.options = options;
        this.info = info;
    }
}
