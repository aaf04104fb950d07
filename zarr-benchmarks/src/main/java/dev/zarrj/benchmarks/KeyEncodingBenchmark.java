package dev.zarrj.benchmarks;

import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The store key of a chunk from its grid coordinates ({@link ZarrArray#chunkKey}), for a rank-3
 * array with the {@code default} ({@code c/12/345/6789}) or {@code v2} ({@code 12.345.6789}) key
 * encoding. Paid once per chunk on every read and write; here only to catch regressions.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class KeyEncodingBenchmark {
    @Param({"default", "v2"})
    public String encoding;

    ZarrArray array;
    /** Sixteen coordinates visited in turn, so no key is a constant. */
    final long[][] coords = new long[16][];
    int next;

    @Setup
    public void setup() {
        Zarr zarr = Zarr.defaults();
        String separator = encoding.equals("v2") ? "." : "/";
        array = zarr.array(DataTypes.FLOAT32, 100_000, 100_000, 100_000).chunks(10, 10, 10)
                .keyEncoding(encoding, separator).create(zarr.openStore("memory:"), "/keys");
        for (int i = 0; i < coords.length; i++) {
            coords[i] = new long[] {i, 12 + 31L * i, 6789 - 97L * i};
        }
    }

    @Benchmark
    public String chunkKey() {
        return array.chunkKey(coords[next++ & 15]);
    }
}
