package dev.zarrj.codec.blosc.internal;

import static dev.zarrj.codec.blosc.internal.TestData.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.TaskRunner;
import dev.zarrj.codec.blosc.BloscConfiguration;
import dev.zarrj.codec.blosc.BloscConfiguration.Compressor;
import dev.zarrj.codec.blosc.BloscConfiguration.Shuffle;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Sub-frames of whole blocks ({@link BloscBlocks}) decode to exactly their part of the whole
 * frame's decode, for every compressor, shuffle, typesize, level and block size, the last partial
 * block included; frames decoded in pieces and read in parts equal whole decodes; corrupt frames
 * fail as before.
 */
class BloscBlocksTest {
    /** c-blosc, failing the test when it rejects a (sub-)frame: valid frames never fall back to a whole decode. */
    private static final BloscLibrary LIB = new TestData.Delegating(TestData.system()) {
        @Override
        public int decompress(ByteBuffer src, ByteBuffer dest, int destSize) {
            int got = super.decompress(src, dest, destSize);
            if (got != destSize && !corruptInputs) {
                throw new AssertionError("c-blosc rejected a frame: " + got);
            }
            return got;
        }
    };
    private static volatile boolean corruptInputs;

    /** Runs the pieces on several threads, the caller's included. */
    private static final TaskRunner PARALLEL = (n, task) -> IntStream.range(0, n).parallel().forEach(task);

    private static BloscCodec codec(BloscConfiguration config, TaskRunner tasks) {
        return new BloscCodec(config, () -> LIB, "/c", "/t", tasks);
    }

    /** Data of {@code n} bytes that compresses some: runs, slowly varying numbers and noise. */
    private static byte[] data(SplittableRandom r, int n, int typesize) {
        byte[] b = switch (r.nextInt(3)) {
            case 0 -> TestData.numbers(n, typesize, r.nextLong());
            case 1 -> TestData.random(n, r.nextLong());
            default -> new byte[n];
        };
        for (int i = 0; i < n / 64; i++) {
            b[r.nextInt(n)] = (byte) r.nextInt();
        }
        return b;
    }

    private static ByteBuffer direct(byte[] b) {
        return ByteBuffer.allocateDirect(Math.max(1, b.length)).put(b).flip();
    }

    /** c-blosc's own whole decode of a frame. */
    private static byte[] wholeDecode(byte[] frame, int n) {
        ByteBuffer dest = ByteBuffer.allocateDirect(Math.max(1, n));
        int got = LIB.decompress(direct(frame), dest, n);
        assertEquals(n, got, "whole decode");
        byte[] out = new byte[n];
        dest.get(0, out);
        return out;
    }

    private static BloscConfiguration randomConfig(SplittableRandom r) {
        Compressor[] cs = Compressor.values();
        Shuffle[] ss = Shuffle.values();
        int[] typesizes = {1, 2, 3, 4, 8, 16, 17, 255};
        int[] blocksizes = {0, 0, 128, 256, 1000, 4096, 1 << 14, 1 << 16};
        return new BloscConfiguration(cs[r.nextInt(cs.length)], r.nextInt(10), ss[r.nextInt(ss.length)],
                typesizes[r.nextInt(typesizes.length)], blocksizes[r.nextInt(blocksizes.length)]);
    }

    @Test
    void subFramesDecodeToTheirPartOfTheWholeDecode() {
        SplittableRandom r = new SplittableRandom(23);
        int checkedFrames = 0;
        int partialLastBlocks = 0;
        int splitFrames = 0;
        for (int iter = 0; iter < 600; iter++) {
            BloscConfiguration config = randomConfig(r);
            int n = 1 + r.nextInt(r.nextBoolean() ? 4000 : 300_000);
            byte[] plain = data(r, n, config.typesize());
            byte[] frame = bytes(codec(config, TaskRunner.sequential()).encode(ByteBuffer.wrap(plain)));
            BloscHeader h = BloscHeader.read(ByteBuffer.wrap(frame), EncodedSize.fixed(n), LIB.compressors());
            assertArrayEquals(plain, wholeDecode(frame, n), config.toString());
            BloscBlocks blocks = BloscBlocks.of(h, ByteBuffer.wrap(frame));
            if (blocks == null) {
                continue;
            }
            checkedFrames++;
            assertTrue(blocks.streamsFit(ByteBuffer.wrap(frame), 0, 0, blocks.count()),
                    "c-blosc's own frame keeps every stream inside its block: " + config);
            if (n % h.blocksize() != 0) {
                partialLastBlocks++;
            }
            if ((h.flags() & 0x10) == 0 && config.typesize() > 1) {
                splitFrames++;
            }
            for (int k = 0; k < 6; k++) {
                int first = r.nextInt(blocks.count());
                int last = first + 1 + r.nextInt(blocks.count() - first);
                if (k == 0) {
                    last = blocks.count();
                }
                first = blocks.decodableFirst(first, last);
                int size = blocks.subFrameSize(first, last);
                ByteBuffer sub = ByteBuffer.allocateDirect(size + 5);
                assertEquals(size, blocks.writeSubFrame(first, last, ByteBuffer.wrap(frame), 0, sub, 5));
                int dn = blocks.decodedSize(first, last);
                ByteBuffer dest = ByteBuffer.allocateDirect(dn);
                assertEquals(dn, LIB.decompress(sub.slice(5, size), dest, dn), config + " blocks " + first + ".." + last);
                byte[] got = new byte[dn];
                dest.get(0, got);
                byte[] want = new byte[dn];
                System.arraycopy(plain, (int) blocks.decodedStart(first), want, 0, dn);
                assertArrayEquals(want, got, config + " blocks " + first + ".." + last + " of " + blocks.count());
            }
        }
        assertTrue(checkedFrames > 200, "frames of several blocks: " + checkedFrames);
        assertTrue(partialLastBlocks > 100, "frames with a partial last block: " + partialLastBlocks);
        assertTrue(splitFrames > 20, "frames of split blocks: " + splitFrames);
    }

    /**
     * decodeInto splits a large frame only when the caller is not itself running a piece of a
     * parallel read ({@link TaskRunner#inPiece()}): inside one, every thread has chunks of its own.
     */
    @Test
    void decodeIntoSplitsOnlyWhenTheCallerIsNotInAPiece() {
        SplittableRandom r = new SplittableRandom(11);
        for (boolean inPiece : new boolean[] {false, true}) {
            AtomicInteger calls = new AtomicInteger();
            TaskRunner runner = new TaskRunner() {
                @Override
                public void forEach(int n, java.util.function.IntConsumer task) {
                    if (n > 1) {
                        calls.incrementAndGet();
                    }
                    PARALLEL.forEach(n, task);
                }

                @Override
                public boolean inPiece() {
                    return inPiece;
                }
            };
            BloscConfiguration config = new BloscConfiguration(Compressor.ZSTD, 5, Shuffle.SHUFFLE, 4, 0);
            int n = 4 << 20;
            byte[] plain = data(r, n, 4);
            BloscCodec c = codec(config, runner);
            byte[] frame = bytes(c.encode(ByteBuffer.wrap(plain)));
            calls.set(0);
            ByteBuffer heap = ByteBuffer.allocate(n);
            c.decodeInto(ByteBuffer.wrap(frame), heap);
            assertArrayEquals(plain, heap.array());
            ByteBuffer dir = ByteBuffer.allocateDirect(n);
            c.decodeInto(direct(frame), dir);
            byte[] got = new byte[n];
            dir.get(0, got);
            assertArrayEquals(plain, got);
            assertEquals(inPiece ? 0 : 2, calls.get(), "decodeInto calls that split the frame, inPiece " + inPiece);
        }
    }

    @Test
    void largeFramesDecodeInPiecesToTheWholeDecode() {
        SplittableRandom r = new SplittableRandom(5);
        AtomicInteger calls = new AtomicInteger();
        TaskRunner counting = (n, task) -> {
            if (n > 1) {
                calls.incrementAndGet();
            }
            PARALLEL.forEach(n, task);
        };
        for (int iter = 0; iter < 24; iter++) {
            BloscConfiguration config = randomConfig(r);
            int n = BloscCodec.SPLIT_FROM + r.nextInt(3 << 20);
            byte[] plain = data(r, n, config.typesize());
            BloscCodec c = codec(config, counting);
            byte[] frame = bytes(c.encode(ByteBuffer.wrap(plain)));
            assertArrayEquals(plain, bytes(c.decode(ByteBuffer.wrap(frame), EncodedSize.fixed(n))), config.toString());
            assertArrayEquals(plain, bytes(c.decode(direct(frame), EncodedSize.bounded(n))), config.toString());
            ByteBuffer heap = ByteBuffer.allocate(n + 6);
            c.decodeInto(ByteBuffer.wrap(frame), heap.slice(3, n));
            assertArrayEquals(plain, java.util.Arrays.copyOfRange(heap.array(), 3, 3 + n), config.toString());
            ByteBuffer dir = ByteBuffer.allocateDirect(n + 6);
            c.decodeInto(direct(frame), dir.slice(3, n));
            byte[] got = new byte[n];
            dir.get(3, got);
            assertArrayEquals(plain, got, config.toString());
        }
        assertTrue(calls.get() > 20, "frames decoded in pieces: " + calls.get());
    }

    @Test
    void partialReadsEqualTheWholeDecode() {
        SplittableRandom r = new SplittableRandom(11);
        for (int iter = 0; iter < 60; iter++) {
            BloscConfiguration config = randomConfig(r);
            int n = 1 + r.nextInt(iter % 4 == 0 ? 3 << 20 : 200_000);
            byte[] plain = data(r, n, config.typesize());
            BloscCodec c = codec(config, PARALLEL);
            byte[] frame = bytes(c.encode(ByteBuffer.wrap(plain)));
            AtomicInteger read = new AtomicInteger();
            ByteSource stored = counting(ByteSource.of(ByteBuffer.wrap(frame)), read, r.nextBoolean());
            ByteSource s = c.partialDecoder(stored, EncodedSize.fixed(n)).orElseThrow();
            assertEquals(n, s.size().orElseThrow());
            for (int k = 0; k < 8; k++) {
                int start = r.nextInt(n + 1);
                int len = r.nextInt(Math.min(n - start, k < 4 ? 5000 : n) + 1);
                ByteBuffer got = s.read(ByteRange.of(start, len)).orElseThrow();
                assertArrayEquals(java.util.Arrays.copyOfRange(plain, start, start + len), bytes(got),
                        config + " range " + start + "+" + len + " of " + n);
            }
            assertArrayEquals(plain, bytes(s.read(ByteRange.all()).orElseThrow()));
        }
    }

    @Test
    void aPartialReadFetchesOnlyTheBlocksItNeeds() {
        byte[] plain = TestData.numbers(4 << 20, 4, 1);
        BloscCodec c = codec(new BloscConfiguration(Compressor.ZSTD, 5, Shuffle.SHUFFLE, 4, 0), PARALLEL);
        byte[] frame = bytes(c.encode(ByteBuffer.wrap(plain)));
        AtomicInteger read = new AtomicInteger();
        ByteSource s = c.partialDecoder(counting(ByteSource.of(ByteBuffer.wrap(frame)), read, false),
                EncodedSize.fixed(plain.length)).orElseThrow();
        ByteBuffer got = s.read(ByteRange.of(100, 1000)).orElseThrow();
        assertArrayEquals(java.util.Arrays.copyOfRange(plain, 100, 1100), bytes(got));
        assertTrue(read.get() < frame.length / 4, read.get() + " of " + frame.length + " bytes read");
    }

    @Test
    void absentValuesStayAbsent() {
        BloscCodec c = codec(new BloscConfiguration(Compressor.LZ4, 5, Shuffle.SHUFFLE, 4, 0), PARALLEL);
        ByteSource none = range -> Optional.empty();
        ByteSource s = c.partialDecoder(none, EncodedSize.fixed(1000)).orElseThrow();
        assertTrue(s.read(ByteRange.of(10, 20)).isEmpty());
        assertTrue(s.read(ByteRange.of(0, 0)).isEmpty());
        assertTrue(c.partialDecoder(none, EncodedSize.bounded(1000)).isEmpty());
    }

    @Test
    void streamsRunningPastTheirBlockAreNotDecodedInPieces() {
        byte[] plain = TestData.numbers(100_000, 4, 2);
        byte[] frame = bytes(codec(new BloscConfiguration(Compressor.LZ4, 5, Shuffle.SHUFFLE, 4, 4096),
                TaskRunner.sequential()).encode(ByteBuffer.wrap(plain)));
        BloscHeader h = BloscHeader.read(ByteBuffer.wrap(frame), EncodedSize.fixed(plain.length), LIB.compressors());
        BloscBlocks blocks = BloscBlocks.of(h, ByteBuffer.wrap(frame));
        assertNotNull(blocks);
        assertTrue(blocks.streamsFit(ByteBuffer.wrap(frame), 0, 0, blocks.count()));
        // Block 0's first stream claims to run to the end of the frame, through the blocks after it.
        int start = TestData.intLE(frame, 16);
        byte[] overrun = frame.clone();
        TestData.putIntLE(overrun, start, frame.length - start - 4);
        assertTrue(!blocks.streamsFit(ByteBuffer.wrap(overrun), 0, 0, 1), "block 0 alone");
        assertTrue(blocks.streamsFit(ByteBuffer.wrap(overrun), 0, 1, blocks.count()), "the others are intact");
        assertEquals(false, codec(new BloscConfiguration(Compressor.LZ4, 5, Shuffle.SHUFFLE, 4, 4096), PARALLEL)
                .decodePieces(LIB, blocks, 0, blocks.count(), ByteBuffer.wrap(overrun), 0,
                        ByteBuffer.allocateDirect(plain.length), null, true), "decoded whole instead");
        // A block size of 0 (c-blosc refuses the frame) has no blocks, rather than a division by zero.
        assertEquals(0, BloscBlocks.count(new BloscHeader(h.flags(), 4, plain.length, 0, frame.length)));
    }

    @Test
    void layoutsThatAreNotPlainAreRefused() {
        byte[] plain = TestData.numbers(100_000, 4, 2);
        byte[] frame = bytes(codec(new BloscConfiguration(Compressor.LZ4, 5, Shuffle.SHUFFLE, 4, 4096),
                TaskRunner.sequential()).encode(ByteBuffer.wrap(plain)));
        BloscHeader h = BloscHeader.read(ByteBuffer.wrap(frame), EncodedSize.fixed(plain.length), LIB.compressors());
        assertNotNull(BloscBlocks.of(h, ByteBuffer.wrap(frame)));
        byte[] shared = frame.clone();
        TestData.putIntLE(shared, 20, TestData.intLE(shared, 16)); // two blocks at one start
        assertNull(BloscBlocks.of(h, ByteBuffer.wrap(shared)));
        byte[] inTable = frame.clone();
        TestData.putIntLE(inTable, 20, 16);
        assertNull(BloscBlocks.of(h, ByteBuffer.wrap(inTable)));
        byte[] past = frame.clone();
        TestData.putIntLE(past, 20, frame.length);
        assertNull(BloscBlocks.of(h, ByteBuffer.wrap(past)));
    }

    /**
     * Damaged large frames: decoding in pieces either fails with a {@link CorruptDataException},
     * as the whole decode does, or gives what c-blosc's whole decode gives; never anything else.
     */
    @Test
    void corruptFramesFailAsAWholeDecodeDoes() {
        corruptInputs = true;
        try {
            corruptFrames();
        } finally {
            corruptInputs = false;
        }
    }

    private void corruptFrames() {
        SplittableRandom r = new SplittableRandom(7);
        int n = 2 << 20;
        for (Compressor cname : Compressor.values()) {
            BloscConfiguration config = new BloscConfiguration(cname, 5, Shuffle.SHUFFLE, 4, 1 << 16);
            BloscCodec c = codec(config, PARALLEL);
            byte[] frame = bytes(c.encode(ByteBuffer.wrap(TestData.numbers(n, 4, 3))));
            for (int k = 0; k < 40; k++) {
                byte[] bad = frame.clone();
                int flips = 1 + r.nextInt(4);
                for (int f = 0; f < flips; f++) {
                    int at = k % 2 == 0 ? 16 + r.nextInt(Math.min(bad.length - 16, 4 * 32 + 64)) : r.nextInt(bad.length);
                    bad[at] ^= (byte) (1 << r.nextInt(8));
                }
                ByteBuffer dest = ByteBuffer.allocateDirect(n);
                int whole;
                try {
                    BloscHeader.read(ByteBuffer.wrap(bad), EncodedSize.fixed(n), LIB.compressors());
                    whole = LIB.decompress(direct(bad), dest, n);
                } catch (CorruptDataException e) {
                    whole = -1;
                }
                if (whole == n) {
                    byte[] want = new byte[n];
                    dest.get(0, want);
                    assertArrayEquals(want, bytes(c.decode(ByteBuffer.wrap(bad), EncodedSize.fixed(n))), cname + " " + k);
                } else {
                    assertThrows(CorruptDataException.class, () -> c.decode(ByteBuffer.wrap(bad), EncodedSize.fixed(n)),
                            cname + " " + k);
                    ByteSource s = c.partialDecoder(ByteSource.of(ByteBuffer.wrap(bad)), EncodedSize.fixed(n))
                            .orElseThrow();
                    try {
                        s.read(ByteRange.of(r.nextInt(n / 2), 1000));
                    } catch (CorruptDataException expected) {
                        // a part may decode where the whole does not; a failure must be this one
                    }
                }
            }
        }
    }

    /**
     * Damaged small frames of many blocks, read in parts: each read gives the whole decode's bytes
     * or fails with a {@link CorruptDataException}, nothing else, whether or not the source knows
     * its size.
     */
    @Test
    void corruptFramesReadInPartsFailCleanly() {
        corruptInputs = true;
        try {
            SplittableRandom r = new SplittableRandom(13);
            int n = 40_000;
            int rejected = 0;
            for (int iter = 0; iter < 400; iter++) {
                BloscConfiguration config = new BloscConfiguration(Compressor.values()[iter % Compressor.values().length],
                        5, Shuffle.values()[r.nextInt(3)], 4, 1024);
                BloscCodec c = codec(config, PARALLEL);
                byte[] plain = TestData.numbers(n, 4, iter);
                byte[] bad = bytes(c.encode(ByteBuffer.wrap(plain)));
                int flips = 1 + r.nextInt(3);
                for (int f = 0; f < flips; f++) {
                    int at = r.nextBoolean() ? r.nextInt(Math.min(bad.length, 16 + 4 * 40)) : r.nextInt(bad.length);
                    bad[at] ^= (byte) (1 << r.nextInt(8));
                }
                ByteSource s = c.partialDecoder(counting(ByteSource.of(ByteBuffer.wrap(bad)), new AtomicInteger(),
                        r.nextBoolean()), EncodedSize.fixed(n)).orElseThrow();
                for (int k = 0; k < 4; k++) {
                    int start = r.nextInt(n);
                    int len = r.nextInt(Math.min(n - start, 3000) + 1);
                    try {
                        s.read(ByteRange.of(start, len)).orElseThrow();
                    } catch (CorruptDataException e) {
                        assertTrue(e.getMessage().contains("blosc"), e.getMessage());
                        rejected++;
                    }
                }
            }
            assertTrue(rejected > 50, "rejected reads: " + rejected);
        } finally {
            corruptInputs = false;
        }
    }

    /** {@code source}, counting the bytes read, with or without knowing its size. */
    private static ByteSource counting(ByteSource source, AtomicInteger read, boolean knowsSize) {
        return new ByteSource() {
            @Override
            public Optional<ByteBuffer> read(ByteRange range) {
                Optional<ByteBuffer> b = source.read(range);
                b.ifPresent(x -> read.addAndGet(x.remaining()));
                return b;
            }

            @Override
            public java.util.OptionalLong size() {
                return knowsSize ? source.size() : java.util.OptionalLong.empty();
            }
        };
    }
}
