package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RegionTest {
    @Test
    void parsesRangesOpenEndsAndSingleIndices() {
        Region r = Region.parse("0:10, 5:,:3,4", new long[] {20, 8, 9, 10});
        assertArrayEquals(new long[] {0, 5, 0, 4}, r.offset());
        assertArrayEquals(new long[] {10, 3, 3, 1}, r.shape());
        assertArrayEquals(new long[] {20, 8}, Region.parse(":,:", new long[] {20, 8}).shape());
        assertArrayEquals(new long[0], Region.parse("", new long[0]).shape());
    }

    @Test
    void refusesWrongRankAndBounds() {
        assertThrows(UserError.class, () -> Region.parse("0:1", new long[] {2, 2}));
        assertThrows(UserError.class, () -> Region.parse("0:3", new long[] {2}));
        assertThrows(UserError.class, () -> Region.parse("2:1", new long[] {4}));
        assertThrows(UserError.class, () -> Region.parse("x", new long[] {4}));
    }
}
