package dev.zarrj.reliability.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.codec.zstd.ZstdConfiguration;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.internal.pipeline.PoolCounts;
import dev.zarrj.store.fs.FileStores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Interrupting a thread in the middle of a large read or write, or cancelling a readAsync or
 * writeAsync, leaves every stored chunk with its old or its new content, leaves no temporary file
 * behind as a key, and gives back every pooled buffer: the buffer pools' counts ({@link PoolCounts})
 * return to where they were. The call itself returns normally or throws a {@link ZarrException}
 * ({@link CancellationException} for a cancelled future), never anything else.
 *
 * <p>The moment of each interrupt is random within the time an uninterrupted call takes; the seed is
 * printed and {@code -Dzarrj.interrupt.seed=N} replays the choice of moments.
 */
class InterruptTest {
    private static final int SIZE = 1024;
    private static final int ROUNDS = 10;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"memory unsharded", "memory sharded", "file unsharded", "file sharded"})
    void interruptedAndCancelledCallsLeaveChunksWholeAndBuffersReturned(String how) throws Exception {
        boolean file = how.startsWith("file");
        boolean sharded = how.endsWith(" sharded");
        long seed = Long.getLong("zarrj.interrupt.seed", new Random().nextLong());
        System.out.println("InterruptTest [" + how + "] seed " + seed + " (replay: -Dzarrj.interrupt.seed=" + seed + ")");
        Random rnd = new Random(seed);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (Zarr z = Zarr.builder().executor(pool).threads(4).build()) {
            Store store = file ? FileStores.open(dir.resolve("a.zarr"), false) : z.openStore("memory:");
            // 128x128 int32 chunks: 64 KiB, the size from which ChunkBuffers pools direct memory.
            var b = z.array(DataTypes.INT32, SIZE, SIZE).fillValue(0).codec(ZstdConfiguration.of(1, false));
            b = sharded ? b.chunks(128, 128).shards(512, 512) : b.chunks(128, 128);
            int unit = sharded ? 512 : 128;
            ZarrArray a = b.create(store, "/a");
            int[] model = new int[SIZE * SIZE];
            long before = PoolCounts.leasedBuffers();
            long beforeBytes = PoolCounts.pooledBytesInUse();
            // A region with partial chunks at its edges (read, modify, write) and whole ones inside.
            long[] off = {64, 64};
            long[] shape = {SIZE - 128, SIZE - 128};
            write(a, off, shape, 1);
            apply(model, off, shape, 1);
            // How long each call takes once warm: the interrupts fall at random moments within it.
            long t0 = System.nanoTime();
            write(a, off, shape, 1);
            long nanos = Math.max(100_000, System.nanoTime() - t0);
            t0 = System.nanoTime();
            a.read(new long[2], new long[] {SIZE, SIZE});
            long readNanos = Math.max(100_000, System.nanoTime() - t0);
            int interruptedWrites = 0;
            int interruptedReads = 0;
            int cancelled = 0;
            for (int round = 0; round < ROUNDS; round++) {
                int value = 2 + round;
                // A blocking write, interrupted.
                AtomicReference<Throwable> thrown = new AtomicReference<>();
                Thread w = new Thread(() -> {
                    try {
                        write(a, off, shape, value);
                    } catch (Throwable e) {
                        thrown.set(e);
                    }
                });
                w.start();
                TimeUnit.NANOSECONDS.sleep(rnd.nextLong(nanos));
                w.interrupt();
                w.join();
                interruptedWrites += expectZarrOrNothing(thrown.get(), how + " write");
                assertEquals(before, PoolCounts.leasedBuffers(), how + ": leases after an interrupted write");
                assertEquals(beforeBytes, PoolCounts.pooledBytesInUse(), how + ": pooled bytes after an interrupted write");
                checkOldOrNew(a, model, off, shape, value, unit, how);

                // A blocking read, interrupted.
                thrown.set(null);
                AtomicReference<int[]> got = new AtomicReference<>();
                Thread r = new Thread(() -> {
                    try {
                        got.set(a.read(new long[2], new long[] {SIZE, SIZE}).toIntArray());
                    } catch (Throwable e) {
                        thrown.set(e);
                    }
                });
                r.start();
                TimeUnit.NANOSECONDS.sleep(rnd.nextLong(readNanos));
                r.interrupt();
                r.join();
                interruptedReads += expectZarrOrNothing(thrown.get(), how + " read");
                if (got.get() != null) {
                    assertTrue(Arrays.equals(model, got.get()), how + ": an interrupted read that returned has every value");
                }
                assertEquals(before, PoolCounts.leasedBuffers(), how + ": leases after an interrupted read");
                assertEquals(beforeBytes, PoolCounts.pooledBytesInUse(), how + ": pooled bytes after an interrupted read");

                // writeAsync and readAsync, cancelled.
                int asyncValue = 100 + round;
                CompletableFuture<Void> fw = a.writeAsync(off, dev.zarrj.api.NdArray.copyOf(DataTypes.INT32,
                        filled(shape, asyncValue), shape));
                TimeUnit.NANOSECONDS.sleep(rnd.nextLong(nanos));
                cancelled += fw.cancel(true) ? 1 : 0;
                CompletableFuture<dev.zarrj.api.NdArray> fr = a.readAsync(new long[2], new long[] {SIZE, SIZE});
                TimeUnit.NANOSECONDS.sleep(rnd.nextLong(readNanos));
                cancelled += fr.cancel(true) ? 1 : 0;
                for (CompletableFuture<?> f : List.of(fw, fr)) {
                    try {
                        f.get();
                    } catch (CancellationException expected) {
                        // cancelled before it completed
                    } catch (ExecutionException e) {
                        fail(how + ": an async call failed: " + e.getCause(), e.getCause());
                    }
                }
                // Pieces already running when the future was cancelled finish on the pool: wait for
                // it to be idle (a deadlock guard, not a speed check), then count.
                awaitIdle(pool);
                assertEquals(before, PoolCounts.leasedBuffers(), how + ": leases after cancelled async calls");
                assertEquals(beforeBytes, PoolCounts.pooledBytesInUse(), how + ": pooled bytes after cancelled async calls");
                checkOldOrNew(a, model, off, shape, asyncValue, unit, how);
            }
            if (file) {
                assertEquals(List.of(), store.leftovers(), how + ": temporary files left by interrupted writes");
                try (Stream<Path> files = Files.walk(dir.resolve("a.zarr"))) {
                    List<String> names = files.filter(Files::isRegularFile).map(p -> p.getFileName().toString())
                            .filter(n -> !n.equals("zarr.json") && !n.matches("\\d+")).toList();
                    assertEquals(List.of(), names, how + ": files that are neither metadata nor chunks");
                }
            }
            System.out.printf("InterruptTest [%s] %d rounds: %d writes and %d reads interrupted before they ended,"
                            + " %d async calls cancelled; every chunk old or new, 0 buffers leaked%n", how, ROUNDS,
                    interruptedWrites, interruptedReads, cancelled);
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(1, TimeUnit.MINUTES));
        }
    }

    /** 1 when the call was stopped by a ZarrException, 0 when it completed; fails on anything else. */
    private static int expectZarrOrNothing(Throwable t, String what) {
        if (t == null) {
            return 0;
        }
        if (t instanceof ZarrException) {
            return 1;
        }
        throw new AssertionError(what + ": interrupted, it threw " + t + " instead of a ZarrException", t);
    }

    private static void awaitIdle(ExecutorService pool) throws Exception {
        // A task queued behind every piece still running completes once they all have.
        for (int i = 0; i < 3; i++) {
            pool.submit(() -> { }).get(1, TimeUnit.MINUTES);
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (((java.util.concurrent.ThreadPoolExecutor) pool).getActiveCount() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
    }

    private static int[] filled(long[] shape, int value) {
        int[] v = new int[(int) (shape[0] * shape[1])];
        Arrays.fill(v, value);
        return v;
    }

    private static void write(ZarrArray a, long[] off, long[] shape, int value) {
        a.write(off, shape, filled(shape, value));
    }

    private static void apply(int[] model, long[] off, long[] shape, int value) {
        for (long i = off[0]; i < off[0] + shape[0]; i++) {
            for (long j = off[1]; j < off[1] + shape[1]; j++) {
                model[(int) (i * SIZE + j)] = value;
            }
        }
    }

    /**
     * Every storage unit (chunk or shard) holds, where the region covers it, either the model's old
     * content or {@code value} throughout, and the model's content elsewhere; the model then takes
     * what was read.
     */
    private static void checkOldOrNew(ZarrArray a, int[] model, long[] off, long[] shape, int value, int unit,
                                      String how) {
        int[] got = a.read(new long[2], new long[] {SIZE, SIZE}).toIntArray();
        for (int c0 = 0; c0 < SIZE; c0 += unit) {
            for (int c1 = 0; c1 < SIZE; c1 += unit) {
                boolean old = true;
                boolean neu = true;
                for (int i = c0; i < c0 + unit; i++) {
                    for (int j = c1; j < c1 + unit; j++) {
                        int k = i * SIZE + j;
                        boolean in = i >= off[0] && i < off[0] + shape[0] && j >= off[1] && j < off[1] + shape[1];
                        old &= got[k] == model[k];
                        neu &= in ? got[k] == value : got[k] == model[k];
                    }
                }
                assertTrue(old || neu, how + ": the chunk at [" + c0 + ", " + c1 + "] is torn: neither its old content"
                        + " nor the new");
            }
        }
        System.arraycopy(got, 0, model, 0, got.length);
    }
}
