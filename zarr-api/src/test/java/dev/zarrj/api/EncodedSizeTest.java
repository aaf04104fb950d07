package dev.zarrj.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EncodedSizeTest {
    @Test
    void maxOfEachForm() {
        assertEquals(12, EncodedSize.fixed(12).max());
        assertEquals(0, EncodedSize.fixed(0).max());
        assertEquals(99, EncodedSize.bounded(99).max());
        assertEquals(Long.MAX_VALUE, EncodedSize.unbounded().max());
    }

    @Test
    void factoriesBuildTheRecords() {
        assertEquals(new EncodedSize.Fixed(3), EncodedSize.fixed(3));
        assertEquals(new EncodedSize.Bounded(3), EncodedSize.bounded(3));
        assertEquals(new EncodedSize.Unbounded(), EncodedSize.unbounded());
    }

    @Test
    void negativeSizesRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EncodedSize.fixed(-1));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EncodedSize.bounded(-5));
        assertThrows(IllegalArgumentException.class, () -> new EncodedSize.Fixed(Long.MIN_VALUE));
    }
}
