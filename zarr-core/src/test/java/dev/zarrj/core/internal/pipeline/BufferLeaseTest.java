package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** A lease gives a buffer back to the pool early when a codec hands it back, and only then once. */
class BufferLeaseTest {
    /** A size in a band no other test of this JVM uses, so that the pool's answers are this test's. */
    private static final int SIZE = 5_432_109;

    @Test
    void aBufferHandedBackGoesToThePoolAtOnceAndNotAgainAtClose() {
        long before = BufferLease.outstanding();
        ByteBuffer kept;
        ByteBuffer early;
        try (BufferLease lease = new BufferLease()) {
            kept = lease.borrow(SIZE);
            early = lease.borrow(SIZE);
            assertTrue(early.isDirect());
            assertEquals(before + 2, BufferLease.outstanding());
            lease.giveBack(early);
            assertEquals(before + 1, BufferLease.outstanding());
            ByteBuffer next = ChunkBuffers.take(SIZE);
            assertSame(early, next, "the buffer handed back serves the next request of its band");
            ChunkBuffers.give(next);
        }
        assertEquals(before, BufferLease.outstanding());
        // Both are free now, each once: two requests get the two buffers, a third new memory.
        ByteBuffer a = ChunkBuffers.take(SIZE);
        ByteBuffer b = ChunkBuffers.take(SIZE);
        ByteBuffer c = ChunkBuffers.take(SIZE);
        assertNotSame(a, b);
        assertTrue((a == kept || a == early) && (b == kept || b == early), "the two buffers come back once each");
        assertTrue(c != kept && c != early, "no buffer was pooled twice");
        ChunkBuffers.give(a);
        ChunkBuffers.give(b);
        ChunkBuffers.give(c);
    }

    @Test
    void aBufferNotLentOrAlreadyBackIsRefused() {
        try (BufferLease lease = new BufferLease()) {
            ByteBuffer b = lease.borrow(SIZE);
            assertThrows(IllegalArgumentException.class, () -> lease.giveBack(ByteBuffer.allocate(16)));
            assertThrows(IllegalArgumentException.class, () -> lease.giveBack(b.duplicate()), "a view is not the buffer");
            lease.giveBack(b);
            assertThrows(IllegalArgumentException.class, () -> lease.giveBack(b));
        }
    }
}
