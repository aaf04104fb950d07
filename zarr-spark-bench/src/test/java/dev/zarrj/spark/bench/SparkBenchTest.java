package dev.zarrj.spark.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The parts of the benchmark that need no Spark session: its options, its checks, its median. */
class SparkBenchTest {
    private static final long N = Scale.FULL.elements();

    @Test
    void defaultsAreIssue17sWorkload() {
        SparkBench.Settings s = SparkBench.parse(new String[] {"--dir", "d"});
        assertArrayEquals(new long[] {256, 512, 512}, s.scale().shape());
        assertArrayEquals(new long[] {64, 128, 128}, s.scale().chunks());
        assertEquals(2, s.scale().warmups());
        assertEquals(5, s.scale().rounds());
        assertEquals(Path.of("d").toAbsolutePath().resolve("spark-bench-full.json"), s.json());
        assertEquals(SparkBench.SYSTEMS, s.systems());
    }

    @Test
    void quickIsOneRoundOfASmallArray() {
        SparkBench.Settings s = SparkBench.parse(new String[] {"--quick", "--only", "plain-zarrj,spark-zarr"});
        assertEquals(0, s.scale().warmups());
        assertEquals(1, s.scale().rounds());
        assertTrue(s.scale().bytes() < 4_000_000);
        assertTrue(s.json().toString().endsWith("spark-bench-quick.json"));
        assertEquals(List.of("plain-zarrj", "spark-zarr"), s.systems());
        assertEquals(7, SparkBench.parse(new String[] {"--quick", "--rounds", "7"}).scale().rounds());
    }

    @Test
    void badArgumentsAreRefusedNamingThem() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SparkBench.parse(new String[] {"--rounds", "0"}))
                .getMessage().contains("--rounds 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SparkBench.parse(new String[] {"--only", "hive"}))
                .getMessage().contains("'hive'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SparkBench.parse(new String[] {"--dir"}))
                .getMessage().contains("--dir needs a value"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SparkBench.parse(new String[] {"--fast"}))
                .getMessage().contains("'--fast'"));
        assertNull(SparkBench.parse(new String[] {"--help"}));
    }

    @Test
    void sumsAgreeWithinSummationErrorButNotOneElementOff() {
        double sum = 17_138_533.959474392;
        Aggregates.ofSum(sum + 1e-6).check(Aggregates.ofSum(sum), N, "x");
        // One of 67 M elements read wrong by 1 (a value about 1) is caught.
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Aggregates.ofSum(sum + 1).check(Aggregates.ofSum(sum), N, "spark-zarr sum"));
        assertTrue(e.getMessage().startsWith("spark-zarr sum: sum(value) is"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> Aggregates.ofSum(Double.NaN).check(Aggregates.ofSum(sum), N, "x"));
    }

    @Test
    void everySliceMeanIsCheckedAndAMissingGroupFails() {
        double[] expected = new double[256];
        Arrays.setAll(expected, z -> Math.sin(z * 0.05));
        Aggregates.ofSliceMeans(expected.clone()).check(Aggregates.ofSliceMeans(expected), N, "x");
        double[] missing = expected.clone();
        missing[200] = Double.NaN;
        assertTrue(assertThrows(IllegalStateException.class,
                () -> Aggregates.ofSliceMeans(missing).check(Aggregates.ofSliceMeans(expected), N, "x"))
                .getMessage().contains("dim_0 = 200"));
        assertThrows(IllegalStateException.class,
                () -> Aggregates.ofSliceMeans(Arrays.copyOf(expected, 255)).check(Aggregates.ofSliceMeans(expected), N, "x"));
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, Report.median(new double[] {3, 1, 2}));
        assertEquals(2.5, Report.median(new double[] {4, 1, 3, 2}));
    }

    @Test
    void theGeneratorIsZarrBenchsField() {
        var f = BenchData.smoothField(new long[] {3, 4, 5}).bytes().asFloatBuffer();
        assertEquals((float) (Math.sin(2 * 0.05) * Math.cos(3 * 0.02) + 4 * 0.001), f.get(2 * 20 + 3 * 5 + 4));
        assertEquals((float) 0.0, f.get(0));
    }
}
