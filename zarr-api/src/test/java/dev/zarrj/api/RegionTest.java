package dev.zarrj.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class RegionTest {
    private static Region r(long[] offset, long[] shape) {
        return Region.of(offset, shape);
    }

    @Test
    void holdsCopiesOfItsArrays() {
        long[] offset = {1, 2};
        long[] shape = {3, 4};
        Region region = r(offset, shape);
        offset[0] = 99;
        shape[0] = 99;
        assertArrayEquals(new long[] {1, 2}, region.offset());
        assertArrayEquals(new long[] {3, 4}, region.shape());
        region.offset()[1] = 77;
        assertEquals(2, region.offset(1));
        assertEquals(4, region.end(0));
        assertEquals(12, region.elementCount());
        assertEquals("[1:4, 2:6]", region.toString());
    }

    @Test
    void refusesNegativeValuesOverflowAndMixedRanks() {
        assertThrows(IllegalArgumentException.class, () -> r(new long[] {-1}, new long[] {1}));
        assertThrows(IllegalArgumentException.class, () -> r(new long[] {0}, new long[] {-1}));
        assertThrows(IllegalArgumentException.class, () -> r(new long[] {Long.MAX_VALUE}, new long[] {1}));
        assertThrows(IllegalArgumentException.class, () -> r(new long[] {0, 0}, new long[] {1}));
    }

    @Test
    void wholeEmptyAndWithin() {
        Region whole = Region.whole(4, 5);
        assertTrue(whole.isWhole(new long[] {4, 5}));
        assertFalse(whole.isWhole(new long[] {4, 6}));
        assertFalse(r(new long[] {1, 0}, new long[] {3, 5}).isWhole(new long[] {4, 5}));
        assertTrue(r(new long[] {1, 0}, new long[] {3, 5}).isWithin(new long[] {4, 5}));
        assertFalse(r(new long[] {2, 0}, new long[] {3, 5}).isWithin(new long[] {4, 5}));
        assertFalse(whole.isWithin(new long[] {4}));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> r(new long[] {2, 0}, new long[] {3, 5}).checkWithin(new long[] {4, 5}, "the chunk"));
        assertTrue(e.getMessage().contains("[2:5, 0:5]") && e.getMessage().contains("the chunk"), e.getMessage());
        assertTrue(r(new long[] {1, 1}, new long[] {0, 3}).isEmpty());
        assertEquals(0, r(new long[] {1, 1}, new long[] {0, 3}).elementCount());
        assertEquals(1, Region.whole().elementCount(), "a 0-d region holds one element");
        assertFalse(Region.whole().isEmpty());
    }

    @Test
    void intersectTranslatePermute() {
        Region a = r(new long[] {0, 0}, new long[] {4, 4});
        Region b = r(new long[] {2, 3}, new long[] {4, 4});
        assertEquals(Optional.of(r(new long[] {2, 3}, new long[] {2, 1})), a.intersect(b));
        assertEquals(Optional.empty(), a.intersect(r(new long[] {4, 0}, new long[] {1, 1})), "touching is not sharing");
        assertEquals(r(new long[] {1, 5}, new long[] {4, 4}), b.translate(new long[] {-1, 2}));
        assertEquals(r(new long[] {7, 7}, new long[] {4, 4}), b.at(new long[] {7, 7}));
        Region c = r(new long[] {1, 2, 3}, new long[] {4, 5, 6});
        assertEquals(r(new long[] {3, 1, 2}, new long[] {6, 4, 5}), c.permute(new int[] {2, 0, 1}));
        assertThrows(IllegalArgumentException.class, () -> c.permute(new int[] {0, 1}));
        assertThrows(IllegalArgumentException.class, () -> a.translate(new long[] {-1, 0}));
    }

    @Test
    void equality() {
        assertEquals(r(new long[] {1}, new long[] {2}), r(new long[] {1}, new long[] {2}));
        assertEquals(r(new long[] {1}, new long[] {2}).hashCode(), r(new long[] {1}, new long[] {2}).hashCode());
        assertNotEquals(r(new long[] {1}, new long[] {2}), r(new long[] {2}, new long[] {1}));
    }
}
