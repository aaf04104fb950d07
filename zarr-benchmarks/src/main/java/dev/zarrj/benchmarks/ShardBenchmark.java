package dev.zarrj.benchmarks;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Sharding's cost on the read path, on the {@code memory:} store: the same float32
 * {@code [64, 256, 256]} field stored twice with 2 MiB chunks {@code [32, 128, 128]} and
 * {@code [bytes, zstd 1]}, once as plain chunks and once as the inner chunks of one shard
 * ({@code sharding_indexed}, index {@code [bytes, crc32c]} at the end).
 *
 * <ul>
 *   <li>{@code readInnerChunk} vs {@code readUnshardedChunk}: one chunk's region (2 MiB); the
 *       sharded read fetches the index and then the chunk's byte range;
 *   <li>{@code readWholeShard} vs {@code readAllUnsharded}: the whole array (16 MiB, 8 chunks).
 * </ul>
 *
 * <p>MB/s = ops/s × 2.097152 for the first pair, × 16.777216 for the second.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class ShardBenchmark {
    static final long[] SHAPE = {64, 256, 256};
    static final long[] CHUNK = {32, 128, 128};
    static final long[] CHUNK_ORIGIN = {32, 128, 128};
    static final String ZSTD_1 = CodecBenchmark.metadata("zstd-1");
    static final String SHARDING = "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[32,128,128],"
            + "\"codecs\":" + Fixtures.codecsJson(Fixtures.BYTES, ZSTD_1) + ","
            + "\"index_codecs\":" + Fixtures.codecsJson(Fixtures.BYTES, "{\"name\":\"crc32c\"}") + ","
            + "\"index_location\":\"end\"}}";

    ZarrArray sharded;
    ZarrArray unsharded;

    @Setup
    public void setup() {
        Zarr zarr = Zarr.defaults();
        Store store = zarr.openStore("memory:");
        NdArray data = Fixtures.smooth(SHAPE);
        sharded = zarr.array(DataTypes.FLOAT32, SHAPE).chunks(SHAPE).codecs(Fixtures.codecsJson(SHARDING))
                .create(store, "/sharded");
        sharded.write(data);
        unsharded = zarr.array(DataTypes.FLOAT32, SHAPE).chunks(CHUNK)
                .codecs(Fixtures.codecsJson(Fixtures.BYTES, ZSTD_1)).create(store, "/unsharded");
        unsharded.write(data);
    }

    @Benchmark
    public NdArray readInnerChunk() {
        return sharded.read(CHUNK_ORIGIN, CHUNK);
    }

    @Benchmark
    public NdArray readUnshardedChunk() {
        return unsharded.read(CHUNK_ORIGIN, CHUNK);
    }

    @Benchmark
    public NdArray readWholeShard() {
        return sharded.read();
    }

    @Benchmark
    public NdArray readAllUnsharded() {
        return unsharded.read();
    }
}
