package dev.zarrj.spark.bench;

import java.util.Locale;

/**
 * What one system computed: the sum of all values, or the mean of each {@code dim_0} slice (one
 * of the two, as the query asked). Sums are in double, as Spark's {@code sum} of a float column is;
 * the order of the additions differs between systems, hence the tolerance of {@link #check}.
 */
record Aggregates(Double sum, double[] sliceMeans) {
    /** Relative to the element count: a sum of n values of magnitude about 1 agrees within n * 1e-9. */
    private static final double SUM_TOLERANCE = 1e-9;
    /** A slice mean is about 1 in magnitude; every system computes it from the same float values. */
    private static final double MEAN_TOLERANCE = 1e-9;

    static Aggregates ofSum(double sum) {
        return new Aggregates(sum, null);
    }

    static Aggregates ofSliceMeans(double[] means) {
        return new Aggregates(null, means);
    }

    /**
     * Checks that these results agree with the expected ones (the plain zarrj read's, same kind),
     * for an array of {@code elements} values.
     *
     * @throws IllegalStateException naming the system, the value and the reference value when not
     */
    void check(Aggregates reference, long elements, String system) {
        if (sum != null) {
            double tolerance = SUM_TOLERANCE * Math.max(elements, Math.abs(reference.sum));
            if (!(Math.abs(sum - reference.sum) <= tolerance)) {
                throw new IllegalStateException(String.format(Locale.ROOT,
                        "%s: sum(value) is %.17g, expected %.17g (difference %.3g, tolerance %.3g)",
                        system, sum, reference.sum, sum - reference.sum, tolerance));
            }
            return;
        }
        if (sliceMeans.length != reference.sliceMeans.length) {
            throw new IllegalStateException(system + ": avg(value) by dim_0 gave " + sliceMeans.length
                    + " groups, expected " + reference.sliceMeans.length);
        }
        for (int z = 0; z < sliceMeans.length; z++) {
            double tolerance = MEAN_TOLERANCE * Math.max(1, Math.abs(reference.sliceMeans[z]));
            if (!(Math.abs(sliceMeans[z] - reference.sliceMeans[z]) <= tolerance)) {
                throw new IllegalStateException(String.format(Locale.ROOT,
                        "%s: avg(value) of dim_0 = %d is %.17g, expected %.17g", system, z,
                        sliceMeans[z], reference.sliceMeans[z]));
            }
        }
    }
}
