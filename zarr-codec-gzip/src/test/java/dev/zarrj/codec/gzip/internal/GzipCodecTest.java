package dev.zarrj.codec.gzip.internal;

import static dev.zarrj.codec.gzip.internal.TestData.buf;
import static dev.zarrj.codec.gzip.internal.TestData.bytes;
import static dev.zarrj.codec.gzip.internal.TestData.compressible;
import static dev.zarrj.codec.gzip.internal.TestData.concat;
import static dev.zarrj.codec.gzip.internal.TestData.member;
import static dev.zarrj.codec.gzip.internal.TestData.random;
import static dev.zarrj.codec.gzip.internal.TestData.rawDeflate;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.codec.gzip.GzipConfiguration;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The codec's behaviour on the implementation it picks itself ({@link GzipCodec.Implementation#AUTO});
 * {@link GzipCodecZlibTest} and {@link GzipCodecLibdeflateTest} run the same tests on each
 * implementation forced.
 */
class GzipCodecTest {
    private static final int[] SIZES = {0, 1, 100, 65535, 65536, 300_000};

    /** The implementation under test. */
    GzipCodec.Implementation implementation() {
        return GzipCodec.Implementation.AUTO;
    }

    GzipCodec codec(int level) {
        return new GzipCodec(GzipConfiguration.level(level), implementation());
    }

    static byte[] encode(GzipCodec codec, byte[] data) {
        return bytes(codec.encode(buf(data)));
    }

    byte[] decode(byte[] encoded, EncodedSize size) {
        return bytes(codec(5).decode(buf(encoded), size));
    }

    static byte[] gunzipWithJdk(byte[] encoded) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(encoded))) {
            return in.readAllBytes();
        }
    }

    static byte[] gzipWithJdk(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    CorruptDataException corrupt(byte[] encoded, EncodedSize size) {
        return assertThrows(CorruptDataException.class, () -> codec(5).decode(buf(encoded), size));
    }

    static void assertMessage(Exception e, String... parts) {
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), () -> "message lacks '" + p + "': " + e.getMessage());
        }
    }

    @Nested
    class RoundTrip {
        @ParameterizedTest
        @ValueSource(ints = {0, 1, 5, 9})
        void randomAndCompressibleDataOfEverySize(int level) throws IOException {
            GzipCodec codec = codec(level);
            for (int n : SIZES) {
                for (byte[] data : new byte[][] {random(n, n), compressible(n, n)}) {
                    byte[] encoded = encode(codec, data);
                    assertArrayEquals(data, decode(encoded, EncodedSize.fixed(n)), "level " + level + ", " + n);
                    assertArrayEquals(data, decode(encoded, EncodedSize.unbounded()));
                    assertArrayEquals(data, gunzipWithJdk(encoded), "JDK reader, level " + level + ", " + n);
                }
            }
        }

        @ParameterizedTest
        @ValueSource(ints = {1, 5, 9})
        void compressibleDataShrinks(int level) {
            byte[] data = compressible(100_000, 1);
            assertTrue(encode(codec(level), data).length < data.length / 2);
        }

        @Test
        void levelZeroStoresTheDataVerbatim() {
            byte[] data = compressible(100_000, 1);
            byte[] encoded = encode(codec(0), data);
            assertEquals(GzipCodec.storedSize(data.length), encoded.length);
            assertArrayEquals(Arrays.copyOf(data, 1000), Arrays.copyOfRange(encoded, 15, 1015));
        }

        @Test
        void outputIsDeterministic() {
            byte[] data = compressible(50_000, 3);
            assertArrayEquals(encode(codec(6), data), encode(codec(6), data));
        }
    }

    @Nested
    class Format {
        @ParameterizedTest
        @ValueSource(ints = {0, 1, 5, 9})
        void headerIsGzipDeflateWithExtraFlagsForTheLevel(int level) {
            byte[] encoded = encode(codec(level), compressible(1000, 1));
            assertEquals(0x1f, encoded[0] & 0xff);
            assertEquals(0x8b, encoded[1] & 0xff);
            assertEquals(8, encoded[2]);
            assertEquals(0, encoded[3], "FLG");
            assertEquals(level == 9 ? 2 : level == 1 ? 4 : 0, encoded[8], "XFL");
            assertEquals(255, encoded[9] & 0xff, "OS");
        }

        @Test
        void trailerHoldsCrc32AndSize() {
            byte[] data = random(12345, 9);
            byte[] encoded = encode(codec(5), data);
            ByteBuffer trailer = ByteBuffer.wrap(encoded, encoded.length - 8, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            assertEquals(TestData.crc32(data), trailer.getInt());
            assertEquals(data.length, trailer.getInt());
        }

        @Test
        void decodesWhatGzipOutputStreamWrites() throws IOException {
            byte[] data = compressible(70_000, 4);
            assertArrayEquals(data, decode(gzipWithJdk(data), EncodedSize.fixed(data.length)));
        }
    }

    @Nested
    class HeaderFields {
        final byte[] data = compressible(5000, 5);
        final byte[] deflate = rawDeflate(data, 6);

        @Test
        void everyOptionalFieldIsSkipped() {
            byte[] gz = member(deflate, data, new byte[] {'A', 'B', 2, 0, 7, 7}, "chunk.bin", "a comment", true);
            assertArrayEquals(data, decode(gz, EncodedSize.fixed(data.length)));
        }

        @Test
        void eachFieldAlone() throws IOException {
            for (byte[] gz : new byte[][] {
                    member(deflate, data, new byte[0], null, null, false),
                    member(deflate, data, null, "name", null, false),
                    member(deflate, data, null, null, "comment", false),
                    member(deflate, data, null, null, null, true)}) {
                assertArrayEquals(data, decode(gz, EncodedSize.unbounded()));
                assertArrayEquals(data, gunzipWithJdk(gz), "the hand-built stream is valid for the JDK too");
            }
        }

        @Test
        void headerCrcMismatchIsAChecksumError() {
            byte[] gz = member(deflate, data, null, "name", null, true);
            gz[15] ^= 1; // inside FNAME, covered by FHCRC
            CorruptDataException e = corrupt(gz, EncodedSize.unbounded());
            assertInstanceOf(ChecksumMismatchException.class, e);
            assertMessage(e, "header CRC16 mismatch", "member 1");
        }

        @Test
        void unterminatedNameIsTruncation() {
            byte[] gz = member(new byte[0], new byte[0], null, null, null, false);
            byte[] header = Arrays.copyOf(gz, 10);
            header[3] = 0x08;
            byte[] cut = concat(header, "no-terminator".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertMessage(corrupt(cut, EncodedSize.unbounded()), "stream truncated", "FNAME");
        }

        @Test
        void extraFieldLongerThanTheInputIsTruncation() {
            byte[] gz = member(deflate, data, new byte[4], null, null, false);
            gz[10] = (byte) 0xff;
            gz[11] = (byte) 0xff;
            assertMessage(corrupt(Arrays.copyOf(gz, 100), EncodedSize.unbounded()), "stream truncated", "FEXTRA");
        }
    }

    @Nested
    class MultiMember {
        @Test
        void concatenatedMembersDecodeToTheConcatenation() throws IOException {
            byte[] a = random(70_000, 1);
            byte[] b = compressible(30_000, 2);
            byte[] c = new byte[0];
            byte[] stream = concat(encode(codec(1), a), gzipWithJdk(b), encode(codec(0), c), encode(codec(9), a));
            byte[] expected = concat(a, b, c, a);
            assertArrayEquals(expected, decode(stream, EncodedSize.fixed(expected.length)));
            assertArrayEquals(expected, gunzipWithJdk(stream), "the JDK agrees");
        }

        @Test
        void trailingZeroPaddingIsAccepted() {
            byte[] data = compressible(1000, 1);
            assertArrayEquals(data, decode(concat(encode(codec(5), data), new byte[7]), EncodedSize.fixed(1000)));
        }

        @Test
        void trailingGarbageIsRejected() {
            byte[] data = compressible(1000, 1);
            byte[] stream = concat(encode(codec(5), data), new byte[] {0, 'x', 'y'});
            assertMessage(corrupt(stream, EncodedSize.fixed(1000)), "trailing garbage", "after member 1");
        }

        @Test
        void aTruncatedSecondMemberIsRejected() {
            byte[] one = encode(codec(5), compressible(1000, 1));
            byte[] two = encode(codec(5), compressible(1000, 2));
            byte[] stream = concat(one, Arrays.copyOf(two, two.length - 3));
            assertMessage(corrupt(stream, EncodedSize.unbounded()), "stream truncated", "member 2");
        }
    }

    @Nested
    class CorruptInput {
        final byte[] data = compressible(20_000, 7);
        final byte[] good = encode(codec(5), data);

        @Test
        void emptyInput() {
            assertMessage(corrupt(new byte[0], EncodedSize.unbounded()), "empty input");
        }

        @Test
        void badMagic() {
            byte[] bad = good.clone();
            bad[1] = 0x00;
            assertMessage(corrupt(bad, EncodedSize.unbounded()), "not a gzip stream", "1f 00");
        }

        @Test
        void unknownCompressionMethod() {
            byte[] bad = good.clone();
            bad[2] = 7;
            assertMessage(corrupt(bad, EncodedSize.unbounded()), "compression method 7");
        }

        @Test
        void reservedFlags() {
            byte[] bad = good.clone();
            bad[3] = (byte) 0x80;
            assertMessage(corrupt(bad, EncodedSize.unbounded()), "reserved header flags", "0x80");
        }

        @Test
        void everyTruncationIsDetected() {
            for (int n = 1; n < good.length; n++) {
                int len = n;
                CorruptDataException e = corrupt(Arrays.copyOf(good, n), EncodedSize.unbounded());
                assertTrue(e.getMessage().contains("truncated"), () -> len + " bytes: " + e.getMessage());
            }
        }

        @Test
        void crcMismatch() {
            byte[] bad = good.clone();
            bad[bad.length - 6] ^= 0x40;
            CorruptDataException e = corrupt(bad, EncodedSize.unbounded());
            assertInstanceOf(ChecksumMismatchException.class, e);
            assertMessage(e, "CRC32 mismatch in member 1", "stored 0x", "computed 0x");
        }

        @Test
        void sizeMismatch() {
            byte[] bad = good.clone();
            bad[bad.length - 4] ^= 1;
            assertMessage(corrupt(bad, EncodedSize.unbounded()), "ISIZE mismatch", "decoded 20000");
        }

        @Test
        void invalidDeflateData() {
            byte[] bad = good.clone();
            bad[10] = 0x07; // BFINAL=1, BTYPE=11: reserved
            assertMessage(corrupt(bad, EncodedSize.unbounded()), "invalid deflate data in member 1");
        }

        @Test
        void badStoredBlockLength() {
            byte[] stored = encode(codec(0), data);
            stored[13] ^= 1; // NLEN no longer the complement of LEN
            assertMessage(corrupt(stored, EncodedSize.unbounded()), "invalid deflate data");
        }

        @Test
        void corruptionGivesAnErrorOrTheRightAnswerNeverAWrongOne() {
            Random r = new Random(42);
            for (int i = 0; i < 500; i++) {
                byte[] bad = good.clone();
                int at = 10 + r.nextInt(bad.length - 10);
                bad[at] ^= (byte) (1 + r.nextInt(255));
                try {
                    byte[] out = decode(bad, EncodedSize.fixed(data.length));
                    assertArrayEquals(data, out, "corruption at " + at + " decoded to wrong data");
                } catch (CorruptDataException expected) {
                    // detected
                }
            }
        }
    }

    @Nested
    class DecodedSize {
        final byte[] data = compressible(1000, 8);
        final byte[] encoded = encode(codec(5), data);

        /**
         * The pipeline's check before allocating: at most 1032 times the encoded size, which holds
         * for the most compressible input there is (zeros at level 9, about 1030:1).
         */
        @Test
        void theBytesBoundTheirDecodedSize() {
            assertEquals(EncodedSize.bounded(1032L * encoded.length), codec(5).decodedSize(buf(encoded)));
            // zlib's level 9 (about 1030:1) comes closest to deflate's limit; libdeflate's reaches about 990:1.
            byte[] zeros = encode(new GzipCodec(GzipConfiguration.level(9), GzipCodec.Implementation.JAVA_UTIL_ZIP),
                    new byte[64 << 20]);
            EncodedSize bound = codec(9).decodedSize(buf(zeros));
            assertTrue(bound.max() >= 64 << 20 && bound.max() < 66 << 20, bound + " for " + zeros.length + " bytes");
        }

        @Test
        void fixedTooSmallStopsInflating() {
            assertMessage(corrupt(encoded, EncodedSize.fixed(999)), "larger than the expected 999 bytes");
        }

        @Test
        void fixedTooLarge() {
            assertMessage(corrupt(encoded, EncodedSize.fixed(2000)), "decoded 1000 bytes, expected 2000");
        }

        @Test
        void fixedZero() {
            assertMessage(corrupt(encoded, EncodedSize.fixed(0)), "larger than the expected 0 bytes");
            assertArrayEquals(new byte[0], decode(encode(codec(5), new byte[0]), EncodedSize.fixed(0)));
        }

        @Test
        void bounded() {
            assertArrayEquals(data, decode(encoded, EncodedSize.bounded(1000)));
            assertArrayEquals(data, decode(encoded, EncodedSize.bounded(1_000_000)));
            assertMessage(corrupt(encoded, EncodedSize.bounded(500)), "larger than the allowed 500 bytes");
        }

        @Test
        void theLimitCoversAllMembersTogether() {
            byte[] two = concat(encoded, encoded);
            assertMessage(corrupt(two, EncodedSize.fixed(1500)), "larger than the expected 1500 bytes");
            assertArrayEquals(concat(data, data), decode(two, EncodedSize.fixed(2000)));
        }

        @Test
        void aBombIsStoppedQuicklyWithoutAllocatingItsSize() {
            byte[] bomb = zeroBomb(100 << 20);
            assertTrue(bomb.length < 1 << 20, "the bomb is tiny: " + bomb.length);
            long before = allocatedBytes();
            long start = System.nanoTime();
            for (EncodedSize size : new EncodedSize[] {EncodedSize.fixed(1000), EncodedSize.bounded(1000)}) {
                assertMessage(corrupt(bomb, size), "1000 bytes", "decompression bomb");
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            long allocated = allocatedBytes() - before;
            assertTrue(millis < 1000, "took " + millis + " ms");
            assumeTrue(before >= 0, "allocation counter not available");
            assertTrue(allocated < 1 << 20, "allocated " + allocated + " bytes");
        }

        /** A gzip stream of {@code n} zero bytes, built without holding them all. */
        private byte[] zeroBomb(int n) {
            byte[] zeros = new byte[1 << 20];
            Deflater d = new Deflater(9, true);
            CRC32 crc = new CRC32();
            ByteArrayOutputStream deflate = new ByteArrayOutputStream();
            byte[] chunk = new byte[1 << 16];
            for (int done = 0; done < n; done += zeros.length) {
                d.setInput(zeros);
                crc.update(zeros);
                boolean last = done + zeros.length >= n;
                if (last) {
                    d.finish();
                }
                do {
                    deflate.write(chunk, 0, d.deflate(chunk));
                } while (last ? !d.finished() : !d.needsInput());
            }
            d.end();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 255});
            out.writeBytes(deflate.toByteArray());
            TestData.putIntLE(out, (int) crc.getValue());
            TestData.putIntLE(out, n);
            return out.toByteArray();
        }

        /** Bytes allocated by this thread so far, or -1 when the JVM does not say. */
        private long allocatedBytes() {
            try {
                Object bean = Class.forName("java.lang.management.ManagementFactory")
                        .getMethod("getThreadMXBean").invoke(null);
                return (long) Class.forName("com.sun.management.ThreadMXBean")
                        .getMethod("getCurrentThreadAllocatedBytes").invoke(bean);
            } catch (ReflectiveOperationException | LinkageError e) {
                return -1;
            }
        }
    }

    @Nested
    class EncodedSizes {
        @Test
        void unknownDecodedSizeGivesUnbounded() {
            assertEquals(EncodedSize.unbounded(), codec(5).encodedSize(EncodedSize.unbounded()));
        }

        @Test
        void boundIsTheStoredEncoding() {
            GzipCodec c = codec(5);
            assertEquals(EncodedSize.bounded(0 + 5 + 18), c.encodedSize(EncodedSize.fixed(0)));
            assertEquals(EncodedSize.bounded(65535 + 5 + 18), c.encodedSize(EncodedSize.fixed(65535)));
            assertEquals(EncodedSize.bounded(65536 + 10 + 18), c.encodedSize(EncodedSize.fixed(65536)));
            assertEquals(EncodedSize.bounded(65536 + 10 + 18), c.encodedSize(EncodedSize.bounded(65536)));
            assertEquals(EncodedSize.unbounded(), c.encodedSize(EncodedSize.fixed(Long.MAX_VALUE)));
        }

        @Test
        void everyLevelStaysWithinTheBoundOnIncompressibleData() {
            for (int level = 0; level <= 9; level++) {
                GzipCodec c = codec(level);
                for (int n : SIZES) {
                    byte[] encoded = encode(c, random(n, level * 31L + n));
                    long bound = c.encodedSize(EncodedSize.fixed(n)).max();
                    assertTrue(encoded.length <= bound, "level " + level + ", " + n + ": " + encoded.length + " > " + bound);
                    assertArrayEquals(random(n, level * 31L + n), decode(encoded, EncodedSize.fixed(n)));
                }
            }
        }
    }

    @Nested
    class Buffers {
        final byte[] data = compressible(10_000, 11);

        @Test
        void inputPositionAndLimitAreRespectedAndLeftAlone() {
            byte[] padded = concat(new byte[] {9, 9, 9}, data, new byte[] {8, 8});
            ByteBuffer in = ByteBuffer.wrap(padded, 3, data.length);
            ByteBuffer encoded = codec(5).encode(in);
            assertEquals(3, in.position());
            assertEquals(3 + data.length, in.limit());
            byte[] enc = bytes(encoded);
            ByteBuffer framed = ByteBuffer.wrap(concat(new byte[] {7}, enc, new byte[] {6}), 1, enc.length);
            assertArrayEquals(data, bytes(codec(5).decode(framed, EncodedSize.fixed(data.length))));
            assertEquals(1, framed.position());
        }

        @Test
        void directAndReadOnlyBuffers() {
            for (ByteBuffer in : new ByteBuffer[] {direct(data), ByteBuffer.wrap(data).asReadOnlyBuffer()}) {
                for (int level : new int[] {0, 5}) {
                    byte[] enc = bytes(codec(level).encode(in));
                    for (ByteBuffer e : new ByteBuffer[] {direct(enc), ByteBuffer.wrap(enc).asReadOnlyBuffer()}) {
                        assertArrayEquals(data, bytes(codec(5).decode(e, EncodedSize.fixed(data.length))));
                    }
                }
            }
        }

        @Test
        void resultsStartAtZeroAndHoldExactlyTheBytes() {
            ByteBuffer enc = codec(5).encode(buf(data));
            assertEquals(0, enc.position());
            assertEquals(enc.capacity(), enc.limit());
            ByteBuffer dec = codec(5).decode(enc, EncodedSize.unbounded());
            assertEquals(0, dec.position());
            assertEquals(data.length, dec.remaining());
        }

        private ByteBuffer direct(byte[] b) {
            ByteBuffer d = ByteBuffer.allocateDirect(b.length);
            d.put(b).flip();
            return d;
        }
    }
}
