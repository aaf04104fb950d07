package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.core.DataTypes;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one-chunk read's two pieces: the value ends up in the result byte for byte whichever
 * threads run them and however the copy is shared, a failure of either comes back, and a piece
 * never waits for one that has not started.
 */
class AllocatingReadTest {
    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    @AfterEach
    void shutdown() {
        pool.shutdownNow();
    }

    private static byte[] random(int size) {
        byte[] b = new byte[size];
        new Random(size).nextBytes(b);
        return b;
    }

    private static ByteBuffer direct(byte[] bytes, int offset) {
        // The value at a position other than 0, as a store's buffer from a pool may hold it.
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length + offset);
        b.position(offset).put(bytes).position(offset);
        return b;
    }

    private static AllocatingRead job(byte[] value, int offset) {
        return new AllocatingRead(() -> NdArray.allocate(DataTypes.UINT8, value.length),
                () -> Optional.of(direct(value, offset)), value.length);
    }

    private static byte[] bytesOf(NdArray a) {
        ByteBuffer b = a.bytes();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    /** Sizes below one copy piece, across several with a short last one, and of whole pieces. */
    @ParameterizedTest
    @ValueSource(ints = {1, 4095, (256 << 10) + 1, 3 << 20, (4 << 20) - 7})
    void theResultHoldsTheValueOnTwoThreads(int size) {
        byte[] value = random(size);
        for (int round = 0; round < 20; round++) {
            AllocatingRead job = job(value, 3);
            new ParallelTasks(pool, 2).forEach(2, job::run);
            assertTrue(job.copied());
            assertArrayEquals(value, bytesOf(job.result()), "round " + round);
        }
    }

    @Test
    void aCallerAloneRunsBothPiecesAndTheWholeCopy() {
        byte[] value = random((1 << 20) + 5);
        AllocatingRead job = job(value, 0);
        // No helper ever starts: the caller must not wait for the read it has not claimed yet.
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> new ParallelTasks(r -> {
            throw new RejectedExecutionException("no helpers");
        }, 2).forEach(2, job::run));
        assertTrue(job.copied());
        assertArrayEquals(value, bytesOf(job.result()));
    }

    @Test
    void aSlowReadIsAwaitedAndThenShared() throws Exception {
        byte[] value = random(2 << 20);
        CountDownLatch allocated = new CountDownLatch(1);
        AllocatingRead job = new AllocatingRead(() -> {
            NdArray a = NdArray.allocate(DataTypes.UINT8, value.length);
            allocated.countDown();
            return a;
        }, () -> {
            try {
                // Long past the spin: the thread that allocated parks and must be woken.
                assertTrue(allocated.await(10, TimeUnit.SECONDS));
                Thread.sleep(50);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            return Optional.of(direct(value, 0));
        }, value.length);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> new ParallelTasks(pool, 2).forEach(2, job::run));
        assertArrayEquals(value, bytesOf(job.result()));
    }

    @Test
    void aFailedReadComesBackAndNothingIsCopied() {
        IllegalStateException failure = new IllegalStateException("store down");
        AllocatingRead job = new AllocatingRead(() -> NdArray.allocate(DataTypes.UINT8, 1 << 20), () -> {
            throw failure;
        }, 1 << 20);
        IllegalStateException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(IllegalStateException.class, () -> new ParallelTasks(pool, 2).forEach(2, job::run)));
        assertSame(failure, e);
        assertFalse(job.copied());
    }

    @Test
    void valuesItCannotCopyAreLeftToTheCaller() {
        byte[] value = random(1 << 20);
        // A heap buffer (the pool had no room), one of the wrong size, an absent value, and a
        // job told not to copy (a compressed value).
        AllocatingRead heap = new AllocatingRead(() -> NdArray.allocate(DataTypes.UINT8, value.length),
                () -> Optional.of(ByteBuffer.wrap(value)), value.length);
        AllocatingRead shorter = new AllocatingRead(() -> NdArray.allocate(DataTypes.UINT8, value.length + 1),
                () -> Optional.of(direct(value, 0)), value.length + 1);
        AllocatingRead absent = new AllocatingRead(() -> NdArray.allocate(DataTypes.UINT8, value.length),
                Optional::empty, value.length);
        AllocatingRead compressed = new AllocatingRead(() -> NdArray.allocate(DataTypes.UINT8, value.length),
                () -> Optional.of(direct(value, 0)), -1);
        for (AllocatingRead job : new AllocatingRead[] {heap, shorter, absent, compressed}) {
            new ParallelTasks(pool, 2).forEach(2, job::run);
            assertFalse(job.copied());
            assertTrue(job.result().isAll(FillValue.ofBytes(new byte[1])),
                    "nothing copied into the result");
        }
        assertEquals(value.length, heap.value().get().remaining());
    }
}
