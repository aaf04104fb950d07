package dev.zarrj.benchmarks;

import dev.zarrj.api.Region;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.NdArray;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each benchmark's {@code @Setup} builds the data it claims, and each benchmark method computes
 * the right thing once: a benchmark of a wrong answer measures nothing. Runs every method once
 * per parameter value, not the benchmarks themselves.
 */
class BenchmarkSetupTest {
    private static final long[] ORIGIN = {0, 0, 0};

    @Test
    void theClassPathRegistryHasEveryProviderTheBenchmarksUse() {
        assertEquals(List.of(), PluginCheck.problems(ExtensionRegistry.discover()));
    }

    @Test
    void theFieldIsTheSmoothFunctionOfTheGlobalIndices() {
        NdArray a = Fixtures.smooth(new long[] {3, 5, 7}, new long[] {2, 3, 4});
        float[] f = a.toFloatArray();
        assertEquals(Fixtures.value(3, 5, 7), f[0]);
        assertEquals(Fixtures.value(4, 7, 10), f[f.length - 1]);
        assertEquals((float) (Math.sin(4 * 0.05) * Math.cos(7 * 0.02) + 10 * 0.001), f[f.length - 1]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"8,256,256", "32,128,128", "128,64,64"})
    void copyBenchmarksMoveTheChunkToAndFromItsPlaceInTheRegion(String chunk) {
        NdArrayCopyBenchmark b = new NdArrayCopyBenchmark();
        b.chunk = chunk;
        b.setup();
        assertEquals(2 << 20, b.chunkData.byteSize());
        assertEquals(Fixtures.value(1, 2, 3), b.chunkData.getDouble(b.chunkData.flatIndex(1, 2, 3)));

        NdArray region = b.scatterIntoRegion();
        assertTrue(region.region(Region.of(b.inRegion, b.chunkShape)).contentEquals(b.chunkData));
        // Outside the chunk's place the region keeps its own field.
        long[] corner = {0, 0, 0};
        assertEquals(Fixtures.value(0, 0, 0), region.getDouble(region.flatIndex(corner)));

        NdArray gathered = b.gatherFromRegion();
        assertTrue(gathered.contentEquals(region.region(Region.of(b.inRegion, b.chunkShape))));

        // The System.arraycopy floors move the same rows.
        region.fill(Fixtures.FLOAT32_ZERO);
        b.scatterIntoRegionArraycopy();
        assertTrue(region.region(Region.of(b.inRegion, b.chunkShape)).contentEquals(b.chunkData));
        b.chunkOut.fill(Fixtures.FLOAT32_ZERO);
        b.gatherFromRegionArraycopy();
        assertTrue(b.chunkOut.contentEquals(b.chunkData));

        assertTrue(b.contiguousNdArrayCopy().contentEquals(b.chunkData));
        ByteBuffer put = b.contiguousByteBufferPut();
        assertEquals(b.chunkData.bytes(), put.duplicate().clear());
    }

    @ParameterizedTest
    @ValueSource(strings = {"bytes", "gzip-1", "zstd-1", "zstd-3", "blosc-zstd-5-shuffle", "crc32c"})
    void codecBenchmarksRoundTripAndAgreeWithTheRawBinding(String codec) {
        if (codec.startsWith("blosc")) {
            assumeTrue(bloscLoads(), "c-blosc (libblosc1) is not installed");
        }
        CodecBenchmark b = new CodecBenchmark();
        b.codec = codec;
        b.setup();
        try {
            ByteBuffer input = b.chunk.bytes();
            assertEquals(2 << 20, input.remaining());

            // zarrj's codec alone: what it encodes now decodes to the input.
            assertEquals(input, zarrjDecode(b, b.zarrjEncode()));
            assertEquals(input, asBytes(b.zarrjDecode()));
            // The chain [bytes, codec].
            assertTrue(b.chainDecode().contentEquals(b.chunk));
            assertTrue(b.chain.decode(b.chainEncode(), b.spec).contentEquals(b.chunk));
            // The raw binding, and the same format both ways.
            assertEquals(input, b.raw.decode(b.rawEncode()));
            assertEquals(input, b.rawDecode());
            assertEquals(input, zarrjDecode(b, b.raw.encoded()));
            assertEquals(input, b.raw.decode(b.zarrjEncoded.duplicate()));
            if (codec.equals("bytes") || codec.equals("crc32c")) {
                assertEquals(b.zarrjEncoded, b.raw.encoded(), "the same bytes");
            }
        } finally {
            b.tearDown();
        }
    }

    private static ByteBuffer zarrjDecode(CodecBenchmark b, ByteBuffer encoded) {
        if (b.bytesToBytes == null) {
            return b.arrayToBytes.decode(encoded, b.spec).bytes();
        }
        return b.bytesToBytes.decode(encoded, EncodedSize.fixed(b.decodedSize));
    }

    private static ByteBuffer asBytes(Object decoded) {
        return decoded instanceof NdArray a ? a.bytes() : (ByteBuffer) decoded;
    }

    private static boolean bloscLoads() {
        try {
            org.blosc.IBloscDll.blosc_get_version_string();
            return true;
        } catch (LinkageError e) {
            return false;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bytes", "zstd-1"})
    void chunkReadBenchmarksReadTheFieldTheyWrote(String chain) {
        ChunkReadBenchmark b = new ChunkReadBenchmark();
        b.chain = chain;
        b.setup();
        assertEquals(8, b.array.storedChunks().size());
        NdArray chunk = Fixtures.smooth(ChunkReadBenchmark.CHUNK_ORIGIN, ChunkReadBenchmark.CHUNK);
        assertTrue(b.readChunk().contentEquals(chunk));
        assertTrue(b.readOneChunkRegion().contentEquals(chunk));
        assertTrue(b.storeGetAndDecode().contentEquals(chunk));
        assertTrue(b.readRegionAcross8Chunks().contentEquals(
                Fixtures.smooth(ChunkReadBenchmark.ACROSS_8, ChunkReadBenchmark.CHUNK)));
    }

    @Test
    void shardBenchmarksReadTheSameFieldShardedAndNot() {
        ShardBenchmark b = new ShardBenchmark();
        b.setup();
        assertEquals(1, b.sharded.storedChunks().size(), "one shard");
        assertEquals(8, b.unsharded.storedChunks().size());
        NdArray chunk = Fixtures.smooth(ShardBenchmark.CHUNK_ORIGIN, ShardBenchmark.CHUNK);
        assertTrue(b.readInnerChunk().contentEquals(chunk));
        assertTrue(b.readUnshardedChunk().contentEquals(chunk));
        NdArray all = Fixtures.smooth(ORIGIN, ShardBenchmark.SHAPE);
        assertTrue(b.readWholeShard().contentEquals(all));
        assertTrue(b.readAllUnsharded().contentEquals(all));
    }

    @Test
    void keyEncodingBenchmarkEncodesEachEncoding() {
        KeyEncodingBenchmark b = new KeyEncodingBenchmark();
        b.encoding = "default";
        b.setup();
        assertEquals("keys/c/0/12/6789", b.chunkKey());
        assertEquals("keys/c/1/43/6692", b.chunkKey());
        KeyEncodingBenchmark v2 = new KeyEncodingBenchmark();
        v2.encoding = "v2";
        v2.setup();
        assertEquals("keys/0.12.6789", v2.chunkKey());
    }
}
