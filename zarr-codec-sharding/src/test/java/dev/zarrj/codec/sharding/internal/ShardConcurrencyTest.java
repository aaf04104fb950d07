package dev.zarrj.codec.sharding.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Eight threads write different regions of one shard through one {@link ZarrArray}: every write
 * is a read-modify-write of the same stored value, and every inner chunk is shared by two threads.
 * zarr-core serialises partial writes per key; nothing may be lost.
 */
class ShardConcurrencyTest {
    private static final Zarr ZARR = Zarr.builder().threads(4).build();
    private static final int THREADS = 8;
    private static final int ROUNDS = 5;

    @AfterAll
    static void close() {
        ZARR.close();
    }

    @ParameterizedTest(name = "{0} store")
    @ValueSource(strings = {"memory", "file"})
    void eightWritersOfOneShardLoseNothing(String kind, @TempDir Path dir) throws Exception {
        Store store = ZARR.openStore(kind.equals("memory") ? "memory:" : dir.toString());
        String le = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
        ZarrArray a = ZARR.array(DataTypes.INT32, 16, 16).chunks(16, 16)
                .codecs("[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[4,4],\"codecs\":[" + le
                        + ",{\"name\":\"gzip\",\"configuration\":{\"level\":1}}],\"index_codecs\":[" + le
                        + ",{\"name\":\"crc32c\"}]}}]")
                .fillValue(0).create(store, "/a");
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        try {
            for (int t = 0; t < THREADS; t++) {
                int column = 2 * t; // thread t owns columns 2t and 2t+1
                done.add(pool.submit(() -> {
                    start.await();
                    for (int round = 0; round < ROUNDS; round++) {
                        for (int row = 0; row < 16; row++) {
                            int v = value(column, row, round);
                            a.write(new long[] {row, column}, new long[] {1, 2}, new int[] {v, v + 1});
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        int[] expected = new int[256];
        for (int row = 0; row < 16; row++) {
            for (int t = 0; t < THREADS; t++) {
                int v = value(2 * t, row, ROUNDS - 1);
                expected[row * 16 + 2 * t] = v;
                expected[row * 16 + 2 * t + 1] = v + 1;
            }
        }
        assertArrayEquals(expected, ZARR.openArray(store, "/a").read().toIntArray());
    }

    private static int value(int column, int row, int round) {
        return 1 + column * 100_000 + row * 100 + round * 2;
    }
}
