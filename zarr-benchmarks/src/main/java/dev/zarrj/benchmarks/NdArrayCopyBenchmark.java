package dev.zarrj.benchmarks;

import dev.zarrj.api.NdArray;
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
 * {@link NdArray#copy}, the last step of every read and the first of every write: one 2 MiB
 * float32 chunk scattered into a region eight times its size (a read that spans chunks), the same
 * chunk gathered out of such a region (a write), and, as the ceiling, the same bytes copied as one
 * contiguous run, by {@code NdArray.copy} (which merges whole trailing dimensions into one run) and
 * by a plain {@link ByteBuffer#put(int, ByteBuffer, int, int)}.
 *
 * <p>Every operation moves one chunk: MB/s = ops/s × the chunk's bytes (2,097,152 for every
 * {@code chunk} parameter). The chunk shape sets the length of the contiguous runs in the scatter
 * and gather: its last dimension × 4 bytes (1 KiB, 512 B, 256 B).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class NdArrayCopyBenchmark {
    /** The chunk shape; each is 2 MiB of float32. */
    @Param({"8,256,256", "32,128,128", "128,64,64"})
    public String chunk;

    long[] chunkShape;
    long[] origin;
    /** Where the chunk sits in the region: one chunk in along every dimension. */
    long[] inRegion;
    NdArray chunkData;
    /** A region of twice the chunk's extent along every dimension: eight chunks. */
    NdArray region;
    NdArray chunkOut;
    ByteBuffer contiguousSrc;
    ByteBuffer contiguousDst;

    @Setup
    public void setup() {
        chunkShape = Fixtures.shape(chunk);
        origin = new long[chunkShape.length];
        inRegion = chunkShape.clone();
        long[] regionShape = new long[chunkShape.length];
        for (int d = 0; d < chunkShape.length; d++) {
            regionShape[d] = 2 * chunkShape[d];
        }
        chunkData = Fixtures.smooth(chunkShape);
        region = Fixtures.smooth(regionShape);
        chunkOut = NdArray.allocate(chunkData.dataType(), chunkShape);
        contiguousSrc = chunkData.bytes();
        contiguousDst = ByteBuffer.allocate(chunkData.byteSize());
    }

    /** The read path: a decoded chunk copied into its place in the caller's region. */
    @Benchmark
    public NdArray scatterIntoRegion() {
        NdArray.copy(chunkData, origin, region, inRegion, chunkShape);
        return region;
    }

    /** The write path: a chunk's share of the caller's region copied out into a chunk. */
    @Benchmark
    public NdArray gatherFromRegion() {
        NdArray.copy(region, inRegion, chunkOut, origin, chunkShape);
        return chunkOut;
    }

    /** Whole chunk to whole chunk: {@code NdArray.copy} with every dimension merged into one run. */
    @Benchmark
    public NdArray contiguousNdArrayCopy() {
        NdArray.copy(chunkData, origin, chunkOut, origin, chunkShape);
        return chunkOut;
    }

    /** The ceiling: the same bytes in one {@code ByteBuffer.put}. */
    @Benchmark
    public ByteBuffer contiguousByteBufferPut() {
        return contiguousDst.put(0, contiguousSrc, 0, contiguousSrc.capacity());
    }
}
