package dev.zarrj.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The percentiles the latency rows report, on known samples (no timing is measured). */
class TimingTest {
    @Test
    void percentilesInterpolateBetweenTheNearestRanks() {
        double[] hundred = new double[100];
        for (int i = 0; i < 100; i++) {
            hundred[99 - i] = i + 1; // 100 down to 1: the samples need not come sorted
        }
        Timing.Samples s = new Timing.Samples(hundred);
        assertEquals(100, s.count());
        assertEquals(50.5, s.median(), 1e-12);
        assertEquals(50.5, s.percentile(50), 1e-12);
        assertEquals(90.1, s.percentile(90), 1e-12);
        assertEquals(99.01, s.percentile(99), 1e-12);
        assertEquals(1, s.percentile(0), 0);
        assertEquals(100, s.percentile(100), 0);
    }

    @Test
    void aSlowModeInATenthOfTheRunsShowsInP99NotInTheMedian() {
        double[] runs = new double[50];
        for (int i = 0; i < runs.length; i++) {
            runs[i] = i % 10 == 0 ? 3.2e-3 : 0.33e-3;
        }
        Timing.Samples s = new Timing.Samples(runs);
        assertEquals(0.33e-3, s.median(), 0);
        assertEquals(3.2e-3, s.percentile(99), 0);
    }

    @Test
    void oneSampleIsEveryPercentileAndNoneIsAnError() {
        Timing.Samples one = new Timing.Samples(new double[] {0.25});
        assertEquals(0.25, one.percentile(0), 0);
        assertEquals(0.25, one.percentile(99), 0);
        assertThrows(IllegalArgumentException.class, () -> new Timing.Samples(new double[0]));
        assertThrows(IllegalArgumentException.class, () -> one.percentile(101));
    }
}
