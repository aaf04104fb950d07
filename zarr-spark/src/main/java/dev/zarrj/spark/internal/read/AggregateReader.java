package dev.zarrj.spark.internal.read;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.Float16;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.DataTypes;

/**
 * Computes a pushed aggregation over one partition: every region's values are folded into one
 * accumulator per group (dense, over the groups the partition's chunks can reach), in loops over
 * runs along the last dimension, and the groups seen become the partition's rows.
 */
final class AggregateReader implements PartitionReader<InternalRow> {
    private final ReadSpec spec;
    private final ChunkRun run;
    private final AggregatePlan plan;
    private Iterator<InternalRow> rows;
    private InternalRow row;

    AggregateReader(ReadSpec spec, ChunkRun run, AggregatePlan plan) {
        this.spec = spec;
        this.run = run;
        this.plan = plan;
    }

    @Override
    public boolean next() throws IOException {
        if (rows == null) {
            rows = compute().iterator();
        }
        if (!rows.hasNext()) {
            return false;
        }
        row = rows.next();
        return true;
    }

    @Override
    public InternalRow get() {
        return row;
    }

    @Override
    public void close() {
        rows = null;
    }

    /** The values of an array as numbers, read from its decoded bytes. */
    private interface Numbers {
        double d(int i);

        long l(int i);

        static Numbers of(DataType t, ByteBuffer b) {
            switch (t.kind()) {
                case FLOAT:
                    if (t.size() == 4) {
                        return new Numbers() {
                            public double d(int i) {
                                return b.getFloat(i << 2);
                            }

                            public long l(int i) {
                                throw new IllegalStateException();
                            }
                        };
                    }
                    if (t.size() == 8) {
                        return new Numbers() {
                            public double d(int i) {
                                return b.getDouble(i << 3);
                            }

                            public long l(int i) {
                                throw new IllegalStateException();
                            }
                        };
                    }
                    return new Numbers() {
                        public double d(int i) {
                            return Float16.toFloat(b.getShort(i << 1));
                        }

                        public long l(int i) {
                            throw new IllegalStateException();
                        }
                    };
                default: {
                    boolean unsigned = t.kind() == dev.zarrj.api.datatype.ElementKind.UINT;
                    int size = t.size();
                    return new Numbers() {
                        public double d(int i) {
                            return l(i);
                        }

                        public long l(int i) {
                            switch (size) {
                                case 1:
                                    return unsigned ? b.get(i) & 0xffL : b.get(i);
                                case 2:
                                    return unsigned ? b.getShort(i << 1) & 0xffffL : b.getShort(i << 1);
                                case 4:
                                    return unsigned ? b.getInt(i << 2) & 0xffffffffL : b.getInt(i << 2);
                                default:
                                    return b.getLong(i << 3);
                            }
                        }
                    };
                }
            }
        }
    }

    private List<InternalRow> compute() throws IOException {
        int rank = spec.shape().length;
        int[] groupDims = plan.groupDims();
        // The groups this partition can reach: per grouped dimension, the span of its chunks' kept parts.
        long[] lo = new long[rank];
        long[] hi = new long[rank];
        java.util.Arrays.fill(lo, Long.MAX_VALUE);
        java.util.Arrays.fill(hi, Long.MIN_VALUE);
        long[] gridShape = new long[rank];
        for (int d = 0; d < rank; d++) {
            gridShape[d] = spec.shape()[d] == 0 ? 0 : (spec.shape()[d] + spec.grid()[d] - 1) / spec.grid()[d];
        }
        for (long linear : run.chunks()) {
            long rest = linear;
            for (int d = rank - 1; d >= 0; d--) {
                long c = rest % gridShape[d];
                rest /= gridShape[d];
                long from = c * spec.grid()[d];
                long[] kept = spec.selection()[d].boundsWithin(from, Math.min(from + spec.grid()[d], spec.shape()[d]));
                if (kept != null) {
                    lo[d] = Math.min(lo[d], kept[0]);
                    hi[d] = Math.max(hi[d], kept[1]);
                }
            }
        }
        long[] stride = new long[rank];   // local group stride per dimension, 0 when not grouped
        long groups = 1;
        for (int k = groupDims.length - 1; k >= 0; k--) {
            int d = groupDims[k];
            if (hi[d] <= lo[d]) {
                return List.of();
            }
            stride[d] = groups;
            groups *= hi[d] - lo[d];
        }
        int g = (int) groups;
        List<AggregatePlan.Agg> aggs = plan.aggs();
        long[] count = new long[g];
        double[][] dacc = new double[aggs.size()][];
        long[][] lacc = new long[aggs.size()][];
        for (int a = 0; a < aggs.size(); a++) {
            if (aggs.get(a).kind() != AggregatePlan.Kind.COUNT) {
                if (aggs.get(a).floats()) {
                    dacc[a] = new double[g];
                } else {
                    lacc[a] = new long[g];
                }
            }
        }
        try (RegionReader regions = new RegionReader(spec, run)) {
            RegionReader.Region r;
            while ((r = regions.next()) != null) {
                Numbers[] values = new Numbers[r.data().length];
                for (int i = 0; i < values.length; i++) {
                    values[i] = Numbers.of(regions.arrays()[i].dataType(), r.data()[i].bytes());
                }
                fold(r, values, lo, stride, count, dacc, lacc);
            }
        }
        return rows(groupDims, lo, hi, stride, count, dacc, lacc);
    }

    /** Folds one region's rows (pushed aggregation never skips fill values) into the accumulators. */
    private void fold(RegionReader.Region r, Numbers[] values, long[] lo, long[] stride, long[] count,
                      double[][] dacc, long[][] lacc) {
        long[] shape = r.shape();
        long[] offset = r.offset();
        int rank = shape.length;
        List<AggregatePlan.Agg> aggs = plan.aggs();
        if (r.rows() != null) {
            // Only some of the box's elements are kept (an IN list, ORed ranges): one at a time.
            for (int flat : r.rows()) {
                long rest = flat;
                int group = 0;
                for (int d = rank - 1; d >= 0; d--) {
                    group += (int) ((offset[d] + rest % shape[d] - lo[d]) * stride[d]);
                    rest /= shape[d];
                }
                for (int a = 0; a < aggs.size(); a++) {
                    AggregatePlan.Agg agg = aggs.get(a);
                    if (agg.kind() != AggregatePlan.Kind.COUNT) {
                        foldRun(agg, values[agg.array()], flat, 1, group, count[group] == 0, dacc[a], lacc[a]);
                    }
                }
                count[group]++;
            }
            return;
        }
        int runLength = rank == 0 ? 1 : (int) shape[rank - 1];
        long lastStride = rank == 0 ? 0 : stride[rank - 1];
        long outer = 1;
        for (int d = 0; d < rank - 1; d++) {
            outer *= shape[d];
        }
        long[] at = new long[Math.max(0, rank - 1)];
        for (long row = 0; row < outer; row++) {
            int base = 0;
            for (int d = 0; d < rank - 1; d++) {
                base += (int) ((offset[d] + at[d] - lo[d]) * stride[d]);
            }
            int flat = (int) (row * runLength);
            if (lastStride == 0) {
                // the whole run is one group
                for (int a = 0; a < aggs.size(); a++) {
                    AggregatePlan.Agg agg = aggs.get(a);
                    if (agg.kind() != AggregatePlan.Kind.COUNT) {
                        foldRun(agg, values[agg.array()], flat, runLength, base, count[base] == 0, dacc[a], lacc[a]);
                    }
                }
                count[base] += runLength;
            } else {
                int first = base + (int) ((offset[rank - 1] - lo[rank - 1]) * lastStride);
                for (int j = 0; j < runLength; j++) {
                    int group = first + (int) (j * lastStride);
                    for (int a = 0; a < aggs.size(); a++) {
                        AggregatePlan.Agg agg = aggs.get(a);
                        if (agg.kind() != AggregatePlan.Kind.COUNT) {
                            foldRun(agg, values[agg.array()], flat + j, 1, group, count[group] == 0, dacc[a], lacc[a]);
                        }
                    }
                    count[group]++;
                }
            }
            for (int d = rank - 2; d >= 0; d--) {
                if (++at[d] < shape[d]) {
                    break;
                }
                at[d] = 0;
            }
        }
    }

    /** Folds elements {@code [from, from + n)} into group {@code group} of one aggregate. */
    private void foldRun(AggregatePlan.Agg agg, Numbers v, int from, int n, int group, boolean first,
                         double[] dacc, long[] lacc) {
        switch (agg.kind()) {
            case SUM:
                if (agg.floats()) {
                    double s = 0;
                    for (int i = from; i < from + n; i++) {
                        s += v.d(i);
                    }
                    dacc[group] += s;
                } else {
                    long s = lacc[group];
                    for (int i = from; i < from + n; i++) {
                        s = plan.ansi() ? Math.addExact(s, v.l(i)) : s + v.l(i);
                    }
                    lacc[group] = s;
                }
                return;
            case MIN:
                if (agg.floats()) {
                    double m = first ? Double.NaN : dacc[group];
                    boolean any = !first;
                    for (int i = from; i < from + n; i++) {
                        double x = v.d(i);
                        // Spark orders NaN above every number: it is the minimum only of NaNs.
                        m = !any ? x : Double.isNaN(m) ? x : Double.isNaN(x) ? m : Math.min(m, x);
                        any = true;
                    }
                    dacc[group] = m;
                } else {
                    long m = first ? Long.MAX_VALUE : lacc[group];
                    for (int i = from; i < from + n; i++) {
                        m = Math.min(m, v.l(i));
                    }
                    lacc[group] = m;
                }
                return;
            case MAX:
                if (agg.floats()) {
                    double m = first ? Double.NEGATIVE_INFINITY : dacc[group];
                    for (int i = from; i < from + n; i++) {
                        double x = v.d(i);
                        m = Double.isNaN(m) || Double.isNaN(x) ? Double.NaN : Math.max(m, x);
                    }
                    dacc[group] = m;
                } else {
                    long m = first ? Long.MIN_VALUE : lacc[group];
                    for (int i = from; i < from + n; i++) {
                        m = Math.max(m, v.l(i));
                    }
                    lacc[group] = m;
                }
                return;
            default:
                throw new IllegalStateException(agg.kind().name());
        }
    }

    private List<InternalRow> rows(int[] groupDims, long[] lo, long[] hi, long[] stride, long[] count,
                                   double[][] dacc, long[][] lacc) {
        List<AggregatePlan.Agg> aggs = plan.aggs();
        List<InternalRow> out = new ArrayList<>();
        for (int group = 0; group < count.length; group++) {
            if (count[group] == 0) {
                continue;
            }
            Object[] values = new Object[groupDims.length + aggs.size()];
            for (int k = 0; k < groupDims.length; k++) {
                int d = groupDims[k];
                values[k] = lo[d] + (group / stride[d]) % (hi[d] - lo[d]);
            }
            for (int a = 0; a < aggs.size(); a++) {
                AggregatePlan.Agg agg = aggs.get(a);
                values[groupDims.length + a] = agg.kind() == AggregatePlan.Kind.COUNT ? (Object) count[group]
                        : value(agg.type(), agg.floats() ? dacc[a][group] : 0, agg.floats() ? 0 : lacc[a][group]);
            }
            out.add(new GenericInternalRow(values));
        }
        return out;
    }

    private static Object value(org.apache.spark.sql.types.DataType type, double d, long l) {
        if (type == DataTypes.DoubleType) {
            return d;
        }
        if (type == DataTypes.FloatType) {
            return (float) d;
        }
        if (type == DataTypes.LongType) {
            return l;
        }
        if (type == DataTypes.IntegerType) {
            return (int) l;
        }
        if (type == DataTypes.ShortType) {
            return (short) l;
        }
        if (type == DataTypes.ByteType) {
            return (byte) l;
        }
        throw new IllegalStateException("no aggregate result of type " + type);
    }
}
