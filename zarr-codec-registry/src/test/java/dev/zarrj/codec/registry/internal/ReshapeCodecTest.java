package dev.zarrj.codec.registry.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.core.DataTypes;
import org.junit.jupiter.api.Test;

/** {@code reshape} against the README's example and rules. */
class ReshapeCodecTest {
    private static ReshapeCodec codec(String shape) {
        return Codecs.create(new ReshapeCodecProvider(), "{\"shape\": " + shape + "}");
    }

    private static ChunkSpec spec(long... shape) {
        return new ChunkSpec(DataTypes.INT32, shape, DataTypes.INT32.defaultFillValue());
    }

    /** The README's example: chunks [100, 50, 64, 3] with [[0, 1], [2], 3] become [5000, 64, 3]. */
    @Test
    void theReadmesExample() {
        assertArrayEquals(new long[] {5000, 64, 3}, codec("[[0, 1], [2], 3]").encodedSpec(spec(100, 50, 64, 3))
                .shape());
    }

    @Test
    void sizesListsAndMinusOne() {
        assertArrayEquals(new long[] {6, 4}, codec("[-1, 4]").outputShape(new long[] {2, 3, 4}));
        assertArrayEquals(new long[] {2, 1, 12}, codec("[[0], 1, -1]").outputShape(new long[] {2, 3, 4}));
        assertArrayEquals(new long[] {1, 24}, codec("[[], [0, 1, 2]]").outputShape(new long[] {2, 3, 4}));
    }

    /** Elements keep their C order: [[0, 1, 2], [3, 4, 5]] reshaped to [3, 2] is [[0, 1], [2, 3], [4, 5]]. */
    @Test
    void elementsKeepTheirOrder() {
        ArrayToArrayCodec c = codec("[3, 2]");
        NdArray a = NdArray.copyOf(DataTypes.INT32, new int[] {0, 1, 2, 3, 4, 5}, 2, 3);
        NdArray e = c.encode(a, spec(2, 3));
        assertArrayEquals(new long[] {3, 2}, e.shape());
        assertEquals(2, e.getLong(1, 0));
        assertTrue(c.decode(e, spec(2, 3)).contentEquals(a));
        assertThrows(CorruptDataException.class, () -> c.decode(NdArray.allocate(DataTypes.INT32, 2, 3), spec(2, 3)));
    }

    /** The README's forbidden orders and the line-up rule: [[1], [0]], [[1, 0], 10, [3, 4]], [[3, 4], 10, [0, 1]]. */
    @Test
    void invalidShapesAreRefusedNamingTheEntry() {
        for (String bad : new String[] {"[[1], [0]]", "[[1, 0], 10, [3, 4]]", "[[3, 4], 10, [0, 1]]"}) {
            InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> codec(bad), bad);
            assertTrue(e.getMessage().contains("increasing"), e.getMessage());
        }
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> codec("[-1, -1]"));
        assertTrue(e.getMessage().contains("only once"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> codec("[0, 4]"));
        assertTrue(e.pointer().endsWith("/shape/0"), e.pointer());
        e = assertThrows(InvalidMetadataException.class, () -> codec("[5, 5]").encodedSpec(spec(2, 3, 4)));
        assertTrue(e.getMessage().contains("24 elements"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> codec("[-1, 5]").encodedSpec(spec(2, 3, 4)));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
        // [1] then [2]: output dimension 0 (3) is not input dimension 0 and what precedes it
        e = assertThrows(InvalidMetadataException.class, () -> codec("[[1], -1]").encodedSpec(spec(2, 3, 4)));
        assertTrue(e.getMessage().contains("line up"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> codec("[[3]]").encodedSpec(spec(2, 3, 4)));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    }

    @Test
    void configurationIsWrittenAsGiven() {
        assertEquals("{\"shape\":[[0,1],[2],3,-1]}", codec("[[0, 1], [2], 3, -1]").configuration().toString());
    }
}
