package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * {@code Zarr.builder().threads(n)} bounds the threads of one read or write, codecs' pieces
 * included, and reads and writes may be called from the executor's own threads.
 */
class ThreadBudgetTest {
    private static final int SIDE = 64;

    @Test
    void oneThreadDoesEveryChunkInTheCaller() {
        try (Zarr zarr = Zarr.builder().threads(1).build()) {
            Set<Thread> threads = ConcurrentHashMap.newKeySet();
            ZarrArray a = writtenThrough(zarr, threads);
            assertArrayEquals(values(), a.read().toIntArray());
            assertEquals(Set.of(Thread.currentThread()), threads, "chunk stores and loads ran in the caller only");

            Set<Thread> codecThreads = ConcurrentHashMap.newKeySet();
            zarr.providerContext().tasks().forEach(64, i -> codecThreads.add(Thread.currentThread()));
            assertEquals(Set.of(Thread.currentThread()), codecThreads, "codecs' pieces ran in the caller only");
        }
    }

    @Test
    void twoThreadsMeanAtMostTwoThreadsOnOneRead() {
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            Set<Thread> threads = ConcurrentHashMap.newKeySet();
            ZarrArray a = writtenThrough(zarr, threads);
            for (int round = 0; round < 20; round++) {
                threads.clear();
                assertArrayEquals(values(), a.read().toIntArray());
                assertTrue(threads.size() <= 2, "at most two threads touched the chunks of one read: " + threads);
            }
        }
    }

    /**
     * Every thread of a two-thread executor reads and writes through a {@link Zarr} that uses that
     * same executor. A design that submits chunk tasks and waits for them would deadlock here.
     */
    @Test
    void readsAndWritesFromTheExecutorsOwnThreadsFinish() {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Zarr zarr = Zarr.builder().executor(pool).threads(2).build()) {
            Store store = zarr.openStore("memory:");
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                CountDownLatch bothBusy = new CountDownLatch(2);
                List<Future<int[]>> reads = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    String path = "/a" + t;
                    reads.add(pool.submit(() -> {
                        bothBusy.countDown();
                        bothBusy.await();
                        ZarrArray a = zarr.array(DataTypes.INT32, SIDE, SIDE).chunks(8, 8).fillValue(0)
                                .create(store, path);
                        a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, values(), SIDE, SIDE));
                        return a.read().toIntArray();
                    }));
                }
                for (Future<int[]> f : reads) {
                    assertArrayEquals(values(), f.get());
                }
            });
        } finally {
            pool.shutdownNow();
        }
    }

    /** An array of 64 chunks written through a store that records the threads touching chunks. */
    private static ZarrArray writtenThrough(Zarr zarr, Set<Thread> threads) {
        Store store = recordingThreads(zarr.openStore("memory:"), threads);
        ZarrArray a = zarr.array(DataTypes.INT32, SIDE, SIDE).chunks(8, 8).fillValue(0).create(store, "/a");
        a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, values(), SIDE, SIDE));
        return a;
    }

    private static int[] values() {
        int[] v = new int[SIDE * SIDE];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 31 + 7;
        }
        return v;
    }

    /** The store, recording which threads get and set chunk keys (metadata keys are left out). */
    private static Store recordingThreads(Store store, Set<Thread> threads) {
        return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, args) -> {
                    if ((method.getName().equals("get") || method.getName().equals("set")) && args != null
                            && args[0].toString().contains("/c/")) {
                        threads.add(Thread.currentThread());
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
