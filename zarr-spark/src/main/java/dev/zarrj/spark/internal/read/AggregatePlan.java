package dev.zarrj.spark.internal.read;

import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.core.ZarrArray;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Max;
import org.apache.spark.sql.connector.expressions.aggregate.Min;
import org.apache.spark.sql.connector.expressions.aggregate.Sum;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * An aggregation Spark pushed down: {@code COUNT(*)}, {@code COUNT}, {@code SUM}, {@code MIN} and
 * {@code MAX} of value columns of numbers, grouped by dimension columns. Each task computes them
 * per group over the decoded chunks of its partition, as a plain Java loop would, and hands
 * Spark one row per group it saw; Spark merges the partitions' rows ({@code AVG} reaches here as
 * {@code SUM} and {@code COUNT}, which Spark divides).
 *
 * @param groupDims the dimensions grouped by, in the order Spark lists them
 * @param aggs      the aggregates, in Spark's order
 * @param ansi      whether an integer sum that overflows fails (Spark's ANSI mode) or wraps
 */
record AggregatePlan(int[] groupDims, List<Agg> aggs, boolean ansi) implements Serializable {
    /** At most this many groups over the whole array; beyond, Spark aggregates the rows itself. */
    static final long MAX_GROUPS = 1L << 20;

    enum Kind { COUNT, SUM, MIN, MAX }

    /**
     * One aggregate.
     *
     * @param kind   what it computes ({@code COUNT(*)} and {@code COUNT(v)} are one: values are never null)
     * @param array  the value column's index among the arrays read (-1 for a count)
     * @param floats whether the values are floating point (sums in double) rather than integers
     * @param type   the Spark type of its result
     */
    record Agg(Kind kind, int array, boolean floats, org.apache.spark.sql.types.DataType type) implements Serializable {}

    /**
     * The plan of an aggregation, or empty when it cannot be computed here (Spark then computes
     * it from the rows): distinct aggregates, expressions, nullable or non-numeric values,
     * {@code uint64}, too many groups.
     *
     * @param readArrays filled with the indices (in {@code arrays}) of the arrays the plan reads
     */
    static Optional<AggregatePlan> of(Aggregation aggregation, ArraySet arrays, boolean ansi, List<Integer> readArrays) {
        List<String> dims = arrays.dimensions();
        List<String> valueNames = arrays.valueNames();
        List<Integer> groups = new ArrayList<>();
        long groupCount = 1;
        for (Expression e : aggregation.groupByExpressions()) {
            int d = indexOf(dims, e);
            if (d < 0 || groups.contains(d)) {
                return Optional.empty();
            }
            groups.add(d);
            groupCount *= Math.max(1, arrays.shape()[d]);
            if (groupCount > MAX_GROUPS) {
                return Optional.empty();
            }
        }
        List<Agg> aggs = new ArrayList<>();
        for (AggregateFunc f : aggregation.aggregateExpressions()) {
            if (f instanceof CountStar) {
                aggs.add(new Agg(Kind.COUNT, -1, false, DataTypes.LongType));
                continue;
            }
            Expression column;
            Kind kind;
            if (f instanceof Count c && !c.isDistinct()) {
                column = c.column();
                kind = Kind.COUNT;
            } else if (f instanceof Sum s && !s.isDistinct()) {
                column = s.column();
                kind = Kind.SUM;
            } else if (f instanceof Min m) {
                column = m.column();
                kind = Kind.MIN;
            } else if (f instanceof Max m) {
                column = m.column();
                kind = Kind.MAX;
            } else {
                return Optional.empty();
            }
            int v = indexOf(valueNames, column);
            if (v < 0) {
                return Optional.empty();
            }
            ZarrArray array = arrays.arrays().get(v);
            ValueColumn col = arrays.values().get(v);
            if (!numeric(array.dataType()) || col.nullable) {
                return Optional.empty();
            }
            if (kind == Kind.COUNT) {
                aggs.add(new Agg(Kind.COUNT, -1, false, DataTypes.LongType));
                continue;
            }
            if (!readArrays.contains(v)) {
                readArrays.add(v);
            }
            boolean floats = array.dataType().kind() == ElementKind.FLOAT;
            org.apache.spark.sql.types.DataType type = kind == Kind.SUM
                    ? (floats ? DataTypes.DoubleType : DataTypes.LongType) : col.sparkType;
            aggs.add(new Agg(kind, readArrays.indexOf(v), floats, type));
        }
        return Optional.of(new AggregatePlan(groups.stream().mapToInt(Integer::intValue).toArray(), List.copyOf(aggs), ansi));
    }

    /** Integers (but {@code uint64}, which Spark sums as decimals) and floats. */
    private static boolean numeric(DataType t) {
        switch (t.kind()) {
            case INT:
                return t.size() == 1 || t.size() == 2 || t.size() == 4 || t.size() == 8;
            case UINT:
                return t.size() == 1 || t.size() == 2 || t.size() == 4;
            case FLOAT:
                return t.size() == 2 || t.size() == 4 || t.size() == 8;
            default:
                return false;
        }
    }

    private static int indexOf(List<String> names, Expression e) {
        if (!(e instanceof NamedReference r) || r.fieldNames().length != 1) {
            return -1;
        }
        String name = r.fieldNames()[0];
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The rows a task returns: the grouped dimensions, then the aggregates. */
    StructType schema(ArraySet arrays) {
        List<StructField> fields = new ArrayList<>();
        for (int d : groupDims) {
            fields.add(DataTypes.createStructField(arrays.dimensions().get(d), DataTypes.LongType, false));
        }
        for (int i = 0; i < aggs.size(); i++) {
            fields.add(DataTypes.createStructField("agg_" + i + "_" + aggs.get(i).kind().name().toLowerCase(
                    java.util.Locale.ROOT), aggs.get(i).type(), true));
        }
        return new StructType(fields.toArray(new StructField[0]));
    }
}
