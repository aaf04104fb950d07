package dev.zarrj.codec.blosc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScratchTest {
    private static final int MIB = 1 << 20;

    /** Sizes round up to 64 KiB, not to a power of two: a 2 MiB chunk plus its header is not 4 MiB. */
    @Test
    void sizesRoundUpToTheGrainOnly() {
        assertEquals(Scratch.GRAIN, Scratch.size(1));
        assertEquals(Scratch.GRAIN, Scratch.size(Scratch.GRAIN));
        assertEquals(2 * MIB, Scratch.size(2 * MIB));
        assertEquals(2 * MIB + Scratch.GRAIN, Scratch.size(2 * MIB + BloscHeader.SIZE));
        assertEquals(Scratch.MAX_POOLED, Scratch.size(Scratch.MAX_POOLED));
        assertEquals(Scratch.MAX_POOLED + 1, Scratch.size(Scratch.MAX_POOLED + 1), "not pooled: exactly the request");
    }

    /**
     * One call in flight per core, each holding an input and an output block, allocates nothing
     * once the pool is warm: the blocks taken the second time are the ones returned the first time.
     */
    @Test
    void thePoolKeepsAnInputAndAnOutputBlockPerCore() {
        int bytes = 2 * MIB + BloscHeader.SIZE;
        assertEquals(2 * Runtime.getRuntime().availableProcessors(), Scratch.CAPACITY);
        Set<Scratch> first = takeAllAndClose(bytes);
        Set<Scratch> second = takeAllAndClose(bytes);
        assertEquals(first, second, "every block came from the pool");
        // A smaller request (an edge chunk, the frame to decode) reuses the larger blocks.
        assertEquals(first, takeAllAndClose(MIB));
    }

    /** Takes {@link Scratch#CAPACITY} blocks at once, then returns them all. */
    private static Set<Scratch> takeAllAndClose(int bytes) {
        List<Scratch> taken = new ArrayList<>();
        for (int i = 0; i < Scratch.CAPACITY; i++) {
            Scratch s = Scratch.take(bytes);
            assertTrue(s.buffer(bytes).isDirect());
            assertEquals(bytes, s.buffer(bytes).remaining());
            taken.add(s);
        }
        Set<Scratch> identities = Collections.newSetFromMap(new IdentityHashMap<>());
        identities.addAll(taken);
        assertEquals(Scratch.CAPACITY, identities.size());
        taken.forEach(Scratch::close);
        return identities;
    }
}
