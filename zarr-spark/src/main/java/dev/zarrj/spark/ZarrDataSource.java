package dev.zarrj.spark;

import com.google.auto.service.AutoService;
import dev.zarrj.spark.internal.ZarrTable;
import dev.zarrj.spark.internal.chunks.ChunkSchema;
import dev.zarrj.spark.internal.read.ArraySet;
import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code zarr} data source: Zarr arrays as Spark tables, read and written through Spark's
 * DataSource V2 API.
 *
 * <pre>{@code
 * Dataset<Row> t = spark.read().format("zarr").option("array", "temperature").load("s3://bucket/data.zarr");
 * t.where("time = 3 AND lat BETWEEN 100 AND 200").agg(avg("temperature"));
 * df.write().format("zarr").mode("overwrite").option("shape", "256,512,512").option("chunks", "64,128,128")
 *         .save("s3://bucket/out.zarr");
 * }</pre>
 *
 * <p>A read has one {@code long} column per dimension and one value column per array; a write
 * takes such a table. {@link ZarrOptions} lists the options. Registered under the short name
 * {@code zarr} through {@code META-INF/services}; the zarrj stores, codecs and data types on the
 * class path are found the same way.
 *
 * @since 0.17
 */
@AutoService(DataSourceRegister.class)
public final class ZarrDataSource implements TableProvider, DataSourceRegister {
    /** The short name: {@code spark.read.format("zarr")}. */
    public static final String SHORT_NAME = "zarr";

    /** Spark creates data sources by reflection. */
    public ZarrDataSource() {}

    @Override
    public String shortName() {
        return SHORT_NAME;
    }

    /** The schema the arrays' metadata give (one metadata read per array): elements, or chunks with {@code rows=chunks}. */
    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        ZarrOptions o = ZarrOptions.of(options.asCaseSensitiveMap());
        return o.chunkRows() ? ChunkSchema.of(ArraySet.open(o)) : ArraySet.open(o).schema();
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        return new ZarrTable(ZarrOptions.of(properties), schema);
    }

    /** A write passes the table's schema: the array may not exist yet. */
    @Override
    public boolean supportsExternalMetadata() {
        return true;
    }
}
