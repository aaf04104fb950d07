package dev.zarrj.bench.raw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.function.Supplier;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The raw baselines round-trip a chunk in the buffers each accepts, and write the formats of the
 * codecs they stand for (read back here with the JDK where it can: gzip, crc32c).
 */
class RawCodecTest {
    private static final int SIZE = 70_000;
    private static final Map<String, Supplier<RawCodec>> CODECS = Map.of(
            "none", RawCodec::none,
            "gzip", () -> RawCodec.gzip(1),
            "zstd", () -> RawCodec.zstd(1),
            "blosc", () -> RawCodec.blosc("zstd", 5, true, 4),
            "crc32c", RawCodec::crc32c);

    private static byte[] field() {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < SIZE / 4; i++) {
            b.putFloat((float) Math.sin(i * 0.01));
        }
        return b.array();
    }

    private static ByteBuffer buffer(int size, boolean direct) {
        return direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"none direct", "gzip direct", "zstd direct", "blosc direct", "crc32c direct",
            "none heap", "gzip heap", "zstd heap", "crc32c heap"})
    void roundTrips(String which) {
        String name = which.split(" ")[0];
        boolean direct = which.endsWith("direct");
        Supplier<RawCodec> factory = CODECS.get(name);
        assumeTrue(RawCodec.unavailable(factory).isEmpty(), () -> name + ": " + RawCodec.unavailable(factory).orElse(""));
        byte[] data = field();
        try (RawCodec codec = factory.get()) {
            ByteBuffer src = buffer(SIZE, direct).put(data).flip();
            ByteBuffer encoded = codec.encode(src, buffer(codec.bound(SIZE), direct));
            assertEquals(name.equals("none"), codec.identity());
            if (!codec.identity()) {
                assertTrue(encoded.remaining() <= codec.bound(SIZE), name);
            }
            ByteBuffer stored = buffer(encoded.remaining(), direct).put(encoded.duplicate()).flip();
            assertArrayEquals(data, bytes(codec.decode(stored, buffer(SIZE, direct), SIZE)), which);
            assertArrayEquals(data, bytes(src), "the source is left as it was");
        }
    }

    @Test
    void gzipWritesOneMemberTheJdkReads() throws IOException {
        byte[] data = field();
        try (RawCodec gzip = RawCodec.gzip(1)) {
            ByteBuffer encoded = gzip.encode(ByteBuffer.wrap(data), ByteBuffer.allocate(gzip.bound(SIZE)));
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes(encoded)))) {
                assertArrayEquals(data, in.readAllBytes());
            }
        }
    }

    /** The gzip ceiling runs on the library zarrj's gzip codec runs on, and says which. */
    @Test
    void gzipRunsOnTheCodecsLibrary() {
        String implementation = RawCodec.gzipImplementation();
        assertEquals(dev.zarrj.codec.gzip.GzipLibrary.describe(), implementation);
        assertEquals(dev.zarrj.codec.gzip.GzipLibrary.libdeflate(), implementation.startsWith("libdeflate"), implementation);
        if (dev.zarrj.codec.gzip.GzipLibrary.libdeflate()) {
            byte[] data = field();
            try (RawCodec gzip = RawCodec.gzip(1)) {
                ByteBuffer src = ByteBuffer.allocateDirect(SIZE).put(data).flip();
                ByteBuffer ours = gzip.encode(src, ByteBuffer.allocateDirect(gzip.bound(SIZE)));
                ByteBuffer direct = ByteBuffer.allocateDirect(gzip.bound(SIZE));
                int n = dev.zarrj.codec.gzip.GzipLibrary.compress(1, src, direct);
                assertEquals(n, ours.remaining(), "the same libdeflate output");
            }
        }
    }

    @Test
    void crc32cAppendsTheChecksumLittleEndianAndRejectsAChangedValue() {
        byte[] data = field();
        try (RawCodec crc = RawCodec.crc32c()) {
            ByteBuffer encoded = crc.encode(ByteBuffer.wrap(data), ByteBuffer.allocate(crc.bound(SIZE)));
            assertEquals(SIZE + 4, encoded.remaining());
            CRC32C want = new CRC32C();
            want.update(data);
            assertEquals((int) want.getValue(), encoded.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(SIZE));
            byte[] changed = bytes(encoded);
            changed[17] ^= 1;
            assertThrows(IllegalStateException.class, () -> crc.decode(ByteBuffer.wrap(changed), null, SIZE));
        }
    }

    @Test
    void zstdRefusesADirectAndAHeapBufferTogether() {
        try (RawCodec zstd = RawCodec.zstd(1)) {
            ByteBuffer src = ByteBuffer.allocateDirect(SIZE).put(field()).flip();
            assertThrows(IllegalArgumentException.class, () -> zstd.encode(src, ByteBuffer.allocate(zstd.bound(SIZE))));
        }
    }

    @Test
    void noneHandsTheSourceBack() {
        ByteBuffer src = ByteBuffer.wrap(field());
        assertSame(src, RawCodec.none().encode(src, null));
        assertSame(src, RawCodec.none().decode(src, null, SIZE));
    }
}
