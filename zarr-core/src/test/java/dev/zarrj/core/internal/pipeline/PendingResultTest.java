package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.InsufficientMemoryException;
import dev.zarrj.api.NdArray;
import dev.zarrj.core.DataTypes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The array of a large read allocated beside its chunks: every chunk parked while it is allocated
 * is copied into it exactly once and released exactly once, by whichever piece gets to it, and
 * when the allocation fails the parked chunks are released and nothing is copied.
 */
class PendingResultTest {
    private final ExecutorService pool = Executors.newFixedThreadPool(3);

    @AfterEach
    void shutdown() {
        pool.shutdownNow();
    }

    /** Chunk {@code i} writes i + 1 at index i of the result. */
    private static final class Chunk implements PendingResult.Parked {
        final int index;
        final AtomicInteger copies = new AtomicInteger();
        final AtomicInteger releases = new AtomicInteger();

        Chunk(int index) {
            this.index = index;
        }

        @Override
        public long bytes() {
            return 10;
        }

        @Override
        public void putInto(NdArray result) {
            copies.incrementAndGet();
            result.setLong(index, index + 1);
        }

        @Override
        public void release() {
            releases.incrementAndGet();
        }
    }

    @Test
    void chunksParkedWhileAllocatingAreCopiedAndReleasedOnce() {
        int n = 200;
        for (int round = 0; round < 20; round++) {
            CountDownLatch started = new CountDownLatch(1);
            PendingResult pending = new PendingResult(() -> {
                try {
                    // Slow, so that other pieces park while it runs.
                    assertTrue(started.await(10, TimeUnit.SECONDS));
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                return NdArray.allocate(DataTypes.INT32, n);
            }, 50 * 10);
            List<Chunk> chunks = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                chunks.add(new Chunk(i));
            }
            AtomicInteger parked = new AtomicInteger();
            new ParallelTasks(pool, 3).forEachLong(n + 1, j -> {
                if (j == 0) {
                    pending.allocateAndDrain();
                    return;
                }
                started.countDown();
                Chunk c = chunks.get((int) j - 1);
                if (pending.worthParking()) {
                    parked.incrementAndGet();
                    pending.park(c);
                    return;
                }
                NdArray r = pending.await();
                pending.help();
                c.putInto(r);
                c.release();
            });
            int[] expected = new int[n];
            for (int i = 0; i < n; i++) {
                expected[i] = i + 1;
                assertEquals(1, chunks.get(i).copies.get(), "copies of chunk " + i);
                assertEquals(1, chunks.get(i).releases.get(), "releases of chunk " + i);
            }
            assertArrayEquals(expected, pending.result().toIntArray());
            assertTrue(parked.get() > 0, "some chunks were parked");
        }
    }

    /**
     * ParallelTasks may skip the allocating piece once claimed (after another piece failed, an
     * interrupt, a cancellation): a piece that needs the array then allocates it itself instead of
     * waiting for ever, and close() releases what nobody copied.
     */
    @Test
    void aPieceThatNeedsTheArrayAllocatesItWhenTheFirstPieceNeverRan() {
        AtomicInteger allocations = new AtomicInteger();
        PendingResult pending = new PendingResult(() -> {
            allocations.incrementAndGet();
            return NdArray.allocate(DataTypes.INT32, 4);
        }, 1000);
        Chunk parked = new Chunk(1);
        pending.park(parked);
        NdArray r = assertTimeoutPreemptively(Duration.ofSeconds(10), pending::await);
        pending.help();
        assertEquals(1, allocations.get());
        assertEquals(2, r.getLong(1), "the parked chunk copied in");
        assertEquals(1, parked.releases.get());
        // The first piece, run late, neither allocates again nor copies twice.
        pending.allocateAndDrain();
        assertEquals(1, allocations.get());
        assertEquals(1, parked.copies.get());
        pending.close();
    }

    @Test
    void closeReleasesWhatIsParkedWhenNothingAllocated() {
        PendingResult pending = new PendingResult(() -> {
            throw new AssertionError("never allocated");
        }, 1000);
        Chunk a = new Chunk(0);
        pending.park(a);
        pending.close();
        assertEquals(0, a.copies.get());
        assertEquals(1, a.releases.get());
        assertNull(pending.result());
        // A late first piece finds it settled and allocates nothing.
        pending.allocateAndDrain();
        assertNull(pending.result());
    }

    @Test
    void aFailedAllocationReleasesTheParkedChunksAndCopiesNone() throws Exception {
        CountDownLatch parked = new CountDownLatch(2);
        InsufficientMemoryException refused = new InsufficientMemoryException("the result", 1L << 40, null);
        PendingResult pending = new PendingResult(() -> {
            try {
                assertTrue(parked.await(10, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            throw refused;
        }, 1000);
        Chunk a = new Chunk(0);
        Chunk b = new Chunk(1);
        Thread other = new Thread(() -> {
            pending.park(a);
            parked.countDown();
            pending.park(b);
            parked.countDown();
        });
        other.start();
        assertSame(refused, assertThrows(InsufficientMemoryException.class, pending::allocateAndDrain));
        other.join(10_000);
        for (Chunk c : List.of(a, b)) {
            assertEquals(0, c.copies.get(), "copied with no array");
            assertEquals(1, c.releases.get(), "released by the failed allocation itself");
        }
        assertNull(pending.await(), "no array for the pieces that wait");
        // A chunk parked after the failure is released at once.
        Chunk late = new Chunk(2);
        pending.park(late);
        assertEquals(0, late.copies.get());
        assertEquals(1, late.releases.get());
    }
}
