package dev.zarrj.spark.internal.chunks;

import dev.zarrj.spark.ZarrOptions;
import dev.zarrj.spark.internal.read.ArraySet;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * Plans a read of chunk rows ({@link ZarrOptions#ROWS}{@code =chunks}): filters on dimension
 * columns (the chunks' origins) prune chunks, and arrays whose column a query does not use are not
 * read (a query of the coordinates alone reads no chunk).
 */
public final class ChunkScanBuilder implements ScanBuilder, SupportsPushDownFilters, SupportsPushDownRequiredColumns {
    private final ArraySet arrays;
    private final StructType schema;
    private final List<Filter> pushed = new ArrayList<>();
    private StructType required;

    /**
     * Opens the arrays the options name (one metadata read each).
     *
     * @param schema the table's schema: what {@link ChunkSchema#of} gave, or one the user passed
     * @throws IllegalArgumentException when the schema given differs from the arrays' chunk table
     */
    public ChunkScanBuilder(ZarrOptions options, StructType schema) {
        this.arrays = ArraySet.open(options);
        this.schema = ChunkSchema.of(arrays);
        this.required = this.schema;
        if (schema != null && !sameColumns(schema, this.schema)) {
            throw new IllegalArgumentException("the zarr data source reads the schema of chunk rows from the arrays' "
                    + "metadata: " + this.schema.simpleString() + "; the schema given, " + schema.simpleString()
                    + ", differs (leave it out, or select and cast columns after the read)");
        }
    }

    private static boolean sameColumns(StructType a, StructType b) {
        if (a.fields().length != b.fields().length) {
            return false;
        }
        for (int i = 0; i < a.fields().length; i++) {
            if (!a.fields()[i].name().equalsIgnoreCase(b.fields()[i].name())
                    || !a.fields()[i].dataType().sameType(b.fields()[i].dataType())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Filter[] pushFilters(Filter[] filters) {
        for (Filter f : filters) {
            if (ChunkFilters.prunes(arrays.dimensions(), f)) {
                pushed.add(f);
            }
        }
        // Spark evaluates them all again on the rows: pruning keeps a superset.
        return filters;
    }

    @Override
    public Filter[] pushedFilters() {
        return pushed.toArray(new Filter[0]);
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        this.required = requiredSchema;
    }

    @Override
    public Scan build() {
        return new ChunkScan(arrays, schema, required, new ChunkFilters(arrays.dimensions(), pushed));
    }
}
