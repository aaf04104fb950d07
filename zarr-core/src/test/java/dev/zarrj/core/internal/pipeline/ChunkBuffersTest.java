package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
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

    @Test
    void capacitiesComeInBandsAtMostAQuarterLarger() {
        for (int size : new int[] {1, 4095, 65_536, 100_000, 3_000_000, 123_456_789}) {
            int c = ChunkBuffers.capacity(size);
            assertTrue(c >= size && c <= size + Math.max(4096, size / 4), size + " -> " + c);
        }
        assertEquals(ChunkBuffers.capacity(3_000_000), ChunkBuffers.capacity(3_100_000));
    }
}
