package dev.zarrj.codec.gzip.internal;

import static dev.zarrj.codec.gzip.internal.TestData.buf;
import static dev.zarrj.codec.gzip.internal.TestData.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.zarrj.api.EncodedSize;
import dev.zarrj.codec.gzip.GzipConfiguration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class GzipCodecConcurrencyTest {
    private static final int THREADS = 8;
    private static final int ROUNDS = 40;

    /**
     * Threads share codecs (and the pooled zlib streams behind them) at several levels; each result
     * must equal what one thread alone produces, so no stream leaks state or level into another.
     */
    @Test
    void eightThreadsEncodeAndDecodeDifferentDataConcurrently() throws Exception {
        GzipCodec[] codecs = new GzipCodec[10];
        for (int level = 0; level <= 9; level++) {
            codecs[level] = new GzipCodec(GzipConfiguration.level(level));
        }
        byte[][] data = new byte[THREADS][];
        byte[][][] expected = new byte[THREADS][10][];
        for (int t = 0; t < THREADS; t++) {
            data[t] = t % 2 == 0 ? TestData.compressible(20_000 + t * 7919, t) : TestData.random(15_000 + t, t);
            for (int level = 0; level <= 9; level++) {
                expected[t][level] = bytes(codecs[level].encode(buf(data[t])));
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    start.await();
                    for (int round = 0; round < ROUNDS; round++) {
                        int level = (thread + round) % 10;
                        byte[] encoded = bytes(codecs[level].encode(buf(data[thread])));
                        assertArrayEquals(expected[thread][level], encoded, "thread " + thread + " level " + level);
                        byte[] decoded = bytes(codecs[(level + 3) % 10].decode(buf(encoded),
                                EncodedSize.fixed(data[thread].length)));
                        assertArrayEquals(data[thread], decoded, "thread " + thread + " level " + level);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : results) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
