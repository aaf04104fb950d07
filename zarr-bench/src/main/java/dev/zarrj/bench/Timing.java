package dev.zarrj.bench;

import java.util.Arrays;

/** Timing helpers: one run, the median of several, and latency loops with their percentiles. */
final class Timing {
    private Timing() {}

    /** Work that may throw. */
    interface Body {
        void run() throws Exception;
    }

    /** Seconds taken by one run. */
    static double time(Body body) throws Exception {
        long start = System.nanoTime();
        body.run();
        return (System.nanoTime() - start) / 1e9;
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /**
     * The seconds of each run of one operation, sorted: a few warm-up runs (not kept), then runs
     * until {@code seconds} have passed, at least {@code minReps} and at most {@code maxReps} of
     * them.
     */
    static Samples latency(Body body, int warmups, double seconds, int minReps, int maxReps) throws Exception {
        return latency(body, warmups, 0, seconds, minReps, maxReps);
    }

    /**
     * As {@link #latency(Body, int, double, int, int)}, with more warm-up runs (not kept) after
     * the first {@code warmups} while {@code warmupSeconds} last.
     */
    static Samples latency(Body body, int warmups, double warmupSeconds, double seconds, int minReps, int maxReps)
            throws Exception {
        for (int i = 0; i < warmups; i++) {
            body.run();
        }
        long warmUntil = System.nanoTime() + (long) (warmupSeconds * 1e9);
        while (System.nanoTime() < warmUntil) {
            body.run();
        }
        double[] t = new double[maxReps];
        int n = 0;
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        while (n < maxReps && (n < minReps || System.nanoTime() < deadline)) {
            t[n++] = time(body);
        }
        return new Samples(Arrays.copyOf(t, n));
    }

    /** Timed runs of one operation, in seconds, sorted; at least one. */
    static final class Samples {
        private final double[] sorted;

        Samples(double[] seconds) {
            if (seconds.length == 0) {
                throw new IllegalArgumentException("no samples");
            }
            sorted = seconds.clone();
            Arrays.sort(sorted);
        }

        int count() {
            return sorted.length;
        }

        double median() {
            return percentile(50);
        }

        /**
         * The {@code p}-th percentile, interpolated linearly between the two nearest ranks (as
         * numpy's default does): the median for 50, the largest sample for 100.
         */
        double percentile(double p) {
            if (p < 0 || p > 100) {
                throw new IllegalArgumentException("percentile " + p);
            }
            double rank = p / 100 * (sorted.length - 1);
            int below = (int) Math.floor(rank);
            int above = Math.min(below + 1, sorted.length - 1);
            return sorted[below] + (rank - below) * (sorted[above] - sorted[below]);
        }
    }
}
