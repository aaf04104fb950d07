package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.CorruptDataException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The chunk buffer pool: reuse within a band, the heap for small and oversized requests. */
class ChunkBuffersTest {
    @Test
    void aBufferGivenBackServesTheNextRequestOfItsBand() {
        ByteBuffer a = ChunkBuffers.take(3_000_000);
        assertTrue(a.isDirect());
        assertEquals(0, a.position());
        assertEquals(3_000_000, a.limit());
        ChunkBuffers.give(a);
        // A compressed chunk a little larger falls in the same band: the same memory serves it.
        ByteBuffer b = ChunkBuffers.take(3_100_000);
        assertSame(a, b);
        assertEquals(3_100_000, b.limit());
        ChunkBuffers.give(b);
    }

    @Test
    void smallRequestsAndRequestsBeyondTheBudgetAreServedFromTheHeap() {
        ByteBuffer small = ChunkBuffers.take(100);
        assertFalse(small.isDirect());
        assertEquals(100, small.remaining());
        ByteBuffer huge = ChunkBuffers.take((int) Math.min(Integer.MAX_VALUE - 64, ChunkBuffers.BUDGET + 1));
        assertFalse(huge.isDirect());
        ChunkBuffers.give(small);
        ChunkBuffers.give(huge);
    }

    /** The pipeline's size check costs nothing when a pooled buffer is reused, and precedes every allocation. */
    @Test
    void theCheckBeforeAllocatingRunsOnlyWhenMemoryIsAllocated() {
        int size = 5_555_555;
        AtomicInteger checks = new AtomicInteger();
        List<ByteBuffer> held = new ArrayList<>();
        while (checks.get() == 0 && held.size() < 1000) { // past whatever other tests left free in this band
            held.add(ChunkBuffers.take(size, checks::incrementAndGet));
        }
        assertEquals(1, checks.get());
        held.forEach(ChunkBuffers::give);
        ByteBuffer reused = ChunkBuffers.take(size, checks::incrementAndGet);
        assertEquals(1, checks.get(), "a reused buffer is not checked");
        assertThrows(CorruptDataException.class, () -> {
            List<ByteBuffer> more = new ArrayList<>();
            try {
                while (true) {
                    more.add(ChunkBuffers.take(size, () -> {
                        throw new CorruptDataException("refused");
                    }));
                }
            } finally {
                more.forEach(ChunkBuffers::give);
            }
        });
        ChunkBuffers.give(reused);
    }

    @Test
    void capacitiesComeInBandsAtMostAQuarterLarger() {
        for (int size : new int[] {1, 4095, 65_536, 100_000, 3_000_000, 123_456_789}) {
            int c = ChunkBuffers.capacity(size);
            assertTrue(c >= size && c <= size + Math.max(4096, size / 4), size + " -> " + c);
        }
        assertEquals(ChunkBuffers.capacity(3_000_000), ChunkBuffers.capacity(3_100_000));
    }
}
