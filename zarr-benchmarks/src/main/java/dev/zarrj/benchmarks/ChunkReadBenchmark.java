package dev.zarrj.benchmarks;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
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
 * The read pipeline without a disk: a float32 array {@code [64, 256, 256]} in 2 MiB chunks
 * {@code [32, 128, 128]} (a 2 × 2 × 2 grid) on the {@code memory:} store, read through
 * {@link ZarrArray}:
 *
 * <ul>
 *   <li>{@code readChunk}: {@link ZarrArray#readChunk} of chunk {@code (1, 1, 1)};
 *   <li>{@code readOneChunkRegion}: {@link ZarrArray#read(long[], long[])} of exactly that chunk's region;
 *   <li>{@code readRegionAcross8Chunks}: a region of the same shape offset by half a chunk, so it
 *       touches all 8 chunks (8 chunks decoded, an eighth of each copied; chunks are decoded on
 *       {@code Zarr.defaults()}' executor, one thread per core);
 *   <li>{@code storeGetAndDecode}, the floor: the same chunk's {@code store.get} and
 *       {@code CodecChain.decode}, without the grid, the key encoding or the copy to the caller.
 * </ul>
 *
 * <p>Every operation returns 2 MiB of elements: MB/s = ops/s × 2.097152. readChunk / floor is the
 * pipeline's per-chunk overhead.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class ChunkReadBenchmark {
    static final long[] SHAPE = {64, 256, 256};
    static final long[] CHUNK = {32, 128, 128};
    static final long[] CHUNK_ORIGIN = {32, 128, 128};
    static final long[] ACROSS_8 = {16, 64, 64};

    /** The codec chain after {@code bytes}: none, or zstd at level 1. */
    @Param({"bytes", "zstd-1"})
    public String chain;

    ZarrArray array;
    Store store;
    StoreKey key;
    CodecChain codecs;
    ChunkSpec spec;

    @Setup
    public void setup() {
        Zarr zarr = Zarr.defaults();
        String[] metadata = switch (chain) {
            case "bytes" -> new String[] {Fixtures.BYTES};
            case "zstd-1" -> new String[] {Fixtures.BYTES, CodecBenchmark.metadata("zstd-1")};
            default -> throw new IllegalArgumentException("unknown chain parameter '" + chain + "'");
        };
        store = zarr.openStore("memory:");
        array = zarr.array(DataTypes.FLOAT32, SHAPE).chunks(CHUNK).codecs(Fixtures.codecsJson(metadata))
                .create(store, "/data");
        array.write(Fixtures.smooth(SHAPE));
        key = StoreKey.of(array.chunkKey(1, 1, 1));
        codecs = Fixtures.chain(metadata);
        spec = Fixtures.float32Spec(CHUNK);
    }

    @Benchmark
    public NdArray readChunk() {
        return array.readChunk(1, 1, 1);
    }

    @Benchmark
    public NdArray readOneChunkRegion() {
        return array.read(CHUNK_ORIGIN, CHUNK);
    }

    @Benchmark
    public NdArray readRegionAcross8Chunks() {
        return array.read(ACROSS_8, CHUNK);
    }

    @Benchmark
    public NdArray storeGetAndDecode() {
        ByteBuffer bytes = store.get(key).orElseThrow();
        return codecs.decode(bytes, spec);
    }
}
