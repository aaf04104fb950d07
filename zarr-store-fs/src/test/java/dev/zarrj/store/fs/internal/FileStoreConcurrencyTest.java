package dev.zarrj.store.fs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

class FileStoreConcurrencyTest {
    static final int THREADS = 8;

    @TempDir
    Path root;

    /** A value of {@code length} bytes all equal to {@code fill}. */
    static ByteBuffer value(int fill, int length) {
        byte[] b = new byte[length];
        java.util.Arrays.fill(b, (byte) fill);
        return ByteBuffer.wrap(b);
    }

    static void runAll(List<Callable<Void>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            List<Future<Void>> futures = new ArrayList<>();
            for (Callable<Void> t : tasks) {
                futures.add(pool.submit(t));
            }
            for (Future<Void> f : futures) {
                f.get(30, TimeUnit.SECONDS); // rethrows a task's failure
            }
        } finally {
            pool.shutdownNow();
            // Let every task stop before @TempDir is deleted.
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    @RepeatedTest(2)
    void concurrentSetsOfOneKeyLeaveOneCompleteValueAndReadersNeverSeeAMix() throws Exception {
        Store store = new FileStore(root, false, false);
        StoreKey key = StoreKey.of("shared/c/0");
        int length = 64 * 1024;
        store.set(key, value(0, length));
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            tasks.add(() -> {
                start.await();
                for (int i = 0; i < 40; i++) {
                    if (id % 2 == 0) {
                        store.set(key, value(id + 1, length));
                    } else {
                        ByteBuffer v = store.get(key).orElseThrow();
                        assertEquals(length, v.remaining());
                        byte first = v.get(0);
                        for (int j = 0; j < length; j++) {
                            if (v.get(j) != first) {
                                throw new AssertionError("mixed value: byte " + j + " is " + v.get(j) + ", byte 0 is " + first);
                            }
                        }
                    }
                }
                return null;
            });
        }
        runAll(tasks);
        ByteBuffer last = store.get(key).orElseThrow();
        assertEquals(length, last.remaining());
        assertTrue(List.of(1, 3, 5, 7).contains((int) last.get(0)), "value written by one of the writers");
        assertEquals(List.of(key), store.list());
        assertNoTemporaryFiles();
    }

    @RepeatedTest(4)
    void concurrentWritesAndErasesOfDifferentKeysInOneDirectory() throws Exception {
        Store store = new FileStore(root, false, false);
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            tasks.add(() -> {
                start.await();
                // Every thread empties and refills the same directory, so set races erase's pruning.
                for (int i = 0; i < 40; i++) {
                    StoreKey key = StoreKey.of("arr/c/" + id);
                    store.set(key, value(id, 100 + id));
                    Optional<ByteBuffer> got = store.get(key);
                    assertEquals(100 + id, got.orElseThrow().remaining(), "thread " + id + " round " + i);
                    assertEquals((byte) id, got.get().get(0));
                    store.erase(key);
                    assertTrue(store.get(key).isEmpty());
                    store.listDir("arr/c/");
                }
                store.set(StoreKey.of("arr/c/" + id), value(id, 1));
                return null;
            });
        }
        runAll(tasks);
        List<StoreKey> expected = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            expected.add(StoreKey.of("arr/c/" + t));
        }
        assertEquals(expected, store.list());
        assertNoTemporaryFiles();
    }

    void assertNoTemporaryFiles() throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            List<Path> temps = s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
            assertEquals(List.of(), temps);
        }
    }
}
