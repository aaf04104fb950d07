package dev.zarrj.codec.gzip.internal;

import static dev.zarrj.codec.gzip.internal.TestData.buf;
import static dev.zarrj.codec.gzip.internal.TestData.bytes;
import static dev.zarrj.codec.gzip.internal.TestData.compressible;
import static dev.zarrj.codec.gzip.internal.TestData.concat;
import static dev.zarrj.codec.gzip.internal.TestData.random;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.codec.gzip.GzipConfiguration;
import dev.zarrj.codec.gzip.GzipLibrary;
import dev.zarrj.codec.gzip.internal.GzipCodec.Implementation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * libdeflate and {@code java.util.zip} against each other: each decodes what the other encodes at
 * every level, both read the same multi-member streams and the test vectors' gzip chunks alike,
 * and corrupt input fails the same way, with the same message, on both.
 */
class CrossImplementationTest {
    private static final Implementation ZLIB = Implementation.JAVA_UTIL_ZIP;
    private static final Implementation LIBDEFLATE = Implementation.LIBDEFLATE;

    @BeforeAll
    static void libdeflateIsThere() {
        GzipCodecLibdeflateTest.requireLibdeflate();
    }

    static GzipCodec codec(int level, Implementation implementation) {
        return new GzipCodec(GzipConfiguration.level(level), implementation);
    }

    static byte[] encode(int level, Implementation implementation, byte[] data) {
        return bytes(codec(level, implementation).encode(buf(data)));
    }

    static byte[] decode(Implementation implementation, byte[] encoded, EncodedSize size) {
        return bytes(codec(1, implementation).decode(buf(encoded), size));
    }

    static byte[] gunzip(byte[] encoded) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(encoded))) {
            return in.readAllBytes();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
    void eachDecodesWhatTheOtherEncodesAtEveryLevel(int level) throws IOException {
        for (byte[] data : List.of(new byte[0], random(1, 1), compressible(200_000, level), random(70_000, level))) {
            byte[] fromLibdeflate = encode(level, LIBDEFLATE, data);
            byte[] fromZlib = encode(level, ZLIB, data);
            for (Implementation reader : Implementation.values()) {
                assertArrayEquals(data, decode(reader, fromLibdeflate, EncodedSize.fixed(data.length)));
                assertArrayEquals(data, decode(reader, fromZlib, EncodedSize.fixed(data.length)));
                assertArrayEquals(data, decode(reader, fromLibdeflate, EncodedSize.unbounded()));
            }
            assertArrayEquals(data, gunzip(fromLibdeflate), "GZIPInputStream reads libdeflate's member");
            assertTrue(fromLibdeflate.length <= GzipCodec.storedSize(data.length), "within the encoded-size bound");
        }
    }

    @Test
    void libdeflateWritesItsOwnDeflateStreamButTheSameFraming() {
        byte[] data = compressible(100_000, 7);
        byte[] fromLibdeflate = encode(1, LIBDEFLATE, data);
        byte[] fromZlib = encode(1, ZLIB, data);
        assertFalse(java.util.Arrays.equals(fromLibdeflate, fromZlib), "libdeflate really ran");
        ByteBuffer a = ByteBuffer.wrap(fromLibdeflate).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer b = ByteBuffer.wrap(fromZlib).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(b.getInt(0), a.getInt(0), "magic, method and flags");
        assertEquals(b.getInt(fromZlib.length - 8), a.getInt(fromLibdeflate.length - 8), "CRC-32");
        assertEquals(data.length, a.getInt(fromLibdeflate.length - 4), "ISIZE");
    }

    @Test
    void levelZeroIsTheSameStoredEncodingOnBoth() {
        byte[] data = random(150_000, 3);
        assertArrayEquals(encode(0, ZLIB, data), encode(0, LIBDEFLATE, data));
    }

    @Test
    void concatenatedMembersFromEveryWriterDecodeAlike() throws IOException {
        byte[] a = compressible(5000, 1);
        byte[] b = random(3000, 2);
        byte[] c = compressible(100_000, 3);
        ByteArrayOutputStream jdk = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(jdk)) {
            gz.write(b);
        }
        byte[] stream = concat(encode(6, LIBDEFLATE, a), jdk.toByteArray(), encode(0, ZLIB, new byte[0]),
                encode(9, ZLIB, c), encode(1, LIBDEFLATE, c), new byte[5]);
        byte[] expected = concat(a, b, c, c);
        for (Implementation reader : Implementation.values()) {
            assertArrayEquals(expected, decode(reader, stream, EncodedSize.fixed(expected.length)), reader.name());
            assertArrayEquals(expected, decode(reader, stream, EncodedSize.bounded(expected.length)), reader.name());
            assertArrayEquals(expected, decode(reader, stream, EncodedSize.unbounded()), reader.name());
            ByteBuffer direct = ByteBuffer.allocateDirect(expected.length + 10).position(4).limit(4 + expected.length);
            ByteBuffer input = ByteBuffer.allocateDirect(stream.length + 3).position(3);
            input.put(stream).position(3);
            codec(1, reader).decodeInto(input, direct);
            assertEquals(3, input.position(), "the input's position is unchanged");
            assertArrayEquals(expected, bytes(direct), reader.name() + " into a direct buffer");
        }
        assertArrayEquals(concat(a, b, c, c), gunzip(stream));
    }

    /** Corruptions of a libdeflate member and a zlib one, each named the same way by both paths. */
    @Test
    void corruptInputFailsAlikeOnBoth() {
        byte[] data = compressible(40_000, 5);
        List<byte[]> corrupt = new ArrayList<>();
        for (Implementation writer : List.of(LIBDEFLATE, ZLIB)) {
            byte[] good = encode(5, writer, data);
            corrupt.add(java.util.Arrays.copyOf(good, good.length - 3));                 // truncated trailer
            corrupt.add(java.util.Arrays.copyOf(good, good.length / 2));                 // truncated data
            corrupt.add(java.util.Arrays.copyOf(good, 7));                               // truncated header
            corrupt.add(flip(good, good.length - 8));                                    // CRC-32
            corrupt.add(flip(good, good.length - 4));                                    // ISIZE
            corrupt.add(flip(good, good.length / 2));                                    // deflate data
            corrupt.add(flip(good, 2));                                                  // method
            corrupt.add(flip(good, 0));                                                  // magic
            corrupt.add(concat(good, new byte[] {1, 2, 3}));                             // trailing garbage
            corrupt.add(concat(good, good));                                             // larger than expected
        }
        corrupt.add(new byte[0]);
        for (byte[] bad : corrupt) {
            for (EncodedSize size : List.of(EncodedSize.fixed(data.length), EncodedSize.bounded(data.length))) {
                CorruptDataException z = assertThrows(CorruptDataException.class, () -> decode(ZLIB, bad, size));
                CorruptDataException l = assertThrows(CorruptDataException.class, () -> decode(LIBDEFLATE, bad, size));
                assertEquals(z.getClass(), l.getClass(), z.getMessage());
                assertEquals(z.getMessage(), l.getMessage());
            }
        }
    }

    private static byte[] flip(byte[] b, int at) {
        byte[] c = b.clone();
        c[at] ^= 0x10;
        return c;
    }

    @Test
    void aLyingIsizeIsNeitherTrustedNorAllocated() {
        byte[] data = compressible(100_000, 8);
        byte[] lying = encode(1, LIBDEFLATE, data);
        // ISIZE says 4 GiB - 1; deflate could hold up to 1032 times the input, tens of MB here.
        ByteBuffer.wrap(lying).order(ByteOrder.LITTLE_ENDIAN).putInt(lying.length - 4, -1);
        for (Implementation reader : Implementation.values()) {
            long before = allocatedBytes();
            CorruptDataException e = assertThrows(CorruptDataException.class,
                    () -> decode(reader, lying, EncodedSize.unbounded()));
            long allocated = allocatedBytes() - before;
            assertTrue(e.getMessage().contains("ISIZE mismatch in member 1: the trailer says 4294967295 bytes"),
                    e.getMessage());
            if (before >= 0) {
                assertTrue(allocated < 40L * lying.length + (1 << 20), reader + " allocated " + allocated
                        + " bytes for " + lying.length + " encoded bytes");
            }
        }
    }

    /** Bytes allocated by this thread so far, or -1 when the JVM does not say. */
    private static long allocatedBytes() {
        try {
            Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            return (long) Class.forName("com.sun.management.ThreadMXBean")
                    .getMethod("getCurrentThreadAllocatedBytes").invoke(bean);
        } catch (ReflectiveOperationException | LinkageError e) {
            return -1;
        }
    }

    @Test
    void theBenchmarkCallsReachLibdeflate() {
        assertTrue(GzipLibrary.libdeflate());
        assertTrue(GzipLibrary.describe().startsWith("libdeflate"), GzipLibrary.describe());
        byte[] data = compressible(1 << 20, 4);
        ByteBuffer src = ByteBuffer.allocateDirect(data.length).put(data).flip();
        ByteBuffer dst = ByteBuffer.allocateDirect(data.length + 1024);
        int n = GzipLibrary.compress(1, src, dst);
        assertTrue(n > 18 && n < data.length, "compressed to " + n);
        byte[] member = new byte[n];
        dst.get(0, member);
        assertArrayEquals(data, decode(ZLIB, member, EncodedSize.fixed(data.length)));
        ByteBuffer out = ByteBuffer.allocateDirect(data.length);
        assertEquals(data.length, GzipLibrary.decompress(dst.limit(n), out));
        assertArrayEquals(data, bytes(out));
        assertEquals(0, GzipLibrary.compress(1, src, ByteBuffer.allocateDirect(10)), "does not fit");
        assertThrows(IllegalStateException.class, () -> GzipLibrary.decompress(dst.limit(n), ByteBuffer.allocate(10)));
    }

    /**
     * Every gzip chunk of the test vectors (arrays whose codecs end in gzip, outside shards) decodes
     * on both paths to the same bytes, which java.util.zip's GZIPInputStream also reads.
     */
    @Test
    void theVectorsGzipChunksDecodeAlike() throws IOException {
        Path vectors = Path.of("..", "..", "shared", "vectors").toAbsolutePath().normalize();
        if (!Files.isDirectory(vectors)) {
            vectors = Path.of("..", "shared", "vectors").toAbsolutePath().normalize();
        }
        assertTrue(Files.isDirectory(vectors), "the vectors are beside the worktree: " + vectors);
        ObjectMapper json = new ObjectMapper();
        int chunks = 0;
        List<Path> arrays;
        try (Stream<Path> s = Files.walk(vectors)) {
            arrays = s.filter(p -> p.getFileName().toString().equals("zarr.json")).toList();
        }
        for (Path meta : arrays) {
            JsonNode node = json.readTree(meta.toFile());
            JsonNode codecs = node.path("codecs");
            if (!codecs.isArray() || codecs.isEmpty() || !"gzip".equals(codecs.get(codecs.size() - 1).path("name").asText())) {
                continue;
            }
            Path dir = meta.getParent();
            List<Path> files;
            try (Stream<Path> s = Files.walk(dir)) {
                files = s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().endsWith(".json"))
                        .filter(p -> !p.getFileName().toString().startsWith(".")).toList();
            }
            for (Path f : files) {
                byte[] encoded = Files.readAllBytes(f);
                byte[] zlib = decode(ZLIB, encoded, EncodedSize.unbounded());
                byte[] native_ = decode(LIBDEFLATE, encoded, EncodedSize.unbounded());
                assertArrayEquals(zlib, native_, f.toString());
                assertArrayEquals(gunzip(encoded), native_, f.toString());
                byte[] again = encode(1, LIBDEFLATE, native_);
                assertArrayEquals(native_, decode(ZLIB, again, EncodedSize.fixed(native_.length)), f.toString());
                chunks++;
            }
        }
        assertTrue(chunks >= 5, "found the vectors' gzip chunks: " + chunks);
    }

    /** Chunks above the scratch memory kept per context: allocated for the call, freed after it. */
    @Test
    void chunksLargerThanTheKeptScratchRoundTrip() {
        int size = (int) NativeGzip.KEEP_SCRATCH + 12345;
        byte[] data = compressible(size, 11);
        for (int round = 0; round < 2; round++) {
            byte[] encoded = encode(1, LIBDEFLATE, data);
            assertArrayEquals(data, decode(LIBDEFLATE, encoded, EncodedSize.fixed(size)));
            assertArrayEquals(data, decode(ZLIB, encoded, EncodedSize.fixed(size)));
        }
        byte[] small = compressible(1000, 12);
        assertArrayEquals(small, decode(LIBDEFLATE, encode(1, LIBDEFLATE, small), EncodedSize.fixed(1000)));
    }

    @Test
    void encodingIntoALenderBufferUsesItsExactSize() {
        byte[] data = compressible(300_000, 9);
        List<ByteBuffer> lent = new ArrayList<>();
        Function<Integer, ByteBuffer> direct = n -> {
            ByteBuffer b = ByteBuffer.allocateDirect(n + 16);
            lent.add(b);
            return b;
        };
        ByteBuffer out = codec(1, LIBDEFLATE).encode(buf(data), direct::apply);
        assertNotNull(out);
        assertEquals(1, lent.size());
        assertTrue(out.isDirect(), "the result lies in the lent buffer");
        assertArrayEquals(data, decode(ZLIB, bytes(out), EncodedSize.fixed(data.length)));
    }
}
