package dev.zarrj.codec.blosc.internal;

import static dev.zarrj.codec.blosc.internal.TestData.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.zarrj.api.EncodedSize;
import dev.zarrj.codec.blosc.BloscConfiguration;
import dev.zarrj.codec.blosc.BloscConfiguration.Compressor;
import dev.zarrj.codec.blosc.BloscConfiguration.Shuffle;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BloscCodecConcurrencyTest {
    private static final int THREADS = 8;
    private static final int ROUNDS = 40;

    /**
     * Eight threads encode and decode at once, each with its own compressor, shuffle, level, type
     * size and block size, and through both heap and direct buffers; every frame must equal the
     * one a single thread produces and decode to the thread's data. c-blosc's global settings
     * ({@code blosc_set_compressor}, {@code blosc_set_nthreads}, ...) would leak between threads;
     * the context calls must not.
     */
    @Test
    void eightThreadsWithDifferentSettingsGetTheirOwnResults() throws Exception {
        Compressor[] cnames = {Compressor.LZ4, Compressor.ZSTD, Compressor.BLOSCLZ, Compressor.ZLIB,
            Compressor.LZ4HC, Compressor.ZSTD, Compressor.LZ4, Compressor.BLOSCLZ};
        BloscCodec[] codecs = new BloscCodec[THREADS];
        byte[][] data = new byte[THREADS][];
        byte[][] expected = new byte[THREADS][];
        for (int t = 0; t < THREADS; t++) {
            int typesize = 1 << (t % 4);
            BloscConfiguration config = new BloscConfiguration(cnames[t], 1 + t, Shuffle.values()[t % 3], typesize,
                    t % 2 == 0 ? 0 : 16_384);
            codecs[t] = BloscCodecTest.codec(config, TestData.system());
            data[t] = TestData.numbers(100_000 + t * 7919, typesize, t);
            expected[t] = bytes(codecs[t].encode(ByteBuffer.wrap(data[t])));
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
                        TestData.Kind kind = TestData.Kind.values()[(thread + round) % TestData.Kind.values().length];
                        String where = "thread " + thread + " round " + round + " " + kind;
                        byte[] encoded = bytes(codecs[thread].encode(kind.wrap(data[thread])));
                        assertArrayEquals(expected[thread], encoded, where);
                        // Decoding reads settings from the frame: any codec instance decodes any frame.
                        BloscCodec other = codecs[(thread + round) % THREADS];
                        byte[] decoded = bytes(other.decode(kind.wrap(encoded), EncodedSize.fixed(data[thread].length)));
                        assertArrayEquals(data[thread], decoded, where);
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
