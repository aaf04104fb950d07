package dev.zarrj.spark.internal.read;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A set of indices along one dimension, {@code [0, extent)} at most: sorted, disjoint half-open
 * intervals. What the pushed filters leave of a dimension.
 */
final class IndexSet implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Interval bounds: {@code [starts[i], ends[i])}, sorted and disjoint, none empty. */
    private final long[] starts;
    private final long[] ends;

    private IndexSet(long[] starts, long[] ends) {
        this.starts = starts;
        this.ends = ends;
    }

    static IndexSet all(long extent) {
        return range(0, extent);
    }

    static IndexSet empty() {
        return new IndexSet(new long[0], new long[0]);
    }

    /** {@code [from, to)}, empty when {@code to <= from}. */
    static IndexSet range(long from, long to) {
        return to <= from ? empty() : new IndexSet(new long[] {from}, new long[] {to});
    }

    /** The given indices (any order, repeats allowed). */
    static IndexSet of(long... indices) {
        long[] s = indices.clone();
        Arrays.sort(s);
        List<long[]> out = new ArrayList<>();
        for (long i : s) {
            if (!out.isEmpty() && out.get(out.size() - 1)[1] >= i) {
                out.get(out.size() - 1)[1] = Math.max(out.get(out.size() - 1)[1], i + 1);
            } else {
                out.add(new long[] {i, i + 1});
            }
        }
        return from(out);
    }

    private static IndexSet from(List<long[]> intervals) {
        long[] st = new long[intervals.size()];
        long[] en = new long[intervals.size()];
        for (int i = 0; i < st.length; i++) {
            st[i] = intervals.get(i)[0];
            en[i] = intervals.get(i)[1];
        }
        return new IndexSet(st, en);
    }

    boolean isEmpty() {
        return starts.length == 0;
    }

    IndexSet intersect(IndexSet o) {
        List<long[]> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < starts.length && j < o.starts.length) {
            long lo = Math.max(starts[i], o.starts[j]);
            long hi = Math.min(ends[i], o.ends[j]);
            if (lo < hi) {
                out.add(new long[] {lo, hi});
            }
            if (ends[i] < o.ends[j]) {
                i++;
            } else {
                j++;
            }
        }
        return from(out);
    }

    IndexSet union(IndexSet o) {
        List<long[]> all = new ArrayList<>();
        for (int i = 0; i < starts.length; i++) {
            all.add(new long[] {starts[i], ends[i]});
        }
        for (int i = 0; i < o.starts.length; i++) {
            all.add(new long[] {o.starts[i], o.ends[i]});
        }
        all.sort((a, b) -> Long.compare(a[0], b[0]));
        List<long[]> out = new ArrayList<>();
        for (long[] iv : all) {
            if (!out.isEmpty() && out.get(out.size() - 1)[1] >= iv[0]) {
                out.get(out.size() - 1)[1] = Math.max(out.get(out.size() - 1)[1], iv[1]);
            } else {
                out.add(iv.clone());
            }
        }
        return from(out);
    }

    /** Whether the set holds index {@code i}. */
    boolean contains(long i) {
        int lo = 0;
        int hi = starts.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (i < starts[mid]) {
                hi = mid - 1;
            } else if (i >= ends[mid]) {
                lo = mid + 1;
            } else {
                return true;
            }
        }
        return false;
    }

    /** How many indices of {@code [from, to)} the set holds. */
    long countWithin(long from, long to) {
        return intersect(range(from, to)).count();
    }

    /** How many indices. */
    long count() {
        long n = 0;
        for (int i = 0; i < starts.length; i++) {
            n += ends[i] - starts[i];
        }
        return n;
    }

    /**
     * The smallest interval holding every index of this set inside {@code [from, to)}, as
     * {@code {lo, hi}}; null when there is none.
     */
    long[] boundsWithin(long from, long to) {
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int i = 0; i < starts.length; i++) {
            long a = Math.max(starts[i], from);
            long b = Math.min(ends[i], to);
            if (a < b) {
                lo = Math.min(lo, a);
                hi = Math.max(hi, b);
            }
        }
        return lo < hi ? new long[] {lo, hi} : null;
    }

    /** The chunks (of this size along the dimension) that hold at least one index, ascending. */
    long[] chunks(long chunkSize) {
        List<Long> out = new ArrayList<>();
        long last = -1;
        for (int i = 0; i < starts.length; i++) {
            for (long c = Math.max(starts[i] / chunkSize, last + 1); c <= (ends[i] - 1) / chunkSize; c++) {
                out.add(c);
                last = c;
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < starts.length; i++) {
            b.append(i == 0 ? "" : ", ").append('[').append(starts[i]).append(", ").append(ends[i]).append(')');
        }
        return b.append('}').toString();
    }
}
