package dev.zarrj.benchmarks;

import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.Region;
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
 * chunk gathered out of such a region (a write), each also done by {@link System#arraycopy} of the
 * same rows between the backing arrays (the floor for a strided copy), and, as the ceiling, the same
 * bytes copied as one contiguous run, by {@code NdArray.copy} (which merges whole trailing
 * dimensions into one run) and by a plain {@link ByteBuffer#put(int, ByteBuffer, int, int)}.
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
    long[] regionShape;
    /** The backing arrays of chunkData, region and chunkOut, for the System.arraycopy floors. */
    byte[] chunkBytes;
    byte[] regionBytes;
    byte[] chunkOutBytes;

    @Setup
    public void setup() {
        chunkShape = Fixtures.shape(chunk);
        origin = new long[chunkShape.length];
        inRegion = chunkShape.clone();
        regionShape = new long[chunkShape.length];
        for (int d = 0; d < chunkShape.length; d++) {
            regionShape[d] = 2 * chunkShape[d];
        }
        chunkData = Fixtures.smooth(chunkShape);
        region = Fixtures.smooth(regionShape);
        chunkOut = NdArray.allocate(chunkData.dataType(), chunkShape);
        contiguousSrc = chunkData.bytes();
        contiguousDst = ByteBuffer.allocate(chunkData.byteSize());
        chunkBytes = chunkData.bytes().array();
        regionBytes = region.bytes().array();
        chunkOutBytes = chunkOut.bytes().array();
    }

    /** The read path: a decoded chunk copied into its place in the caller's region. */
    @Benchmark
    public NdArray scatterIntoRegion() {
        RegionCopy.copy(chunkData, Region.of(origin, chunkShape), region, inRegion);
        return region;
    }

    /** The write path: a chunk's share of the caller's region copied out into a chunk. */
    @Benchmark
    public NdArray gatherFromRegion() {
        RegionCopy.copy(region, Region.of(inRegion, chunkShape), chunkOut, origin);
        return chunkOut;
    }

    /**
     * The floor of the scatter: the same rows moved by {@link System#arraycopy} between the backing
     * arrays, in two plain loops. What the scatter costs beyond this is {@code NdArray.copy}'s own.
     */
    @Benchmark
    public byte[] scatterIntoRegionArraycopy() {
        copyRows(chunkBytes, chunkShape, origin, regionBytes, regionShape, inRegion);
        return regionBytes;
    }

    /** The floor of the gather, as {@link #scatterIntoRegionArraycopy()}. */
    @Benchmark
    public byte[] gatherFromRegionArraycopy() {
        copyRows(regionBytes, regionShape, inRegion, chunkOutBytes, chunkShape, origin);
        return chunkOutBytes;
    }

    /** Copies a rank-3 block of {@code chunkShape} row by row (float32) between C-ordered byte arrays. */
    void copyRows(byte[] src, long[] srcShape, long[] srcAt, byte[] dst, long[] dstShape, long[] dstAt) {
        int rowBytes = (int) chunkShape[2] * 4;
        for (long z = 0; z < chunkShape[0]; z++) {
            for (long y = 0; y < chunkShape[1]; y++) {
                long s = ((srcAt[0] + z) * srcShape[1] + srcAt[1] + y) * srcShape[2] + srcAt[2];
                long d = ((dstAt[0] + z) * dstShape[1] + dstAt[1] + y) * dstShape[2] + dstAt[2];
                System.arraycopy(src, (int) s * 4, dst, (int) d * 4, rowBytes);
            }
        }
    }

    /** Whole chunk to whole chunk: {@code NdArray.copy} with every dimension merged into one run. */
    @Benchmark
    public NdArray contiguousNdArrayCopy() {
        RegionCopy.copy(chunkData, Region.of(origin, chunkShape), chunkOut, origin);
        return chunkOut;
    }

    /** The ceiling: the same bytes in one {@code ByteBuffer.put}. */
    @Benchmark
    public ByteBuffer contiguousByteBufferPut() {
        return contiguousDst.put(0, contiguousSrc, 0, contiguousSrc.capacity());
    }
}
