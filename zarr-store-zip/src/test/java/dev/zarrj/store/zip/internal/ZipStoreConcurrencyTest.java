package dev.zarrj.store.zip.internal;

import static dev.zarrj.store.zip.internal.Zips.array;
import static dev.zarrj.store.zip.internal.Zips.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.ZipStoreOptions;
import dev.zarrj.store.zip.ZipStores;
import dev.zarrj.store.zip.internal.Zips.Item;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

class ZipStoreConcurrencyTest {
    static final int THREADS = 8;

    @TempDir
    Path tmp;

    static void runAll(List<Callable<Void>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            List<Future<Void>> futures = new ArrayList<>();
            for (Callable<Void> t : tasks) {
                futures.add(pool.submit(t));
            }
            for (Future<Void> f : futures) {
                f.get(60, TimeUnit.SECONDS); // rethrows a task's failure
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    @RepeatedTest(2)
    void eightThreadsReadRandomRangesOfSharedEntries() throws Exception {
        int keys = 16;
        byte[][] values = new byte[keys][];
        Item[] items = new Item[keys];
        for (int i = 0; i < keys; i++) {
            values[i] = pattern(20_000 + i * 1000, i);
            items[i] = i % 2 == 0 ? Item.stored("c/" + i, values[i]) : Item.deflated("c/" + i, values[i]);
        }
        Path zip = Zips.write(tmp.resolve("set.zip"), items);
        try (Store store = ZipStore.open(zip, "", ZipStore.Mode.READ_ONLY, ZipStoreOptions.defaults())) {
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                long seed = t;
                tasks.add(() -> {
                    Random r = new Random(seed);
                    start.await();
                    for (int n = 0; n < 300; n++) {
                        int i = r.nextInt(keys);
                        byte[] v = values[i];
                        int from = r.nextInt(v.length);
                        int length = r.nextInt(v.length - from + 1);
                        ByteBuffer got = n % 10 == 0 ? store.get(StoreKey.of("c/" + i)).orElseThrow()
                                : store.get(StoreKey.of("c/" + i), ByteRange.of(from, length)).orElseThrow();
                        byte[] want = n % 10 == 0 ? v : Arrays.copyOfRange(v, from, from + length);
                        assertArrayEquals(want, array(got), "c/" + i + " [" + from + ", +" + length + ")");
                    }
                    return null;
                });
            }
            runAll(tasks);
        }
    }

    @RepeatedTest(2)
    void eightThreadsWriteAndReadBackThenCloseKeepsEveryLastValue() throws Exception {
        Path zip = tmp.resolve("written.zip");
        int perThread = 200;
        try (Store store = ZipStores.create(zip)) {
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int id = t;
                tasks.add(() -> {
                    start.await();
                    for (int n = 0; n < perThread; n++) {
                        StoreKey key = StoreKey.of("t" + id + "/c/" + n);
                        store.set(key, ByteBuffer.wrap(pattern(100 + n, id)));
                        store.set(key, ByteBuffer.wrap(pattern(50 + n, id + 100))); // the last one wins
                        assertArrayEquals(pattern(50 + n, id + 100), array(store.get(key).orElseThrow()), key.value());
                        if (n % 20 == 0) {
                            store.list(); // listing while others write
                        }
                    }
                    return null;
                });
            }
            runAll(tasks);
        }
        try (Store r = ZipStores.open(zip, "")) {
            assertEquals(THREADS * perThread, r.list().size());
            for (int t = 0; t < THREADS; t++) {
                for (int n = 0; n < perThread; n += 37) {
                    assertArrayEquals(pattern(50 + n, t + 100), array(r.get(StoreKey.of("t" + t + "/c/" + n)).orElseThrow()));
                }
            }
        }
    }
}
