package dev.zarrj.codec.blosc.internal;

import static dev.zarrj.codec.blosc.internal.TestData.bytes;
import static dev.zarrj.codec.blosc.internal.TestData.intLE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.codec.blosc.BloscConfiguration;
import dev.zarrj.codec.blosc.BloscConfiguration.Compressor;
import dev.zarrj.codec.blosc.BloscConfiguration.Shuffle;
import dev.zarrj.conformance.vectors.SharedVectors;
import dev.zarrj.core.DataTypes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class BloscCodecTest {
    static final String CNAME_POINTER = "/codecs/1/configuration/cname";
    static final String TYPESIZE_POINTER = "/codecs/1/configuration/typesize";

    static BloscCodec codec(Compressor cname, int clevel, Shuffle shuffle, int typesize) {
        return codec(new BloscConfiguration(cname, clevel, shuffle, typesize, 0), TestData.system());
    }

    static BloscCodec codec(BloscConfiguration config, BloscLibrary library) {
        return new BloscCodec(config, () -> library, CNAME_POINTER, TYPESIZE_POINTER);
    }

    static BloscCodec lz4() {
        return codec(Compressor.LZ4, 5, Shuffle.SHUFFLE, 4);
    }

    /** Compressible data of {@code n} bytes, in a frame of several blocks where the compressor allows it. */
    static byte[] frame(Compressor cname, Shuffle shuffle, int n) {
        BloscCodec c = codec(new BloscConfiguration(cname, 5, shuffle, 4, 1024), TestData.system());
        return bytes(c.encode(ByteBuffer.wrap(TestData.numbers(n, 4, n))));
    }

    static CorruptDataException rejected(byte[] frame, EncodedSize expected) {
        return assertThrows(CorruptDataException.class,
                () -> codec(lz4().bloscConfiguration(), TestData.noDecompression()).decode(ByteBuffer.wrap(frame),
                        expected));
    }

    static void assertMessage(Exception e, String... parts) {
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), "expected '" + p + "' in: " + e.getMessage());
        }
        assertTrue(e.getMessage().contains("blosc"), e.getMessage());
    }

    // ---- round trips ----

    static Stream<Arguments> settings() {
        List<Arguments> out = new ArrayList<>();
        for (Compressor c : Compressor.values()) {
            for (Shuffle s : Shuffle.values()) {
                for (int clevel : new int[] {0, 1, 5, 9}) {
                    out.add(Arguments.of(c, s, clevel));
                }
            }
        }
        return out.stream();
    }

    /**
     * Every compressor, shuffle and a range of levels, type sizes and odd sizes round-trip, and the
     * frame's header records the settings: proof that they reach c-blosc.
     */
    @ParameterizedTest(name = "{0} {1} clevel {2}")
    @MethodSource("settings")
    void roundTripsAndRecordsTheSettingsInTheFrame(Compressor cname, Shuffle shuffle, int clevel) {
        assumeTrue(TestData.system().compressors().contains(cname.jsonName()), cname + " not in this c-blosc");
        for (int typesize : new int[] {1, 2, 4, 8}) {
            BloscCodec codec = codec(cname, clevel, shuffle, typesize);
            for (int n : new int[] {0, 1, 3, 7, 255, 8 * 1000 + 3, 70_001}) {
                byte[] data = n % 2 == 0 ? TestData.random(n, n) : TestData.numbers(n, typesize, n);
                String where = cname + " " + shuffle + " clevel " + clevel + " typesize " + typesize + " n " + n;
                byte[] frame = bytes(codec.encode(ByteBuffer.wrap(data)));
                assertTrue(frame.length <= n + 16, where);
                BloscHeader h = BloscHeader.read(ByteBuffer.wrap(frame), EncodedSize.fixed(n), installed());
                assertEquals(n, h.nbytes(), where);
                assertEquals(frame.length, h.cbytes(), where);
                assertEquals(typesize, h.typesize(), where);
                assertEquals(shuffle == Shuffle.SHUFFLE, (h.flags() & BloscHeader.BYTE_SHUFFLE) != 0, where);
                assertEquals(shuffle == Shuffle.BITSHUFFLE, (h.flags() & BloscHeader.BIT_SHUFFLE) != 0, where);
                if (clevel == 0) {
                    assertTrue(h.memcpyed(), "clevel 0 stores: " + where);
                }
                if (!h.memcpyed()) {
                    assertEquals(cname == Compressor.LZ4HC ? "lz4" : cname.jsonName(), h.formatName(), where);
                }
                assertArrayEquals(data, bytes(codec.decode(ByteBuffer.wrap(frame), EncodedSize.fixed(n))), where);
            }
            // c-blosc gives snappy an unsplit block only when the output buffer could hold snappy's worst
            // case; with the n + 16 bytes that the spec's bound (and numcodecs) allow, it stores such
            // blocks, so snappy with typesize 1 never compresses 64 KiB blocks.
            if (clevel > 0 && !(cname == Compressor.SNAPPY && typesize == 1)) {
                byte[] runs = runs(70_001, typesize);
                byte[] frame = bytes(codec.encode(ByteBuffer.wrap(runs)));
                assertTrue(frame.length < runs.length / 4, "runs compress: " + typesize + " -> " + frame.length);
                assertArrayEquals(runs, bytes(codec.decode(ByteBuffer.wrap(frame), EncodedSize.fixed(runs.length))));
            }
        }
    }

    static Set<String> installed() {
        return TestData.system().compressors();
    }

    /** Little-endian elements {@code i / 16}: runs that every compressor shrinks. */
    static byte[] runs(int n, int typesize) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            long element = (i / typesize) / 16;
            b[i] = (byte) (element >>> (8 * (i % typesize)));
        }
        return b;
    }

    @ParameterizedTest
    @EnumSource(TestData.Kind.class)
    void anyKindOfBufferEncodesAndDecodesTheSame(TestData.Kind kind) {
        for (BloscCodec codec : List.of(lz4(), codec(Compressor.ZSTD, 0, Shuffle.BITSHUFFLE, 8))) {
            byte[] data = TestData.numbers(40_003, 4, 3);
            byte[] expected = bytes(codec.encode(ByteBuffer.wrap(data)));
            ByteBuffer in = kind.wrap(data);
            int position = in.position();
            assertArrayEquals(expected, bytes(codec.encode(in)), kind + " " + codec);
            assertEquals(position, in.position(), "the input is not consumed");
            ByteBuffer frame = kind.wrap(expected);
            assertArrayEquals(data, bytes(codec.decode(frame, EncodedSize.fixed(data.length))), kind + " " + codec);
            assertEquals(position, frame.position(), "the frame is not consumed");
        }
    }

    /**
     * A direct input reaches c-blosc where it is, at its position, without a copy; a heap input
     * is copied once, into pooled native memory.
     */
    @ParameterizedTest
    @EnumSource(TestData.Kind.class)
    void aDirectInputReachesCBloscWithoutACopy(TestData.Kind kind) {
        List<Long> sources = new ArrayList<>();
        BloscLibrary recording = new TestData.Delegating(TestData.system()) {
            @Override
            public int compress(int clevel, int doshuffle, int typesize, ByteBuffer src, int srcSize, ByteBuffer dest,
                                int destSize, String compressor, int blocksize) {
                sources.add(TestData.address(src));
                return super.compress(clevel, doshuffle, typesize, src, srcSize, dest, destSize, compressor, blocksize);
            }

            @Override
            public int decompress(ByteBuffer src, ByteBuffer dest, int destSize) {
                sources.add(TestData.address(src));
                return super.decompress(src, dest, destSize);
            }
        };
        BloscCodec codec = codec(lz4().bloscConfiguration(), recording);
        byte[] data = TestData.numbers(50_001, 4, 8);
        ByteBuffer in = kind.wrap(data);
        byte[] frame = bytes(codec.encode(in));
        ByteBuffer encoded = kind.wrap(frame);
        assertArrayEquals(data, bytes(codec.decode(encoded, EncodedSize.fixed(data.length))));
        assertEquals(2, sources.size());
        if (kind.direct()) {
            assertEquals(TestData.address(in), sources.get(0), "encode: the input itself");
            assertEquals(TestData.address(encoded), sources.get(1), "decode: the frame itself");
        } else {
            assertTrue(sources.stream().allMatch(a -> a != 0), "a heap input is copied to native memory");
        }
    }

    @Test
    void decodesWithABoundedOrUnknownSize() {
        byte[] data = TestData.numbers(10_000, 2, 1);
        ByteBuffer frame = lz4().encode(ByteBuffer.wrap(data));
        assertArrayEquals(data, bytes(lz4().decode(frame.duplicate(), EncodedSize.bounded(10_000))));
        assertArrayEquals(data, bytes(lz4().decode(frame.duplicate(), EncodedSize.bounded(1 << 20))));
        assertArrayEquals(data, bytes(lz4().decode(frame.duplicate(), EncodedSize.unbounded())));
    }

    /** zstd and zlib blocks are never split, so c-blosc keeps the block size asked for. */
    @Test
    void theBlocksizeReachesTheFrame() {
        byte[] data = TestData.numbers(70_001, 4, 9);
        BloscCodec codec = codec(new BloscConfiguration(Compressor.ZSTD, 5, Shuffle.SHUFFLE, 4, 4096),
                TestData.system());
        byte[] frame = bytes(codec.encode(ByteBuffer.wrap(data)));
        assertEquals(4096, intLE(frame, 8));
        assertArrayEquals(data, bytes(codec.decode(ByteBuffer.wrap(frame), EncodedSize.fixed(data.length))));
    }

    @Test
    void aTypesizeAbove255RoundTrips() {
        // c-blosc's header holds one byte; it compresses larger strides as typesize 1.
        BloscCodec codec = codec(Compressor.LZ4, 5, Shuffle.SHUFFLE, 300);
        byte[] data = TestData.numbers(9_000, 4, 2);
        byte[] frame = bytes(codec.encode(ByteBuffer.wrap(data)));
        assertEquals(1, frame[3]);
        assertArrayEquals(data, bytes(codec.decode(ByteBuffer.wrap(frame), EncodedSize.fixed(data.length))));
    }

    @Test
    void encodingIsDeterministic() {
        byte[] data = TestData.numbers(100_000, 8, 4);
        BloscCodec codec = codec(Compressor.ZSTD, 7, Shuffle.BITSHUFFLE, 8);
        assertArrayEquals(bytes(codec.encode(ByteBuffer.wrap(data))), bytes(codec.encode(ByteBuffer.wrap(data))));
    }

    // ---- stored frames ----

    @Test
    void aStoredFrameDecodesToAViewOfTheInput() {
        byte[] data = TestData.random(1000, 5);
        byte[] frame = bytes(codec(Compressor.LZ4, 0, Shuffle.SHUFFLE, 4).encode(ByteBuffer.wrap(data)));
        assertTrue(BloscHeader.read(ByteBuffer.wrap(frame), EncodedSize.fixed(1000), installed()).memcpyed());
        ByteBuffer decoded = codec(lz4().bloscConfiguration(), TestData.noDecompression())
                .decode(ByteBuffer.wrap(frame), EncodedSize.fixed(1000));
        assertSame(frame, decoded.array(), "no copy");
        assertArrayEquals(data, bytes(decoded));
    }

    /** The shortcut for stored frames gives what c-blosc gives, also for shuffled settings. */
    @ParameterizedTest
    @EnumSource(Shuffle.class)
    void storedFramesDecodeAsCBloscDecodesThem(Shuffle shuffle) {
        for (byte[] data : List.of(TestData.random(4099, 1), TestData.numbers(8, 4, 1))) {
            byte[] frame = bytes(codec(Compressor.ZSTD, 0, shuffle, 4).encode(ByteBuffer.wrap(data)));
            assertArrayEquals(cBloscDecode(frame, data.length), bytes(lz4().decode(ByteBuffer.wrap(frame),
                    EncodedSize.fixed(data.length))));
        }
    }

    static byte[] cBloscDecode(byte[] frame, int n) {
        ByteBuffer src = ByteBuffer.allocateDirect(frame.length).put(frame).flip();
        ByteBuffer dest = ByteBuffer.allocateDirect(n);
        assertEquals(n, TestData.system().decompress(src, dest, n));
        byte[] out = new byte[n];
        dest.get(0, out);
        return out;
    }

    // ---- sizes ----

    @Test
    void encodedSizeIsBoundedBySixteenBytesOfHeader() {
        BloscCodec c = lz4();
        assertEquals(EncodedSize.bounded(116), c.encodedSize(EncodedSize.fixed(100)));
        assertEquals(EncodedSize.bounded(116), c.encodedSize(EncodedSize.bounded(100)));
        assertEquals(EncodedSize.bounded(16), c.encodedSize(EncodedSize.fixed(0)));
        assertEquals(EncodedSize.unbounded(), c.encodedSize(EncodedSize.unbounded()));
        assertEquals(EncodedSize.unbounded(), c.encodedSize(EncodedSize.fixed(Long.MAX_VALUE - 3)));
    }

    @ParameterizedTest
    @EnumSource(Compressor.class)
    void incompressibleDataMeetsTheBound(Compressor cname) {
        assumeTrue(TestData.system().compressors().contains(cname.jsonName()));
        for (int n : new int[] {1, 100, 65_537, 300_000}) {
            ByteBuffer frame = codec(cname, 9, Shuffle.BITSHUFFLE, 8).encode(ByteBuffer.wrap(TestData.random(n, n)));
            assertTrue(frame.remaining() <= lz4().encodedSize(EncodedSize.fixed(n)).max(), cname + " " + n);
        }
    }

    /** What the pipeline asks before it allocates: the header's decoded size, without reaching c-blosc. */
    @Test
    void theHeaderSaysTheDecodedSize() {
        byte[] f = frame(Compressor.LZ4, Shuffle.SHUFFLE, 70_001);
        BloscCodec c = codec(lz4().bloscConfiguration(), TestData.noDecompression());
        ByteBuffer in = ByteBuffer.wrap(f);
        assertEquals(EncodedSize.fixed(70_001), c.decodedSize(in));
        assertEquals(0, in.position());
        assertMessage(assertThrows(CorruptDataException.class,
                () -> c.decodedSize(ByteBuffer.wrap(f, 0, f.length - 1))), "truncated");
    }

    // ---- typesize ----

    @Test
    void withoutTypesizeShufflingCannotEncodeAndSaysWhy() {
        BloscCodec codec = codec(Compressor.LZ4, 5, Shuffle.BITSHUFFLE, 0);
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> codec.encode(ByteBuffer.wrap(new byte[8])));
        assertEquals(TYPESIZE_POINTER, e.pointer());
        assertMessage(e, "'typesize' is required", "\"bitshuffle\"");
        // Reading needs no typesize: the frame records it.
        byte[] data = TestData.numbers(1000, 4, 1);
        assertArrayEquals(data, bytes(codec.decode(lz4().encode(ByteBuffer.wrap(data)), EncodedSize.fixed(1000))));
    }

    @Test
    void withoutTypesizeNoshuffleEncodesWithStrideOne() {
        BloscCodec codec = codec(Compressor.LZ4, 5, Shuffle.NOSHUFFLE, 0);
        byte[] data = TestData.numbers(1000, 4, 1);
        byte[] frame = bytes(codec.encode(ByteBuffer.wrap(data)));
        assertEquals(1, frame[3]);
        assertArrayEquals(data, bytes(codec.decode(ByteBuffer.wrap(frame), EncodedSize.fixed(1000))));
    }

    @Test
    void resolveDefaultsRecordsTheDataTypeSize() {
        ChunkSpec float64 = spec(DataTypes.FLOAT64);
        BloscCodec auto = codec(Compressor.ZSTD, 3, Shuffle.SHUFFLE, 0);
        BloscCodec resolved = (BloscCodec) auto.resolveDefaults(float64);
        assertEquals(8, resolved.bloscConfiguration().typesize());
        assertEquals(8, resolved.configuration().get("typesize").intValue());
        assertEquals(5, resolved.configuration().size(), "all five fields: " + resolved.configuration());
        assertSame(resolved, resolved.resolveDefaults(spec(DataTypes.INT16)), "a set typesize is kept");
        BloscCodec explicit = codec(Compressor.ZSTD, 3, Shuffle.SHUFFLE, 2);
        assertSame(explicit, explicit.resolveDefaults(float64));
        BloscCodec noshuffle = (BloscCodec) codec(Compressor.ZSTD, 3, Shuffle.NOSHUFFLE, 0).resolveDefaults(spec(DataTypes.INT16));
        assertEquals(2, noshuffle.bloscConfiguration().typesize(), "recorded for noshuffle too");
    }

    static ChunkSpec spec(DataType type) {
        return new ChunkSpec(type, new long[] {10}, type.defaultFillValue());
    }

    // ---- bad frames ----

    @Test
    void anEmptyOrShortInputIsRejected() {
        assertMessage(rejected(new byte[0], EncodedSize.fixed(0)), "empty input");
        assertMessage(rejected(new byte[15], EncodedSize.fixed(0)), "truncated", "15 bytes");
    }

    @Test
    void everyTruncationIsRejected() {
        byte[] frame = frame(Compressor.LZ4, Shuffle.SHUFFLE, 5000);
        for (int cut = 16; cut < frame.length; cut++) {
            byte[] part = java.util.Arrays.copyOf(frame, cut);
            assertMessage(rejected(part, EncodedSize.fixed(5000)), "truncated", frame.length + " bytes",
                    "only " + cut);
        }
    }

    @Test
    void trailingBytesAreRejected() {
        byte[] frame = frame(Compressor.ZSTD, Shuffle.SHUFFLE, 5000);
        byte[] longer = java.util.Arrays.copyOf(frame, frame.length + 3);
        assertMessage(rejected(longer, EncodedSize.fixed(5000)), "3 trailing bytes");
    }

    @Test
    void aFrameOfAnotherSizeIsRejectedBeforeDecompressing() {
        byte[] frame = frame(Compressor.LZ4, Shuffle.SHUFFLE, 5000);
        assertMessage(rejected(frame, EncodedSize.fixed(4999)), "decodes to 5000 bytes, expected 4999");
        assertMessage(rejected(frame, EncodedSize.bounded(4000)), "decodes to 5000 bytes", "4000 allowed");
        byte[] lying = frame.clone();
        TestData.putIntLE(lying, 4, 5001);
        assertMessage(rejected(lying, EncodedSize.fixed(5000)), "decodes to 5001 bytes, expected 5000");
    }

    /** A small frame that claims a huge decoded size: refused from the header, nothing allocated. */
    @Test
    void aDecompressionBombIsRejectedFromTheHeader() {
        byte[] bomb = frame(Compressor.ZSTD, Shuffle.NOSHUFFLE, 5000);
        TestData.putIntLE(bomb, 4, 2_000_000_000);
        TestData.putIntLE(bomb, 8, 2_000_000_000);
        assertMessage(rejected(bomb, EncodedSize.fixed(5000)), "2000000000 bytes, expected 5000");
        assertMessage(rejected(bomb, EncodedSize.bounded(1 << 20)), "2000000000 bytes", "1048576 allowed");
        TestData.putIntLE(bomb, 4, -1);
        assertMessage(rejected(bomb, EncodedSize.unbounded()), "4294967295", "maximum of 2147483631");
        byte[] manyBlocks = frame(Compressor.ZSTD, Shuffle.NOSHUFFLE, 5000);
        TestData.putIntLE(manyBlocks, 4, 2_000_000_000);
        assertMessage(rejected(manyBlocks, EncodedSize.unbounded()), "truncated", "table of offsets");
    }

    @Test
    void inconsistentHeadersAreRejected() {
        byte[] frame = frame(Compressor.LZ4, Shuffle.SHUFFLE, 5000);
        EncodedSize n = EncodedSize.fixed(5000);
        byte[] b = frame.clone();
        b[0] = 3;
        assertMessage(rejected(b, n), "format version 3", "c-blosc2");
        b = frame.clone();
        b[0] = 0;
        assertMessage(rejected(b, n), "not a blosc 1.x frame");
        b = frame.clone();
        b[2] |= 0x08;
        assertMessage(rejected(b, n), "reserved flag");
        b = frame.clone();
        b[3] = 0;
        assertMessage(rejected(b, n), "typesize 0");
        b = frame.clone();
        TestData.putIntLE(b, 8, 0);
        assertMessage(rejected(b, n), "block size 0");
        b = frame.clone();
        TestData.putIntLE(b, 8, 5001);
        assertMessage(rejected(b, n), "block size 5001");
        b = frame.clone();
        b[2] |= BloscHeader.MEMCPYED;
        assertMessage(rejected(b, n), "uncompressed frame of 5000 decoded bytes must have 5016 bytes");
        b = frame.clone();
        b[2] = (byte) ((b[2] & 0x1f) | (7 << 5));
        assertMessage(rejected(b, n), "compressed with unknown (7)");
    }

    @Test
    void aFrameWhoseCompressorIsNotInstalledSaysSo() {
        assumeTrue(TestData.system().compressors().contains("snappy"));
        byte[] frame = frame(Compressor.SNAPPY, Shuffle.SHUFFLE, 5000);
        BloscCodec withoutSnappy = codec(lz4().bloscConfiguration(),
                TestData.withCompressors(Set.of("blosclz", "lz4", "lz4hc", "zlib", "zstd")));
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> withoutSnappy.decode(ByteBuffer.wrap(frame), EncodedSize.fixed(5000)));
        assertMessage(e, "compressed with snappy", "does not include", "zstd");
    }

    /** Offsets in the frame pointing outside it: c-blosc refuses, and so does the codec. */
    @Test
    void corruptBlockOffsetsAreRejected() {
        byte[] frame = frame(Compressor.LZ4, Shuffle.SHUFFLE, 5000);
        assertFalse(BloscHeader.read(ByteBuffer.wrap(frame), EncodedSize.fixed(5000), Set.of("lz4")).memcpyed());
        byte[] b = frame.clone();
        TestData.putIntLE(b, 16, frame.length + 100);
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> lz4().decode(ByteBuffer.wrap(b), EncodedSize.fixed(5000)));
        assertMessage(e, "corrupt frame", "rejected it");
    }

    /**
     * Random damage anywhere in frames of every compressor either decodes (blosc has no checksum)
     * to the expected size or fails with a {@link CorruptDataException}; never anything else.
     */
    @ParameterizedTest
    @EnumSource(Compressor.class)
    void randomDamageIsContained(Compressor cname) {
        assumeTrue(TestData.system().compressors().contains(cname.jsonName()));
        for (Shuffle shuffle : Shuffle.values()) {
            byte[] frame = frame(cname, shuffle, 6000);
            Random r = new Random(cname.ordinal() * 31L + shuffle.ordinal());
            for (int trial = 0; trial < 300; trial++) {
                byte[] b = frame.clone();
                int damage = 1 + r.nextInt(4);
                for (int i = 0; i < damage; i++) {
                    int at = trial % 3 == 0 ? r.nextInt(Math.min(b.length, 64)) : r.nextInt(b.length);
                    b[at] = (byte) r.nextInt(256);
                }
                try {
                    assertEquals(6000, lz4().decode(ByteBuffer.wrap(b), EncodedSize.fixed(6000)).remaining());
                } catch (CorruptDataException expected) {
                    assertTrue(expected.getMessage().startsWith("[ZARR-CORRUPT] blosc: "), expected.getMessage());
                }
            }
        }
    }

    // ---- frames written elsewhere ----

    @ParameterizedTest
    @ValueSource(strings = {"zarrita.js/data.zarr/1d.contiguous.i4/c/0"})
    void zarritaFrameDecodes(String file) throws Exception {
        java.util.Optional<java.nio.file.Path> root = SharedVectors.root();
        assumeTrue(root.isPresent(), SharedVectors.ABSENT);
        byte[] frame = java.nio.file.Files.readAllBytes(root.get().resolve(file));
        byte[] decoded = bytes(lz4().decode(ByteBuffer.wrap(frame), EncodedSize.fixed(16)));
        for (int i = 0; i < 4; i++) {
            assertEquals(i + 1, intLE(decoded, 4 * i));
        }
        assertArrayEquals(cBloscDecode(frame, 16), decoded);
    }

    @Test
    void zarrsFramesDecode() throws Exception {
        java.util.Optional<java.nio.file.Path> root = SharedVectors.root();
        assumeTrue(root.isPresent(), SharedVectors.ABSENT);
        for (String chunk : new String[] {"0.0", "0.1", "1.0", "1.1"}) {
            byte[] frame = java.nio.file.Files.readAllBytes(root.get().resolve("zarrs/v3/array_blosc.zarr/" + chunk));
            byte[] decoded = bytes(lz4().decode(ByteBuffer.wrap(frame), EncodedSize.fixed(100)));
            assertArrayEquals(cBloscDecode(frame, 100), decoded, chunk);
            ByteBuffer floats = ByteBuffer.wrap(decoded).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            int row0 = (chunk.charAt(0) - '0') * 5;
            int col0 = (chunk.charAt(2) - '0') * 5;
            for (int i = 0; i < 25; i++) {
                assertEquals((row0 + i / 5) * 10 + col0 + i % 5, floats.getFloat(4 * i), chunk + " element " + i);
            }
        }
    }
}
