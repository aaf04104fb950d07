package dev.zarrj.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.datatype.FillValue;
import org.junit.jupiter.api.Test;

/** A chunk's size in bytes always fits in a long: shapes that would overflow are refused up front. */
class ChunkSpecTest {
    private static final FillValue ZERO = FillValue.ofBytes(new byte[2]);

    @Test
    void sizesUpTo2To63MinusOneAreExact() {
        ChunkSpec s = new ChunkSpec(TestTypes.INT8, new long[] {Long.MAX_VALUE}, FillValue.ofBytes(new byte[1]));
        assertEquals(Long.MAX_VALUE, s.elementCount());
        assertEquals(Long.MAX_VALUE, s.byteSize());
        ChunkSpec t = new ChunkSpec(TestTypes.INT8, new long[] {1L << 31, 1L << 31, 1}, FillValue.ofBytes(new byte[1]));
        assertEquals(1L << 62, t.byteSize());
        assertThrows(IllegalArgumentException.class, () -> t.withShape(new long[] {1L << 31, 1L << 31, 2}));
        assertEquals(Long.MAX_VALUE - 1, new ChunkSpec(TestTypes.INT16, new long[] {Long.MAX_VALUE / 2}, ZERO).byteSize());
    }

    @Test
    void aShapeWhoseByteSizeOverflowsIsRefused() {
        for (long[] shape : new long[][] {{3037000500L, 3037000500L}, {Long.MAX_VALUE}, {1L << 62, 2},
                {1L << 32, 1L << 32, 1L << 32}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new ChunkSpec(TestTypes.INT16, shape, ZERO));
            assertTrue(e.getMessage().contains("2^63 - 1 bytes"), e.getMessage());
        }
    }

    @Test
    void aZeroDimensionMakesAnEmptyChunkWhateverTheOthers() {
        ChunkSpec s = new ChunkSpec(TestTypes.INT16, new long[] {Long.MAX_VALUE, Long.MAX_VALUE, 0}, ZERO);
        assertEquals(0, s.elementCount());
        assertEquals(0, s.byteSize());
    }

    @Test
    void anNdArrayTooLargeForABufferIsAnIllegalArgumentNotAnOverflow() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NdArray.allocate(TestTypes.INT16, 3037000500L, 3037000500L));
        assertTrue(e.getMessage().contains("2 GiB"), e.getMessage());
    }
}
