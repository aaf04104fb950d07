package dev.zarrj.spark.internal.chunks;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.sources.AlwaysFalse;
import org.apache.spark.sql.sources.AlwaysTrue;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;

/**
 * Pushed filters evaluated on a chunk's origin: in chunk rows a dimension column holds the
 * chunk's first element index, so a filter on dimension columns alone decides a chunk exactly.
 * What cannot be decided (another column, a literal that is not a number) keeps the chunk; Spark
 * evaluates every filter again on the rows, so pruning only needs to keep a superset.
 */
final class ChunkFilters implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Three-valued: a filter holds, fails, or cannot be told from the origin alone. */
    private enum Truth {
        TRUE, FALSE, UNKNOWN;

        Truth not() {
            return this == TRUE ? FALSE : this == FALSE ? TRUE : UNKNOWN;
        }
    }

    private final List<String> dimensions;
    private final List<Filter> filters;

    ChunkFilters(List<String> dimensions, List<Filter> filters) {
        this.dimensions = List.copyOf(dimensions);
        this.filters = List.copyOf(filters);
    }

    /** Whether a filter refers to dimension columns only, and so can prune chunks. */
    static boolean prunes(List<String> dimensions, Filter f) {
        if (f.references().length == 0) {
            return false;
        }
        for (String r : f.references()) {
            if (dimension(dimensions, r) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Per dimension, the chunk indices {@code [0, gridShape[d])} that the filters on that
     * dimension alone keep (a chunk's origin along {@code d} is {@code index * chunkShape[d]}).
     */
    long[][] candidates(long[] gridShape, long[] chunkShape) {
        int rank = gridShape.length;
        List<List<Filter>> perDimension = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            perDimension.add(new ArrayList<>());
        }
        for (Filter f : conjuncts()) {
            int only = -1;
            for (String r : f.references()) {
                int d = dimension(dimensions, r);
                if (d < 0 || (only >= 0 && d != only)) {
                    only = -2;
                    break;
                }
                only = d;
            }
            if (only >= 0) {
                perDimension.get(only).add(f);
            }
        }
        long[][] out = new long[rank][];
        long[] origin = new long[rank];
        for (int d = 0; d < rank; d++) {
            long[] keep = new long[(int) Math.min(Integer.MAX_VALUE - 8, gridShape[d])];
            int n = 0;
            for (long c = 0; c < gridShape[d]; c++) {
                origin[d] = c * chunkShape[d];
                boolean kept = true;
                for (Filter f : perDimension.get(d)) {
                    if (eval(f, origin) == Truth.FALSE) {
                        kept = false;
                        break;
                    }
                }
                if (kept) {
                    keep[n++] = c;
                }
            }
            out[d] = Arrays.copyOf(keep, n);
        }
        return out;
    }

    /** Whether a chunk with this origin may hold rows the filters keep. */
    boolean keeps(long[] origin) {
        for (Filter f : filters) {
            if (eval(f, origin) == Truth.FALSE) {
                return false;
            }
        }
        return true;
    }

    private List<Filter> conjuncts() {
        List<Filter> out = new ArrayList<>();
        for (Filter f : filters) {
            split(f, out);
        }
        return out;
    }

    private static void split(Filter f, List<Filter> out) {
        if (f instanceof And a) {
            split(a.left(), out);
            split(a.right(), out);
        } else {
            out.add(f);
        }
    }

    private Truth eval(Filter f, long[] origin) {
        if (f instanceof And a) {
            Truth l = eval(a.left(), origin);
            Truth r = eval(a.right(), origin);
            return l == Truth.FALSE || r == Truth.FALSE ? Truth.FALSE
                    : l == Truth.TRUE && r == Truth.TRUE ? Truth.TRUE : Truth.UNKNOWN;
        }
        if (f instanceof Or o) {
            Truth l = eval(o.left(), origin);
            Truth r = eval(o.right(), origin);
            return l == Truth.TRUE || r == Truth.TRUE ? Truth.TRUE
                    : l == Truth.FALSE && r == Truth.FALSE ? Truth.FALSE : Truth.UNKNOWN;
        }
        if (f instanceof Not n) {
            return eval(n.child(), origin).not();
        }
        if (f instanceof AlwaysTrue) {
            return Truth.TRUE;
        }
        if (f instanceof AlwaysFalse) {
            return Truth.FALSE;
        }
        if (f instanceof IsNull n) {
            return dimension(dimensions, n.attribute()) >= 0 ? Truth.FALSE : Truth.UNKNOWN;
        }
        if (f instanceof IsNotNull n) {
            return dimension(dimensions, n.attribute()) >= 0 ? Truth.TRUE : Truth.UNKNOWN;
        }
        if (f instanceof EqualTo e) {
            return compare(e.attribute(), e.value(), origin, c -> c == 0);
        }
        if (f instanceof EqualNullSafe e) {
            return e.value() == null && dimension(dimensions, e.attribute()) >= 0 ? Truth.FALSE
                    : compare(e.attribute(), e.value(), origin, c -> c == 0);
        }
        if (f instanceof GreaterThan g) {
            return compare(g.attribute(), g.value(), origin, c -> c > 0);
        }
        if (f instanceof GreaterThanOrEqual g) {
            return compare(g.attribute(), g.value(), origin, c -> c >= 0);
        }
        if (f instanceof LessThan l) {
            return compare(l.attribute(), l.value(), origin, c -> c < 0);
        }
        if (f instanceof LessThanOrEqual l) {
            return compare(l.attribute(), l.value(), origin, c -> c <= 0);
        }
        if (f instanceof In in) {
            Truth out = Truth.FALSE;
            for (Object v : in.values()) {
                Truth t = compare(in.attribute(), v, origin, c -> c == 0);
                if (t == Truth.TRUE) {
                    return Truth.TRUE;
                }
                if (t == Truth.UNKNOWN) {
                    out = Truth.UNKNOWN;
                }
            }
            return out;
        }
        return Truth.UNKNOWN;
    }

    private interface Test {
        boolean holds(int comparison);
    }

    /** {@code origin[d] <op> value} for the dimension an attribute names. */
    private Truth compare(String attribute, Object value, long[] origin, Test test) {
        int d = dimension(dimensions, attribute);
        BigDecimal v = number(value);
        if (d < 0 || v == null) {
            return Truth.UNKNOWN;
        }
        return test.holds(BigDecimal.valueOf(origin[d]).compareTo(v)) ? Truth.TRUE : Truth.FALSE;
    }

    /** The dimension an attribute names; Spark quotes a name that is not a plain identifier ({@code `lat.deg`}). */
    private static int dimension(List<String> dimensions, String attribute) {
        String name = attribute;
        if (name.length() >= 2 && name.startsWith("`") && name.endsWith("`")) {
            name = name.substring(1, name.length() - 1).replace("``", "`");
        }
        for (int d = 0; d < dimensions.size(); d++) {
            if (dimensions.get(d).equalsIgnoreCase(name) || dimensions.get(d).equalsIgnoreCase(attribute)) {
                return d;
            }
        }
        return -1;
    }

    private static BigDecimal number(Object v) {
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof BigDecimal b) {
            return b;
        }
        if (v instanceof java.math.BigInteger b) {
            return new BigDecimal(b);
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
        }
        return null;
    }
}
