package dev.zarrj.codec.zstd.internal;

import static dev.zarrj.codec.zstd.internal.TestData.buf;
import static dev.zarrj.codec.zstd.internal.TestData.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.codec.zstd.ZstdConfiguration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ZstdCodecConcurrencyTest {
    private static final int THREADS = 8;
    private static final int ROUNDS = 40;
    private static final int[] LEVELS = {-5, 0, 1, 3, 9};

    /**
     * Threads share codecs (and the pooled libzstd contexts behind them) at several levels, with
     * and without checksums, and mix in streaming decodes and failing decodes; each result must
     * equal what one thread alone produces, so no context leaks parameters or state into another.
     */
    @Test
    void eightThreadsEncodeAndDecodeDifferentDataConcurrently() throws Exception {
        ZstdCodec[] codecs = new ZstdCodec[LEVELS.length * 2];
        for (int i = 0; i < codecs.length; i++) {
            codecs[i] = new ZstdCodec(ZstdConfiguration.of(LEVELS[i / 2], i % 2 == 1));
        }
        byte[][] data = new byte[THREADS][];
        byte[][][] expected = new byte[THREADS][codecs.length][];
        byte[][] streamed = new byte[THREADS][];
        for (int t = 0; t < THREADS; t++) {
            data[t] = t % 2 == 0 ? TestData.compressible(200_000 + t * 7919, t) : TestData.random(150_000 + t, t);
            for (int c = 0; c < codecs.length; c++) {
                expected[t][c] = bytes(codecs[c].encode(buf(data[t])));
            }
            streamed[t] = TestData.streamingFrame(data[t], 3, true, 20_000);
        }
        byte[] damaged = expected[0][1].clone(); // checksummed
        damaged[damaged.length - 1] ^= 1;
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    start.await();
                    for (int round = 0; round < ROUNDS; round++) {
                        int c = (thread + round) % codecs.length;
                        String where = "thread " + thread + ", " + codecs[c];
                        byte[] encoded = bytes(codecs[c].encode(buf(data[thread])));
                        assertArrayEquals(expected[thread][c], encoded, where);
                        // Another level, the same checksum setting: a codec configured with a
                        // checksum refuses frames without one.
                        ZstdCodec other = codecs[(c + 2) % codecs.length];
                        assertArrayEquals(data[thread], bytes(other.decode(buf(encoded),
                                EncodedSize.fixed(data[thread].length))), where);
                        assertArrayEquals(data[thread], bytes(other.decode(buf(streamed[thread]),
                                EncodedSize.unbounded())), where + ", streaming frame");
                        if (round % 5 == 0) {
                            CorruptDataException e = assertThrows(CorruptDataException.class,
                                    () -> other.decode(buf(damaged), EncodedSize.fixed(data[0].length)));
                            assertInstanceOf(ChecksumMismatchException.class, e);
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : results) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
