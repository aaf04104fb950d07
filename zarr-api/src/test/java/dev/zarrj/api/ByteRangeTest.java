package dev.zarrj.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ByteRangeTest {

    @Test
    void boundedResolves() {
        assertArrayEquals(new long[] {2, 5}, ByteRange.of(2, 3).resolve(10));
        assertArrayEquals(new long[] {0, 10}, ByteRange.of(0, 10).resolve(10));
        assertArrayEquals(new long[] {10, 10}, ByteRange.of(10, 0).resolve(10), "empty range at the end");
        assertArrayEquals(new long[] {0, 0}, ByteRange.of(0, 0).resolve(0));
        assertEquals(2, ByteRange.of(2, 3).startIn(10));
    }

    @Test
    void boundedOutsideRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteRange.of(8, 3).resolve(10));
        assertTrue(e.getMessage().contains("[8, 11)") && e.getMessage().contains("10 bytes"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ByteRange.of(11, 0).resolve(10));
        assertThrows(IllegalArgumentException.class, () -> ByteRange.of(Long.MAX_VALUE, Long.MAX_VALUE).resolve(10),
                "an end past Long.MAX_VALUE is refused, not wrapped");
    }

    @Test
    void fromResolves() {
        assertArrayEquals(new long[] {0, 10}, ByteRange.all().resolve(10));
        assertArrayEquals(new long[] {4, 10}, ByteRange.from(4).resolve(10));
        assertArrayEquals(new long[] {10, 10}, ByteRange.from(10).resolve(10), "empty range at the end");
        assertArrayEquals(new long[] {0, 0}, ByteRange.all().resolve(0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteRange.from(11).resolve(10));
        assertTrue(e.getMessage().contains("[11, end)"), e.getMessage());
    }

    @Test
    void suffixResolves() {
        assertArrayEquals(new long[] {7, 10}, ByteRange.suffix(3).resolve(10));
        assertArrayEquals(new long[] {0, 10}, ByteRange.suffix(10).resolve(10));
        assertArrayEquals(new long[] {10, 10}, ByteRange.suffix(0).resolve(10));
        assertEquals(7, ByteRange.suffix(3).startIn(10));
    }

    @Test
    void suffixLongerThanValueRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteRange.suffix(11).resolve(10));
        assertTrue(e.getMessage().contains("last 11 bytes") && e.getMessage().contains("10 bytes"), e.getMessage());
    }

    @Test
    void negativeArgumentsRefusedAtConstruction() {
        assertThrows(IllegalArgumentException.class, () -> ByteRange.of(-1, 2));
        assertThrows(IllegalArgumentException.class, () -> ByteRange.of(0, -1));
        assertThrows(IllegalArgumentException.class, () -> ByteRange.from(-1));
        assertThrows(IllegalArgumentException.class, () -> ByteRange.suffix(-1));
    }

    @Test
    void factoriesBuildTheRecords() {
        assertEquals(new ByteRange.Bounded(1, 2), ByteRange.of(1, 2));
        assertEquals(new ByteRange.From(0), ByteRange.all());
        assertEquals(new ByteRange.Suffix(4), ByteRange.suffix(4));
    }

    // ---- ByteSource.of ----

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void byteSourceReadsRanges() {
        ByteBuffer data = ByteBuffer.wrap(new byte[] {9, 9, 0, 1, 2, 3, 4, 5, 6, 7});
        data.position(2); // the source covers position to limit
        ByteSource s = ByteSource.of(data);
        assertEquals(OptionalLong.of(8), s.size());
        assertArrayEquals(new byte[] {0, 1, 2, 3, 4, 5, 6, 7}, bytes(s.read(ByteRange.all()).orElseThrow()));
        assertArrayEquals(new byte[] {2, 3, 4}, bytes(s.read(ByteRange.of(2, 3)).orElseThrow()));
        assertArrayEquals(new byte[] {5, 6, 7}, bytes(s.read(ByteRange.from(5)).orElseThrow()));
        assertArrayEquals(new byte[] {6, 7}, bytes(s.read(ByteRange.suffix(2)).orElseThrow()));
        assertArrayEquals(new byte[0], bytes(s.read(ByteRange.of(8, 0)).orElseThrow()));
        assertEquals(2, data.position(), "the caller's buffer is not moved");
    }

    @Test
    void byteSourceReadAllKeepsOrder() {
        ByteSource s = ByteSource.of(ByteBuffer.wrap(new byte[] {0, 1, 2, 3, 4}));
        List<ByteBuffer> out = s.readAll(List.of(ByteRange.suffix(1), ByteRange.of(0, 2), ByteRange.from(2))).orElseThrow();
        assertArrayEquals(new byte[] {4}, bytes(out.get(0)));
        assertArrayEquals(new byte[] {0, 1}, bytes(out.get(1)));
        assertArrayEquals(new byte[] {2, 3, 4}, bytes(out.get(2)));
    }

    @Test
    void byteSourceOutOfRangeIsCorruptData() {
        ByteSource s = ByteSource.of(ByteBuffer.wrap(new byte[4]));
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> s.read(ByteRange.of(2, 3)));
        assertEquals("ZARR-CORRUPT", e.code());
        assertTrue(e.getMessage().contains("[2, 5)") && e.getMessage().contains("4 bytes"), e.getMessage());
        assertThrows(CorruptDataException.class, () -> s.read(ByteRange.suffix(5)));
        assertThrows(CorruptDataException.class, () -> s.read(ByteRange.from(5)));
    }

    @Test
    void defaultByteSourceSizeIsUnknown() {
        ByteSource s = range -> Optional.of(ByteBuffer.allocate(0));
        assertEquals(OptionalLong.empty(), s.size());
    }
}
