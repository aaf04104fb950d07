package dev.zarrj.api.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.TestTypes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

class ArrayPartialDecoderTest {
    private static final ChunkSpec SPEC = new ChunkSpec(TestTypes.INT32, new long[] {4, 4}, TestTypes.fillInt(0));

    /** Chunk bytes holding 0..15 as native int32. */
    private static ByteBuffer chunk() {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
        for (int i = 0; i < 16; i++) {
            b.putInt(4 * i, i);
        }
        return b;
    }

    /** A source that counts reads and holds each read until {@code gate} opens. */
    private static ByteSource counting(AtomicInteger reads, CountDownLatch gate) {
        ByteSource inner = ByteSource.of(chunk());
        return range -> {
            reads.incrementAndGet();
            try {
                gate.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return inner.read(range);
        };
    }

    private static final BiFunction<ByteBuffer, ChunkSpec, NdArray> DECODE =
            (bytes, spec) -> NdArray.wrap(spec.dataType(), bytes.duplicate(), spec.shape());

    @Test
    void servesRegionsOfTheDecodedChunk() {
        AtomicInteger reads = new AtomicInteger();
        CountDownLatch open = new CountDownLatch(0);
        ArrayPartialDecoder d = ArrayPartialDecoder.fullDecode(counting(reads, open), SPEC, DECODE);
        assertEquals(0, reads.get(), "nothing is read before the first decode");
        assertArrayEquals(new int[] {5, 6, 9, 10}, d.decode(Region.of(new long[] {1, 1}, new long[] {2, 2})).orElseThrow().toIntArray());
        assertArrayEquals(new int[] {15}, d.decode(Region.of(new long[] {3, 3}, new long[] {1, 1})).orElseThrow().toIntArray());
        assertEquals(16, d.decode(Region.of(new long[] {0, 0}, new long[] {4, 4})).orElseThrow().elementCount());
        assertEquals(1, reads.get());
    }

    @Test
    void regionsAreCopiesOwnedByTheCaller() {
        ArrayPartialDecoder d = ArrayPartialDecoder.fullDecode(ByteSource.of(chunk()), SPEC, DECODE);
        NdArray r = d.decode(Region.of(new long[] {0, 0}, new long[] {1, 2})).orElseThrow();
        r.setLong(0, 99);
        assertEquals(0, d.decode(Region.of(new long[] {0, 0}, new long[] {1, 1})).orElseThrow().getLong(0));
    }

    @Test
    void readsTheSourceOnceUnderConcurrency() throws Exception {
        for (int round = 0; round < 20; round++) {
            AtomicInteger reads = new AtomicInteger();
            AtomicInteger decodes = new AtomicInteger();
            CountDownLatch gate = new CountDownLatch(1);
            ArrayPartialDecoder d = ArrayPartialDecoder.fullDecode(counting(reads, gate), SPEC, (bytes, spec) -> {
                decodes.incrementAndGet();
                return DECODE.apply(bytes, spec);
            });
            int threads = 16;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                CountDownLatch ready = new CountDownLatch(threads);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<int[]>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long row = t % 4;
                    results.add(pool.submit(() -> {
                        ready.countDown();
                        start.await();
                        return d.decode(Region.of(new long[] {row, 0}, new long[] {1, 4})).orElseThrow().toIntArray();
                    }));
                }
                assertTrue(ready.await(5, TimeUnit.SECONDS));
                start.countDown();
                // Let the threads pile up on the first read before it completes.
                Thread.sleep(round == 0 ? 50 : 2);
                gate.countDown();
                for (int t = 0; t < threads; t++) {
                    int r = t % 4;
                    assertArrayEquals(new int[] {4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3},
                            results.get(t).get(5, TimeUnit.SECONDS));
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(1, reads.get(), "round " + round);
            assertEquals(1, decodes.get(), "round " + round);
        }
    }

    @Test
    void anAbsentValueIsAnAnswerNotAnError() {
        AtomicInteger decodes = new AtomicInteger();
        ArrayPartialDecoder d = ArrayPartialDecoder.fullDecode(range -> java.util.Optional.empty(), SPEC,
                (bytes, spec) -> {
                    decodes.incrementAndGet();
                    return DECODE.apply(bytes, spec);
                });
        assertTrue(d.decode(Region.whole(4, 4)).isEmpty());
        NdArray dst = NdArray.allocate(TestTypes.INT32, 4, 4);
        dst.setLong(0, 7);
        assertEquals(false, d.decodeInto(Region.whole(4, 4), dst, new long[2]));
        assertEquals(7, dst.getLong(0), "the destination is left alone");
        assertEquals(0, decodes.get());
    }

    @Test
    void readsTheWholeValue() {
        List<ByteRange> seen = new ArrayList<>();
        ByteSource inner = ByteSource.of(chunk());
        ByteSource recording = range -> {
            seen.add(range);
            return inner.read(range);
        };
        ArrayPartialDecoder.fullDecode(recording, SPEC, DECODE).decode(Region.of(new long[] {2, 2}, new long[] {1, 1}));
        assertEquals(List.of(ByteRange.all()), seen);
    }
}
