package dev.zarrj.codec.blosc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ZarrException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LoadOnceTest {
    @Test
    void nothingIsLoadedUntilAskedThenOnlyOnce() {
        AtomicInteger loads = new AtomicInteger();
        BloscLibrary library = TestData.withCompressors(java.util.Set.of("lz4"));
        LoadOnce once = new LoadOnce(() -> {
            loads.incrementAndGet();
            return library;
        });
        assertEquals(0, loads.get(), "the constructor loads nothing");
        assertSame(library, once.get());
        assertSame(library, once.get());
        assertEquals(1, loads.get());
    }

    /**
     * A failure is not kept: the loader is asked again, and each caller gets the loader's own
     * exception. (NativeBlosc keeps its failure and throws a new exception each time.)
     */
    @Test
    void aFailureIsNotKeptSoEachCallerGetsTheLoadersOwnException() {
        AtomicInteger loads = new AtomicInteger();
        BloscLibrary library = TestData.withCompressors(java.util.Set.of("lz4"));
        LoadOnce once = new LoadOnce(() -> {
            if (loads.incrementAndGet() <= 2) {
                throw new ZarrException(NativeBlosc.MISSING_CODE, "no c-blosc here");
            }
            return library;
        });
        ZarrException first = assertThrows(ZarrException.class, once::get);
        ZarrException second = assertThrows(ZarrException.class, once::get);
        assertNotSame(first, second);
        assertTrue(second.getMessage().endsWith("no c-blosc here"), second.getMessage());
        assertSame(library, once.get());
        assertSame(library, once.get());
        assertEquals(3, loads.get());
    }

    /** Threads that ask at the same time while the library is being loaded all wait for that one load. */
    @Test
    void concurrentFirstCallsLoadOnce() throws Exception {
        int threads = 8;
        AtomicInteger loads = new AtomicInteger();
        CountDownLatch loading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        BloscLibrary library = TestData.withCompressors(java.util.Set.of("lz4"));
        LoadOnce once = new LoadOnce(() -> {
            loads.incrementAndGet();
            loading.countDown();
            try {
                assertTrue(release.await(30, TimeUnit.SECONDS), "released");
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return library;
        });
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<BloscLibrary>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(once::get));
            }
            assertTrue(loading.await(30, TimeUnit.SECONDS), "one thread started loading");
            release.countDown();
            for (Future<BloscLibrary> r : results) {
                assertSame(library, r.get(30, TimeUnit.SECONDS));
            }
            assertEquals(1, loads.get());
        } finally {
            pool.shutdownNow();
        }
    }
}
