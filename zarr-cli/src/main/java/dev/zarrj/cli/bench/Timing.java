package dev.zarrj.cli.bench;

import java.util.Arrays;

/** Timing helpers: one run, the median of several, and latency loops. */
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
     * The median seconds of one operation: a few warm-up runs, then runs until {@code seconds}
     * have passed, at least {@code minReps} and at most {@code maxReps} of them.
     */
    static double latency(Body body, int warmups, double seconds, int minReps, int maxReps) throws Exception {
        for (int i = 0; i < warmups; i++) {
            body.run();
        }
        double[] t = new double[maxReps];
        int n = 0;
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        while (n < maxReps && (n < minReps || System.nanoTime() < deadline)) {
            t[n++] = time(body);
        }
        return median(Arrays.copyOf(t, n));
    }
}
