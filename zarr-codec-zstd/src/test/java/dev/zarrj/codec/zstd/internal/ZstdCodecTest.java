package dev.zarrj.codec.zstd.internal;

import static dev.zarrj.codec.zstd.internal.TestData.buf;
import static dev.zarrj.codec.zstd.internal.TestData.bytes;
import static dev.zarrj.codec.zstd.internal.TestData.compressible;
import static dev.zarrj.codec.zstd.internal.TestData.concat;
import static dev.zarrj.codec.zstd.internal.TestData.direct;
import static dev.zarrj.codec.zstd.internal.TestData.handFrame;
import static dev.zarrj.codec.zstd.internal.TestData.random;
import static dev.zarrj.codec.zstd.internal.TestData.rawBlock;
import static dev.zarrj.codec.zstd.internal.TestData.rleBlock;
import static dev.zarrj.codec.zstd.internal.TestData.rleFrame;
import static dev.zarrj.codec.zstd.internal.TestData.skippableFrame;
import static dev.zarrj.codec.zstd.internal.TestData.streamingFrame;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.github.luben.zstd.Zstd;
import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.codec.zstd.ZstdConfiguration;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ZstdCodecTest {
    private static final int[] SIZES = {0, 1, 100, 131072, 131073, 1_000_000};

    static ZstdCodec codec(int level, boolean checksum) {
        return new ZstdCodec(ZstdConfiguration.of(level, checksum));
    }

    static byte[] encode(ZstdCodec codec, byte[] data) {
        return bytes(codec.encode(buf(data)));
    }

    static byte[] decode(byte[] encoded, EncodedSize size) {
        return bytes(codec(0, false).decode(buf(encoded), size));
    }

    static CorruptDataException corrupt(byte[] encoded, EncodedSize size) {
        return assertThrows(CorruptDataException.class, () -> codec(0, false).decode(buf(encoded), size));
    }

    static void assertMessage(Exception e, String... parts) {
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), () -> "message lacks '" + p + "': " + e.getMessage());
        }
    }

    @Nested
    class RoundTrip {
        @ParameterizedTest
        @CsvSource({"-5,false", "-5,true", "0,false", "0,true", "1,false", "1,true", "3,false", "3,true"})
        void randomAndCompressibleDataOfEverySize(int level, boolean checksum) {
            ZstdCodec codec = codec(level, checksum);
            for (int n : SIZES) {
                for (byte[] data : new byte[][] {random(n, n), compressible(n, n)}) {
                    byte[] encoded = encode(codec, data);
                    String where = "level " + level + ", checksum " + checksum + ", " + n + " bytes";
                    assertArrayEquals(data, decode(encoded, EncodedSize.fixed(n)), where);
                    assertArrayEquals(data, decode(encoded, EncodedSize.bounded(n)), where);
                    assertArrayEquals(data, decode(encoded, EncodedSize.unbounded()), where);
                    assertArrayEquals(data, Zstd.decompress(encoded, n), "libzstd's own reader, " + where);
                }
            }
        }

        @ParameterizedTest
        @ValueSource(booleans = {false, true})
        void level22OnSmallInput(boolean checksum) {
            byte[] data = compressible(20_000, 22);
            byte[] encoded = encode(codec(22, checksum), data);
            assertTrue(encoded.length < data.length / 3, "compressed to " + encoded.length);
            assertArrayEquals(data, decode(encoded, EncodedSize.fixed(data.length)));
        }

        @Test
        void extremeLevelsWork() {
            byte[] data = compressible(300_000, 5);
            for (int level : new int[] {ZstdConfiguration.MIN_LEVEL, -1, 19}) {
                assertArrayEquals(data, decode(encode(codec(level, true), data), EncodedSize.fixed(data.length)),
                        "level " + level);
            }
        }

        @Test
        void higherLevelsCompressBetter() {
            byte[] data = compressible(500_000, 6);
            int fastest = encode(codec(-50, false), data).length;
            int standard = encode(codec(3, false), data).length;
            int strong = encode(codec(19, false), data).length;
            assertTrue(strong < standard && standard < fastest, strong + " < " + standard + " < " + fastest);
        }

        @Test
        void levelZeroIsZstdsDefaultLevel() {
            byte[] data = compressible(200_000, 7);
            assertArrayEquals(encode(codec(3, false), data), encode(codec(0, false), data));
        }

        @Test
        void outputIsDeterministic() {
            byte[] data = compressible(200_000, 3);
            assertArrayEquals(encode(codec(5, true), data), encode(codec(5, true), data));
        }
    }

    @Nested
    class Format {
        @ParameterizedTest
        @CsvSource({"0,false", "0,true", "-5,true", "19,false"})
        void oneStandardFrameWithContentSizeAndChecksumAsConfigured(int level, boolean checksum) {
            for (int n : new int[] {0, 200, 300_000}) {
                byte[] encoded = encode(codec(level, checksum), compressible(n, 1));
                ByteBuffer b = ByteBuffer.wrap(encoded).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                assertEquals(TestData.MAGIC, b.getInt(0), "magic");
                int descriptor = encoded[4] & 0xff;
                assertEquals(checksum, (descriptor & 0x04) != 0, "Content_Checksum_flag");
                assertEquals(0, descriptor & 0x03, "no dictionary ID");
                assertEquals(n, Zstd.getFrameContentSize(encoded), "Frame_Content_Size");
                assertEquals(encoded.length, Zstd.findFrameCompressedSize(encoded), "exactly one frame");
            }
        }

        @Test
        void checksumCostsFourBytes() {
            byte[] data = compressible(50_000, 2);
            assertEquals(encode(codec(3, false), data).length + 4, encode(codec(3, true), data).length);
        }
    }

    @Nested
    class StreamingFrames {
        @ParameterizedTest
        @CsvSource({"false,1000000", "true,1000000", "false,1000", "true,777"})
        void framesWithoutContentSizeDecode(boolean checksum, int flushEvery) {
            byte[] data = compressible(400_000, 4);
            byte[] frame = streamingFrame(data, 3, checksum, flushEvery);
            assertEquals(-1, Zstd.getFrameContentSize(frame), "the streaming writer leaves the content size out");
            assertArrayEquals(data, decode(frame, EncodedSize.fixed(data.length)));
            assertArrayEquals(data, decode(frame, EncodedSize.bounded(data.length)));
            assertArrayEquals(data, decode(frame, EncodedSize.bounded(10L * data.length)));
            assertArrayEquals(data, decode(frame, EncodedSize.unbounded()));
        }

        @Test
        void incompressibleAndEmptyStreams() {
            for (byte[] data : new byte[][] {random(300_000, 9), new byte[0], new byte[] {42}}) {
                byte[] frame = streamingFrame(data, 1, true, 65536);
                assertArrayEquals(data, decode(frame, EncodedSize.fixed(data.length)));
                assertArrayEquals(data, decode(frame, EncodedSize.unbounded()));
            }
        }

        @Test
        void directInput() {
            byte[] data = compressible(100_000, 10);
            byte[] frame = streamingFrame(data, 3, true, 10_000);
            for (EncodedSize size : new EncodedSize[] {EncodedSize.fixed(data.length), EncodedSize.unbounded()}) {
                assertArrayEquals(data, bytes(codec(0, false).decode(direct(frame), size)));
                assertArrayEquals(data, bytes(codec(0, false).decode(buf(frame).asReadOnlyBuffer(), size)));
            }
        }
    }

    @Nested
    class MultipleFrames {
        final byte[] a = random(70_000, 1);
        final byte[] b = compressible(300_000, 2);
        final byte[] c = new byte[0];

        @Test
        void concatenatedFramesDecodeToTheConcatenation() {
            byte[] stream = concat(encode(codec(1, true), a), streamingFrame(b, 3, false, 50_000),
                    encode(codec(0, false), c), encode(codec(9, false), a));
            byte[] expected = concat(a, b, c, a);
            assertArrayEquals(expected, decode(stream, EncodedSize.fixed(expected.length)));
            assertArrayEquals(expected, decode(stream, EncodedSize.bounded(expected.length)));
            assertArrayEquals(expected, decode(stream, EncodedSize.unbounded()));
            assertArrayEquals(expected, Zstd.decompress(stream, expected.length), "libzstd agrees");
        }

        @Test
        void skippableFramesAreSkipped() {
            byte[] stream = concat(skippableFrame(0, new byte[] {1, 2, 3}), encode(codec(3, false), a),
                    skippableFrame(15, new byte[0]), streamingFrame(b, 3, true, 100_000), skippableFrame(7, new byte[9]));
            byte[] expected = concat(a, b);
            assertArrayEquals(expected, decode(stream, EncodedSize.fixed(expected.length)));
            assertArrayEquals(expected, decode(stream, EncodedSize.unbounded()));
            assertArrayEquals(new byte[0], decode(skippableFrame(1, new byte[5]), EncodedSize.fixed(0)));
        }

        @Test
        void trailingGarbageIsRejected() {
            byte[] stream = concat(encode(codec(3, false), a), new byte[] {0, 'x', 'y', 'z', 0});
            assertMessage(corrupt(stream, EncodedSize.fixed(a.length)), "trailing garbage", "5 bytes after frame 1");
            assertMessage(corrupt(concat(encode(codec(3, false), a), new byte[4]), EncodedSize.unbounded()),
                    "trailing garbage");
        }

        @Test
        void aTruncatedSecondFrameIsRejected() {
            byte[] two = encode(codec(3, false), b);
            byte[] stream = concat(encode(codec(3, false), a), Arrays.copyOf(two, two.length - 3));
            assertMessage(corrupt(stream, EncodedSize.unbounded()), "truncated", "frame 2");
        }
    }

    @Nested
    class CorruptInput {
        final byte[] data = compressible(300_000, 7);
        final byte[] good = encode(codec(3, true), data);

        @Test
        void emptyInput() {
            assertMessage(corrupt(new byte[0], EncodedSize.unbounded()), "empty input");
        }

        @Test
        void badMagic() {
            byte[] gzip = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0};
            assertMessage(corrupt(gzip, EncodedSize.unbounded()), "not a zstd frame", "1f 8b 08 00");
        }

        @Test
        void reservedDescriptorBit() {
            byte[] bad = good.clone();
            bad[4] |= 0x08;
            assertMessage(corrupt(bad, EncodedSize.unbounded()), "frame 1 at offset 0", "reserved bit");
        }

        @Test
        void reservedBlockType() {
            byte[] bad = good.clone();
            bad[TestData.headerLength(good)] |= 0x06;
            assertMessage(corrupt(bad, EncodedSize.unbounded()), "block 1", "reserved block type");
        }

        @Test
        void framesNeedingADictionaryAreRejected() {
            byte[] frame = handFrame(3, 7, rawBlock(new byte[] {1, 2, 3}, true));
            assertMessage(corrupt(frame, EncodedSize.unbounded()), "needs dictionary 7");
        }

        @Test
        void everyTruncationIsDetected() {
            byte[] stream = streamingFrame(data, 3, true, 20_000);
            for (byte[] frame : new byte[][] {good, stream}) {
                for (int n = 1; n < frame.length; n++) {
                    int len = n;
                    CorruptDataException e = corrupt(Arrays.copyOf(frame, n), EncodedSize.unbounded());
                    assertTrue(e.getMessage().contains("truncated"), () -> len + " bytes: " + e.getMessage());
                }
            }
        }

        @Test
        void storedChecksumMismatch() {
            byte[] bad = good.clone();
            bad[bad.length - 2] ^= 0x10;
            for (EncodedSize size : new EncodedSize[] {EncodedSize.fixed(data.length), EncodedSize.unbounded()}) {
                CorruptDataException e = corrupt(bad, size);
                assertInstanceOf(ChecksumMismatchException.class, e);
                assertMessage(e, "checksum mismatch in frame 1");
            }
        }

        @Test
        void alteredContentFailsTheChecksum() {
            byte[] noise = random(50_000, 3); // stored as raw blocks: a flipped byte still decodes
            for (byte[] frame : new byte[][] {encode(codec(3, true), noise), streamingFrame(noise, 3, true, 8192)}) {
                byte[] bad = frame.clone();
                bad[bad.length / 2] ^= 1;
                for (EncodedSize size : new EncodedSize[] {EncodedSize.fixed(noise.length), EncodedSize.unbounded()}) {
                    CorruptDataException e = corrupt(bad, size);
                    assertInstanceOf(ChecksumMismatchException.class, e, e.getMessage());
                    assertEquals("ZARR-CHECKSUM", e.code());
                }
            }
        }

        @Test
        void invalidCompressedBlock() {
            byte[] bad = encode(codec(3, false), data);
            int start = TestData.headerLength(bad) + 3;
            Arrays.fill(bad, start, start + 40, (byte) 0xff);
            for (EncodedSize size : new EncodedSize[] {EncodedSize.fixed(data.length), EncodedSize.unbounded()}) {
                CorruptDataException e = corrupt(bad, size);
                assertMessage(e, "invalid data in frame 1 at offset 0", "libzstd error");
            }
        }

        @Test
        void headerDeclaringMoreThanItsBlocksHold() {
            byte[] frame = handFrame(100 << 20, 0, rleBlock(10, (byte) 1, false), rawBlock(new byte[5], true));
            assertMessage(corrupt(frame, EncodedSize.unbounded()), "declares 104857600 decoded bytes",
                    "blocks can hold at most 15");
        }

        @Test
        void frameDecodingToMoreThanItDeclares() {
            byte[] frame = handFrame(5, 0, rawBlock(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, true));
            assertMessage(corrupt(frame, EncodedSize.unbounded()), "more than the 5 bytes its header declares");
        }

        @Test
        void corruptionGivesAnErrorOrTheRightAnswerNeverAWrongOne() {
            Random r = new Random(42);
            byte[] stream = streamingFrame(data, 3, true, 50_000);
            for (byte[] frame : new byte[][] {good, stream}) {
                for (int i = 0; i < 300; i++) {
                    byte[] bad = frame.clone();
                    int at = r.nextInt(bad.length);
                    bad[at] ^= (byte) (1 + r.nextInt(255));
                    for (EncodedSize size : new EncodedSize[] {EncodedSize.fixed(data.length), EncodedSize.unbounded()}) {
                        try {
                            assertArrayEquals(data, decode(bad, size), "corruption at " + at + " decoded to wrong data");
                        } catch (CorruptDataException expected) {
                            // detected
                        }
                    }
                }
            }
        }
    }

    @Nested
    class DecodedSize {
        final byte[] data = compressible(1000, 8);
        final byte[] encoded = encode(codec(3, false), data);
        final byte[] streamed = streamingFrame(data, 3, false, 1 << 20);

        /** What the pipeline asks before it allocates: the header's size, or the blocks' bound without one. */
        @Test
        void theBytesSayTheirDecodedSizeWithoutDecoding() {
            assertEquals(EncodedSize.fixed(1000), codec(3, false).decodedSize(buf(encoded)));
            EncodedSize bound = codec(3, false).decodedSize(buf(streamed));
            assertTrue(bound instanceof EncodedSize.Bounded b && b.maxBytes() >= 1000 && b.maxBytes() <= 1 << 17, bound::toString);
            byte[] two = concat(encoded, encoded);
            assertEquals(EncodedSize.fixed(2000), codec(3, false).decodedSize(buf(two)));
            assertMessage(assertThrows(CorruptDataException.class,
                    () -> codec(3, false).decodedSize(buf(java.util.Arrays.copyOf(encoded, 7)))), "truncated");
        }

        @Test
        void fixedTooSmallIsRejectedFromTheHeader() {
            assertMessage(corrupt(encoded, EncodedSize.fixed(999)), "declare 1000 decoded bytes",
                    "more than the expected 999", "nothing decoded");
        }

        @Test
        void fixedTooSmallWithoutDeclaredSizeStopsDecoding() {
            assertMessage(corrupt(streamed, EncodedSize.fixed(999)), "larger than the expected 999 bytes");
            assertMessage(corrupt(streamed, EncodedSize.fixed(0)), "larger than the expected 0 bytes");
        }

        @Test
        void fixedTooLarge() {
            // The header's size settles it before decoding; without one, the compressed block could hold more.
            assertMessage(corrupt(encoded, EncodedSize.fixed(2000)), "can decode to at most 1000 bytes, expected 2000");
            assertMessage(corrupt(rleFrame(1000, -1), EncodedSize.fixed(2000)), "can decode to at most 1000 bytes");
            assertMessage(corrupt(streamed, EncodedSize.fixed(2000)), "decoded 1000 bytes, expected 2000");
        }

        @Test
        void fixedZero() {
            assertArrayEquals(new byte[0], decode(encode(codec(3, true), new byte[0]), EncodedSize.fixed(0)));
            assertMessage(corrupt(encoded, EncodedSize.fixed(0)), "more than the expected 0");
        }

        @Test
        void bounded() {
            for (byte[] frame : new byte[][] {encoded, streamed}) {
                assertArrayEquals(data, decode(frame, EncodedSize.bounded(1000)));
                assertArrayEquals(data, decode(frame, EncodedSize.bounded(1_000_000)));
            }
            assertMessage(corrupt(encoded, EncodedSize.bounded(500)), "more than the allowed 500");
            assertMessage(corrupt(streamed, EncodedSize.bounded(500)), "larger than the allowed 500 bytes");
        }

        @Test
        void theLimitCoversAllFramesTogether() {
            for (byte[] frame : new byte[][] {encoded, streamed}) {
                byte[] two = concat(frame, frame);
                assertMessage(corrupt(two, EncodedSize.fixed(1500)), "1500");
                assertMessage(corrupt(two, EncodedSize.bounded(1500)), "1500");
                assertArrayEquals(concat(data, data), decode(two, EncodedSize.fixed(2000)));
                assertArrayEquals(concat(data, data), decode(two, EncodedSize.bounded(2000)));
            }
        }

        @Test
        void handBuiltFramesAreValidZstd() {
            byte[] zs = new byte[300_000];
            Arrays.fill(zs, (byte) 'z');
            assertArrayEquals(zs, Zstd.decompress(rleFrame(zs.length, zs.length), zs.length), "libzstd reads them");
            assertArrayEquals(zs, decode(rleFrame(zs.length, -1), EncodedSize.unbounded()));
            assertArrayEquals(zs, decode(rleFrame(zs.length, zs.length), EncodedSize.fixed(zs.length)));
        }

        @Test
        void aBombDeclaringItsSizeIsRejectedBeforeDecoding() {
            byte[] bomb = rleFrame(100 << 20, 100 << 20);
            assertTrue(bomb.length < 4000, "the bomb is tiny: " + bomb.length);
            assertQuickAndSmall(() -> {
                for (EncodedSize size : new EncodedSize[] {EncodedSize.fixed(1000), EncodedSize.bounded(1000)}) {
                    assertMessage(corrupt(bomb, size), "declare 104857600 decoded bytes", "1000", "decompression bomb");
                }
            });
        }

        @Test
        void aBombWithoutDeclaredSizeStopsAtTheLimit() {
            byte[] bomb = rleFrame(100 << 20, -1);
            assertQuickAndSmall(() -> {
                for (EncodedSize size : new EncodedSize[] {EncodedSize.fixed(1000), EncodedSize.bounded(1000)}) {
                    assertMessage(corrupt(bomb, size), "larger than the", "1000 bytes", "decompression bomb");
                }
            });
        }

        @Test
        void aLyingHeaderIsRejectedWithoutAllocatingItsClaim() {
            byte[] liar = handFrame(1L << 30, 0, rleBlock(1000, (byte) 0, true));
            assertQuickAndSmall(() -> {
                for (EncodedSize size : new EncodedSize[] {EncodedSize.unbounded(), EncodedSize.fixed(1L << 30)}) {
                    assertMessage(corrupt(liar, size), "declares 1073741824 decoded bytes", "at most 1000");
                }
            });
        }

        @Test
        void aHugeExpectedSizeIsNotAllocatedForATinyFrame() {
            assertQuickAndSmall(() -> assertMessage(corrupt(streamed, EncodedSize.fixed(1L << 30)),
                    "can decode to at most", "expected 1073741824"));
        }

        private void assertQuickAndSmall(Runnable check) {
            check.run(); // warm up: class loading and native contexts
            long before = TestData.allocatedBytes();
            long start = System.nanoTime();
            check.run();
            long millis = (System.nanoTime() - start) / 1_000_000;
            long allocated = TestData.allocatedBytes() - before;
            assertTrue(millis < 1000, "took " + millis + " ms");
            assumeTrue(before >= 0, "allocation counter not available");
            assertTrue(allocated < 1 << 20, "allocated " + allocated + " bytes");
        }
    }

    @Nested
    class EncodedSizes {
        @Test
        void unknownDecodedSizeGivesUnbounded() {
            assertEquals(EncodedSize.unbounded(), codec(3, false).encodedSize(EncodedSize.unbounded()));
            assertEquals(EncodedSize.unbounded(), codec(3, false).encodedSize(EncodedSize.fixed(Long.MAX_VALUE)));
        }

        @Test
        void boundIsLibzstdsCompressBound() {
            for (long n : new long[] {0, 1, 100, 131071, 131072, 131073, 1 << 20, 123_456_789}) {
                assertEquals(Zstd.compressBound(n), ZstdCodec.compressBound(n), "n = " + n);
                assertEquals(EncodedSize.bounded(Zstd.compressBound(n)), codec(3, true).encodedSize(EncodedSize.fixed(n)));
                assertEquals(EncodedSize.bounded(Zstd.compressBound(n)), codec(3, true).encodedSize(EncodedSize.bounded(n)));
            }
        }

        @Test
        void everyLevelStaysWithinTheBoundOnIncompressibleData() {
            for (int level : new int[] {ZstdConfiguration.MIN_LEVEL, -5, 0, 3, 19}) {
                for (boolean checksum : new boolean[] {false, true}) {
                    ZstdCodec c = codec(level, checksum);
                    for (int n : SIZES) {
                        byte[] encoded = encode(c, random(n, level + n));
                        long bound = c.encodedSize(EncodedSize.fixed(n)).max();
                        assertTrue(encoded.length <= bound, level + "/" + checksum + "/" + n + ": " + encoded.length
                                + " > " + bound);
                    }
                }
            }
        }
    }

    @Nested
    class Buffers {
        final byte[] data = compressible(100_000, 11);

        @Test
        void inputPositionAndLimitAreRespectedAndLeftAlone() {
            byte[] padded = concat(new byte[] {9, 9, 9}, data, new byte[] {8, 8});
            ByteBuffer in = ByteBuffer.wrap(padded, 3, data.length);
            ByteBuffer encoded = codec(3, true).encode(in);
            assertEquals(3, in.position());
            assertEquals(3 + data.length, in.limit());
            byte[] enc = bytes(encoded);
            for (byte[] frame : new byte[][] {enc, streamingFrame(data, 3, true, 30_000)}) {
                ByteBuffer framed = ByteBuffer.wrap(concat(new byte[] {7}, frame, new byte[] {6}), 1, frame.length);
                ByteBuffer sliced = framed.slice(); // a non-zero array offset
                for (EncodedSize size : new EncodedSize[] {EncodedSize.fixed(data.length), EncodedSize.unbounded()}) {
                    assertArrayEquals(data, bytes(codec(0, false).decode(framed, size)));
                    assertArrayEquals(data, bytes(codec(0, false).decode(sliced, size)));
                }
                assertEquals(1, framed.position());
                assertEquals(1 + frame.length, framed.limit());
            }
        }

        @Test
        void directAndReadOnlyBuffers() {
            ByteBuffer offsetDirect = direct(concat(new byte[5], data)).position(5).slice();
            for (ByteBuffer in : new ByteBuffer[] {direct(data), offsetDirect, buf(data).asReadOnlyBuffer()}) {
                byte[] enc = bytes(codec(3, true).encode(in));
                assertEquals(0, in.position());
                assertArrayEquals(encode(codec(3, true), data), enc, "same frame whatever the buffer");
                for (ByteBuffer e : new ByteBuffer[] {direct(enc), buf(enc).asReadOnlyBuffer(), direct(enc).asReadOnlyBuffer()}) {
                    assertArrayEquals(data, bytes(codec(0, false).decode(e, EncodedSize.fixed(data.length))));
                    assertEquals(0, e.position());
                }
            }
        }

        @Test
        void resultsStartAtZeroAndHoldExactlyTheBytes() {
            ByteBuffer enc = codec(3, false).encode(buf(data));
            assertEquals(0, enc.position());
            ByteBuffer directEnc = codec(3, false).encode(direct(data));
            assertEquals(0, directEnc.position());
            assertEquals(enc.remaining(), directEnc.remaining());
            for (EncodedSize size : new EncodedSize[] {EncodedSize.fixed(data.length), EncodedSize.unbounded()}) {
                ByteBuffer dec = codec(3, false).decode(enc, size);
                assertEquals(0, dec.position());
                assertEquals(data.length, dec.remaining());
                assertFalse(dec.isReadOnly());
            }
        }
    }
}
