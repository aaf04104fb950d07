package dev.zarrj.spark.internal;

import dev.zarrj.spark.ZarrOptions;
import dev.zarrj.spark.internal.chunks.ChunkScanBuilder;
import dev.zarrj.spark.internal.read.ZarrScanBuilder;
import dev.zarrj.spark.internal.write.ZarrWriteBuilder;
import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * One or several Zarr arrays as a table. The schema is what {@code getTable} was given: the
 * arrays' own (inferred) for a read, the written DataFrame's for a write.
 */
public final class ZarrTable implements SupportsRead, SupportsWrite {
    private final ZarrOptions options;
    private final StructType schema;

    public ZarrTable(ZarrOptions options, StructType schema) {
        this.options = options;
        this.schema = schema;
    }

    @Override
    public String name() {
        return "zarr:" + options.get(ZarrOptions.PATH).or(() -> options.get(ZarrOptions.STORE)).orElse("?")
                + " " + options.arrayPaths();
    }

    @Override
    public StructType schema() {
        return schema;
    }

    @Override
    public Set<TableCapability> capabilities() {
        // ACCEPT_ANY_SCHEMA: a written table is matched to the array by ZarrWriteBuilder (dimension
        // and value columns, casts), not by Spark's by-name check against this schema.
        // V1_BATCH_WRITE: writes are V1Writes, which repartition the DataFrame by stored object
        // themselves (ZarrWrite says why); BATCH_WRITE stays, as save(path) requires it.
        return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.V1_BATCH_WRITE,
                TableCapability.TRUNCATE, TableCapability.ACCEPT_ANY_SCHEMA);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap readOptions) {
        ZarrOptions o = merged(readOptions);
        return o.chunkRows() ? new ChunkScanBuilder(o, schema) : new ZarrScanBuilder(o, schema);
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        return new ZarrWriteBuilder(merged(info.options()), info);
    }

    private ZarrOptions merged(CaseInsensitiveStringMap more) {
        java.util.Map<String, String> all = new java.util.HashMap<>(options.asMap());
        all.putAll(more.asCaseSensitiveMap());
        return ZarrOptions.of(all);
    }
}
