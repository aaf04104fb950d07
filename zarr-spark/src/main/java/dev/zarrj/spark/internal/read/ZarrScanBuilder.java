package dev.zarrj.spark.internal.read;

import dev.zarrj.spark.ZarrOptions;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;

/** Placeholder until the read path lands. */
public final class ZarrScanBuilder implements ScanBuilder {
    public ZarrScanBuilder(ZarrOptions options, StructType schema) {}

    @Override
    public Scan build() {
        throw new UnsupportedOperationException("read path not yet built");
    }
}
