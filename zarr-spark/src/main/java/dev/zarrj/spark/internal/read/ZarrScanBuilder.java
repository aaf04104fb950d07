package dev.zarrj.spark.internal.read;

import dev.zarrj.spark.ZarrOptions;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * Plans a read: filters on dimension columns prune chunks (and are evaluated again by Spark, so
 * pruning keeps a superset), and only the value columns a query uses are read.
 */
public final class ZarrScanBuilder implements ScanBuilder, SupportsPushDownFilters, SupportsPushDownRequiredColumns,
        SupportsPushDownAggregates {
    private final ZarrOptions options;
    private final ArraySet arrays;
    private final List<Filter> pushed = new ArrayList<>();
    private StructType required;
    private AggregatePlan aggregate;
    private final List<Integer> aggregateArrays = new ArrayList<>();

    public ZarrScanBuilder(ZarrOptions options, StructType schema) {
        this.options = options;
        this.arrays = ArraySet.open(options);
        this.required = arrays.schema();
        if (schema != null && !sameColumns(schema, required)) {
            throw new IllegalArgumentException("the zarr data source reads the schema from the arrays' metadata: "
                    + required.simpleString() + "; the schema given, " + schema.simpleString() + ", differs (leave it out, "
                    + "or select and cast columns after the read)");
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

    /**
     * Filters on dimensions prune chunks; those the scan applies exactly ({@link DimensionFilters#exact})
     * are not returned, so Spark does not evaluate them again and can push an aggregation below
     * them.
     */
    @Override
    public Filter[] pushFilters(Filter[] filters) {
        DimensionFilters dims = new DimensionFilters(arrays.dimensions(), arrays.shape());
        List<Filter> after = new ArrayList<>();
        for (Filter f : filters) {
            if (dims.prunes(f)) {
                pushed.add(f);
            }
            if (!dims.exact(f)) {
                after.add(f);
            }
        }
        return after.toArray(new Filter[0]);
    }

    @Override
    public Filter[] pushedFilters() {
        return pushed.toArray(new Filter[0]);
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        this.required = requiredSchema;
    }

    /**
     * Spark pushes an aggregation only when no filter is left for it to evaluate after the scan;
     * this scan computes {@code COUNT}, {@code SUM}, {@code MIN} and {@code MAX} of number columns
     * grouped by dimensions per partition, and Spark merges the partitions' groups.
     */
    @Override
    public boolean pushAggregation(Aggregation aggregation) {
        if (options.skipFill() || !options.bool(ZarrOptions.AGGREGATE_PUSH_DOWN, true)) {
            return false;
        }
        aggregateArrays.clear();
        boolean ansi = org.apache.spark.sql.internal.SQLConf.get().ansiEnabled();
        aggregate = AggregatePlan.of(aggregation, arrays, ansi, aggregateArrays).orElse(null);
        return aggregate != null;
    }

    @Override
    public Scan build() {
        IndexSet[] selection = new DimensionFilters(arrays.dimensions(), arrays.shape()).apply(pushed);
        if (aggregate != null) {
            return new AggregateScan(arrays, selection, aggregate, List.copyOf(aggregateArrays));
        }
        return new ZarrScan(arrays, selection, required, pushed);
    }
}
