package dev.zarrj.codec.zstd.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.codec.zstd.ZstdConfiguration;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regions of zstd chunks, which a read decodes only up to the region's last element when the
 * frames carry no checksum ({@link ZstdCodec#decodePrefixInto}): every region reads the values
 * written, at the chunk's start, end and edges alike; a truncated frame that the region's prefix
 * runs into is refused; with checksums, prefixes are not used and damage anywhere is caught.
 */
class ZstdPrefixReadTest {
    private static String codecs(boolean checksum) {
        return "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"zstd\","
                + "\"configuration\":{\"level\":1,\"checksum\":" + checksum + "}}]";
    }

    @ParameterizedTest(name = "checksum {0}")
    @ValueSource(booleans = {false, true})
    void everyRegionReadsTheValuesWritten(boolean checksum, @TempDir Path dir) {
        long[] shape = {8, 96, 96};
        int[] v = new int[8 * 96 * 96];
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < v.length; i++) {
            v[i] = i % 7 == 0 ? i / 5 : r.nextInt(); // compresses little: the stored bytes go to pooled direct memory
        }
        NdArray all = NdArray.copyOf(DataTypes.INT32, v, shape);
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            ZarrArray a = zarr.array(DataTypes.INT32, shape).chunks(8, 64, 64).codecs(codecs(checksum)).fillValue(0)
                    .create(zarr.openStore(dir.toString()), "/a");
            a.write(new long[3], all);
            for (int i = 0; i < 300; i++) {
                long[] offset = new long[3];
                long[] extent = new long[3];
                for (int d = 0; d < 3; d++) {
                    offset[d] = r.nextLong(shape[d]);
                    extent[d] = 1 + r.nextLong(shape[d] - offset[d]);
                }
                Region region = Region.of(offset, extent);
                assertArrayEquals(all.region(region).toIntArray(), a.read(offset, extent).toIntArray(),
                        region.toString());
            }
        }
    }

    /** The first plane of a chunk whose stored frame was cut in its first half: refused, naming the key. */
    @ParameterizedTest(name = "checksum {0}")
    @ValueSource(booleans = {false, true})
    void aFrameCutShortOfThePrefixIsRefused(boolean checksum, @TempDir Path dir) {
        long[] shape = {8, 64, 64};
        int[] v = new int[8 * 64 * 64];
        for (int i = 0; i < v.length; i++) {
            v[i] = (int) (i * 2654435761L);
        }
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            var store = zarr.openStore(dir.toString());
            ZarrArray a = zarr.array(DataTypes.INT32, shape).chunks(shape).codecs(codecs(checksum)).fillValue(0)
                    .create(store, "/a");
            a.write(new long[3], NdArray.copyOf(DataTypes.INT32, v, shape));
            ByteBuffer stored = store.get(StoreKey.of("a/c/0/0/0")).orElseThrow();
            store.set(StoreKey.of("a/c/0/0/0"), stored.slice(0, stored.remaining() / 4));
            ChunkDecodeException e = assertThrows(ChunkDecodeException.class,
                    () -> a.read(new long[] {0, 0, 0}, new long[] {4, 64, 64}));
            assertTrue(e.getMessage().contains("a/c/0/0/0"), e.getMessage());
        }
    }

    /** The codec itself: heap buffers and checksummed frames are left to a whole decode. */
    @ParameterizedTest(name = "checksum {0}")
    @ValueSource(booleans = {false, true})
    void prefixesOnlyFromDirectUnchecksummedFrames(boolean checksum) {
        ZstdCodec c = new ZstdCodec(new ZstdConfiguration(1, checksum));
        byte[] plain = new byte[100_000];
        for (int i = 0; i < plain.length; i++) {
            plain[i] = (byte) (i / 3);
        }
        ByteBuffer encoded = c.encode(ByteBuffer.wrap(plain));
        ByteBuffer direct = ByteBuffer.allocateDirect(encoded.remaining()).put(encoded.duplicate()).flip();
        assertFalse(c.decodePrefixInto(encoded, ByteBuffer.allocateDirect(10), plain.length), "heap input");
        assertFalse(c.decodePrefixInto(direct, ByteBuffer.allocate(10), plain.length), "heap destination");
        ByteBuffer out = ByteBuffer.allocateDirect(40_000);
        boolean used = c.decodePrefixInto(direct, out, plain.length);
        assertTrue(used != checksum, "used for frames without a checksum only");
        if (used) {
            byte[] got = new byte[40_000];
            out.get(0, got);
            assertArrayEquals(java.util.Arrays.copyOf(plain, 40_000), got);
            ByteBuffer cut = direct.slice(0, direct.remaining() / 10);
            assertThrows(CorruptDataException.class, () -> c.decodePrefixInto(cut, ByteBuffer.allocateDirect(90_000),
                    plain.length));
        }
    }

    private static ByteBuffer direct(ByteBuffer b) {
        return ByteBuffer.allocateDirect(b.remaining()).put(b.duplicate()).flip();
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i % 11 == 0 ? r.nextInt() : i / 7);
        }
        return b;
    }

    /** Two frames: the first decoded whole, the second streamed up to the prefix's end. */
    @org.junit.jupiter.api.Test
    void aPrefixThatEndsInTheSecondFrame() {
        ZstdCodec c = new ZstdCodec(new ZstdConfiguration(1, false));
        byte[] one = bytes(70_000, 1);
        byte[] two = bytes(90_000, 2);
        ByteBuffer a = c.encode(ByteBuffer.wrap(one));
        ByteBuffer b = c.encode(ByteBuffer.wrap(two));
        ByteBuffer both = ByteBuffer.allocateDirect(a.remaining() + b.remaining()).put(a.duplicate()).put(b.duplicate())
                .flip();
        for (int prefix : new int[] {69_999, 70_000, 70_001, 123_456, 160_000}) {
            ByteBuffer out = ByteBuffer.allocateDirect(prefix + 8);
            ByteBuffer window = out.duplicate().position(8).limit(8 + prefix);
            assertTrue(c.decodePrefixInto(both, window, 160_000), "prefix " + prefix);
            byte[] got = new byte[prefix];
            out.get(8, got);
            byte[] expected = new byte[prefix];
            System.arraycopy(one, 0, expected, 0, Math.min(prefix, one.length));
            if (prefix > one.length) {
                System.arraycopy(two, 0, expected, one.length, prefix - one.length);
            }
            assertArrayEquals(expected, got, "prefix " + prefix);
        }
    }

    /** A frame whose header declares more than its blocks hold, streamed for a prefix past its end: refused. */
    @org.junit.jupiter.api.Test
    void aFrameThatEndsShortOfItsDeclaredSizeIsRefused() {
        ZstdCodec c = new ZstdCodec(new ZstdConfiguration(1, false));
        ByteBuffer encoded = direct(c.encode(ByteBuffer.wrap(bytes(70_000, 3))));
        int descriptor = encoded.get(4) & 0xFF;
        org.junit.jupiter.api.Assumptions.assumeTrue(descriptor >> 6 == 2 && (descriptor & 0x20) != 0 && (descriptor & 3) == 0,
                "libzstd wrote a single-segment frame with a 4-byte content size");
        // Within what the frame's one block could hold, so that the frame scan lets it through.
        encoded.order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(5, 100_000);
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> c.decodePrefixInto(encoded, ByteBuffer.allocateDirect(90_000), 100_000));
        // libzstd itself finds the frame ending short of its declared size; either way, the frame is named.
        assertTrue(e.getMessage().contains("frame 1"), e.getMessage());
    }
}
