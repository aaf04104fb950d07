package dev.zarrj.codec.sharding.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.zarrj.api.CorruptDataException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The shared pool: every item runs once, failures come back unchanged, nesting does not deadlock. */
class ShardExecutorTest {
    @Test
    void everyItemRunsExactlyOnce() {
        AtomicIntegerArray runs = new AtomicIntegerArray(10_000);
        ShardExecutor.forEach(runs.length(), runs::incrementAndGet);
        for (int i = 0; i < runs.length(); i++) {
            assertEquals(1, runs.get(i), "item " + i);
        }
    }

    @Test
    void theFirstFailureIsRethrownAsItWas() {
        CorruptDataException boom = new CorruptDataException("inner chunk [3]");
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> ShardExecutor.forEach(100, i -> {
            if (i == 3) {
                throw boom;
            }
        }));
        assertSame(boom, e);
    }

    /**
     * Nested shards fork inside the pool, and many callers outside it (zarr-core's chunk threads)
     * wait for it at once: three levels of 16 items from 32 external threads.
     */
    @Test
    void nestedCallsFromManyThreadsFinish() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            ExecutorService callers = Executors.newFixedThreadPool(32);
            AtomicLong leaves = new AtomicLong();
            try {
                List<Future<?>> fs = new ArrayList<>();
                for (int c = 0; c < 32; c++) {
                    fs.add(callers.submit(() -> ShardExecutor.forEach(16, a -> ShardExecutor.forEach(16,
                            b -> ShardExecutor.forEach(16, x -> leaves.incrementAndGet())))));
                }
                for (Future<?> f : fs) {
                    f.get();
                }
            } finally {
                callers.shutdownNow();
            }
            assertEquals(32L * 16 * 16 * 16, leaves.get());
        });
    }
}
