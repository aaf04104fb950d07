package dev.zarrj.spark.internal.read;

import java.math.BigDecimal;
import java.util.List;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Or;

/**
 * Turns Spark's pushed filters into the indices each dimension keeps: equality, ranges and
 * {@code IN} on dimension columns, and {@code AND}/{@code OR} of them. A filter that says
 * exactly which indices it keeps ({@link #exact}) is applied by the scan to every row and not
 * again by Spark (so that Spark can push aggregations below it); any other filter keeps a
 * superset of its indices for pruning (or everything) and Spark evaluates it on the rows read.
 */
final class DimensionFilters {
    private final List<String> dimensions;
    private final long[] shape;

    DimensionFilters(List<String> dimensions, long[] shape) {
        this.dimensions = dimensions;
        this.shape = shape;
    }

    /** Whether the filter constrains dimension columns only (and so can prune). */
    boolean prunes(Filter f) {
        return constraint(f) != null;
    }

    /**
     * Whether the filter keeps exactly the product of its {@link #apply} sets: comparisons,
     * {@code IN} and {@code IS NOT NULL} on one dimension, {@code AND} of such filters, and
     * {@code OR} of such filters on one dimension. The scan then applies it on its own.
     */
    boolean exact(Filter f) {
        if (f instanceof And a) {
            return exact(a.left()) && exact(a.right());
        }
        if (f instanceof Or o) {
            return exact(o.left()) && exact(o.right()) && constraint(f) != null;
        }
        return constraint(f) != null;
    }

    /** The indices of every dimension that the conjunction of {@code filters} may keep. */
    IndexSet[] apply(List<Filter> filters) {
        IndexSet[] sets = new IndexSet[shape.length];
        for (int d = 0; d < shape.length; d++) {
            sets[d] = IndexSet.all(shape[d]);
        }
        for (Filter f : filters) {
            IndexSet[] c = constraint(f);
            if (c != null) {
                for (int d = 0; d < shape.length; d++) {
                    sets[d] = sets[d].intersect(c[d]);
                }
            }
        }
        return sets;
    }

    /** Per dimension what the filter keeps, or null when it says nothing about dimensions alone. */
    private IndexSet[] constraint(Filter f) {
        if (f instanceof And a) {
            IndexSet[] l = constraint(a.left());
            IndexSet[] r = constraint(a.right());
            if (l == null) {
                return r;
            }
            if (r == null) {
                return l;
            }
            IndexSet[] out = new IndexSet[shape.length];
            for (int d = 0; d < shape.length; d++) {
                out[d] = l[d].intersect(r[d]);
            }
            return out;
        }
        if (f instanceof Or o) {
            IndexSet[] l = constraint(o.left());
            IndexSet[] r = constraint(o.right());
            if (l == null || r == null) {
                return null;
            }
            // A union is a product only when both sides constrain the same single dimension (or nothing).
            int dl = onlyDimension(l);
            int dr = onlyDimension(r);
            if (dl == -2 || dr == -2) {
                return null;
            }
            if (dl == -1 || dr == -1) {
                return everything();
            }
            if (dl != dr) {
                return null;
            }
            IndexSet[] out = everything();
            out[dl] = l[dl].union(r[dr]);
            return out;
        }
        if (f instanceof IsNotNull n) {
            return dimension(n.attribute()) >= 0 ? everything() : null;
        }
        String attribute;
        IndexSet keep;
        if (f instanceof EqualTo e) {
            attribute = e.attribute();
            keep = point(e.value());
        } else if (f instanceof EqualNullSafe e) {
            attribute = e.attribute();
            keep = e.value() == null ? IndexSet.empty() : point(e.value());
        } else if (f instanceof In in) {
            attribute = in.attribute();
            keep = IndexSet.empty();
            for (Object v : in.values()) {
                if (v == null) {
                    continue; // a NULL in the list matches no row (the row's test is null, not true)
                }
                IndexSet p = point(v);
                keep = p == null || keep == null ? null : keep.union(p);
            }
        } else if (f instanceof GreaterThan g) {
            attribute = g.attribute();
            keep = bound(g.value(), true, false);
        } else if (f instanceof GreaterThanOrEqual g) {
            attribute = g.attribute();
            keep = bound(g.value(), true, true);
        } else if (f instanceof LessThan l) {
            attribute = l.attribute();
            keep = bound(l.value(), false, false);
        } else if (f instanceof LessThanOrEqual l) {
            attribute = l.attribute();
            keep = bound(l.value(), false, true);
        } else {
            return null;
        }
        int d = dimension(attribute);
        if (d < 0 || keep == null) {
            return null;
        }
        IndexSet[] out = everything();
        out[d] = keep.intersect(IndexSet.all(shape[d]));
        return out;
    }

    /** The one dimension constrained (-1: none, -2: several). */
    private int onlyDimension(IndexSet[] sets) {
        int found = -1;
        for (int d = 0; d < shape.length; d++) {
            if (sets[d].count() != shape[d]) {
                if (found >= 0) {
                    return -2;
                }
                found = d;
            }
        }
        return found;
    }

    private IndexSet[] everything() {
        IndexSet[] out = new IndexSet[shape.length];
        for (int d = 0; d < shape.length; d++) {
            out[d] = IndexSet.all(shape[d]);
        }
        return out;
    }

    private int dimension(String attribute) {
        return dimension(dimensions, attribute);
    }

    /**
     * The dimension a pushed filter's attribute names, or -1. Spark quotes a name that is not a
     * plain identifier ({@code lat.deg} arrives as {@code `lat.deg`}, a backtick doubled).
     */
    static int dimension(List<String> dimensions, String attribute) {
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

    /** The index equal to a literal: none when it is not a whole number; null when not a number. */
    private static IndexSet point(Object v) {
        BigDecimal b = number(v);
        if (b == null) {
            return null;
        }
        if (b.stripTrailingZeros().scale() > 0 || b.signum() < 0 || b.compareTo(BigDecimal.valueOf(Long.MAX_VALUE - 1)) > 0) {
            return IndexSet.empty();
        }
        long i = b.longValueExact();
        return IndexSet.range(i, i + 1);
    }

    /** The indices above (or below) a literal. */
    private static IndexSet bound(Object v, boolean above, boolean inclusive) {
        BigDecimal b = number(v);
        if (b == null) {
            return null;
        }
        BigDecimal max = BigDecimal.valueOf(Long.MAX_VALUE - 1);
        if (above) {
            // the smallest index kept
            BigDecimal lo = b.setScale(0, java.math.RoundingMode.CEILING);
            if (!inclusive && lo.compareTo(b) == 0) {
                lo = lo.add(BigDecimal.ONE);
            }
            if (lo.compareTo(max) > 0) {
                return IndexSet.empty();
            }
            return IndexSet.range(Math.max(0, lo.max(BigDecimal.ZERO).longValueExact()), Long.MAX_VALUE);
        }
        // the largest index kept
        BigDecimal hi = b.setScale(0, java.math.RoundingMode.FLOOR);
        if (!inclusive && hi.compareTo(b) == 0) {
            hi = hi.subtract(BigDecimal.ONE);
        }
        if (hi.signum() < 0) {
            return IndexSet.empty();
        }
        return IndexSet.range(0, hi.min(max).longValueExact() + 1);
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
