package dev.zarrj.api;

import static dev.zarrj.api.TestTypes.BOOL;
import static dev.zarrj.api.TestTypes.FLOAT16;
import static dev.zarrj.api.TestTypes.FLOAT64;
import static dev.zarrj.api.TestTypes.INT16;
import static dev.zarrj.api.TestTypes.INT32;
import static dev.zarrj.api.TestTypes.INT8;
import static dev.zarrj.api.TestTypes.R24;
import static dev.zarrj.api.TestTypes.UINT64;
import static dev.zarrj.api.TestTypes.UINT8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Element accessors by one index per dimension, beside those by flat C-order index. */
class NdArrayElementAccessTest {

    static Stream<long[]> shapes() {
        return Stream.of(new long[0], new long[] {5}, new long[] {3, 4}, new long[] {2, 3, 4}, new long[] {2, 1, 3, 2});
    }

    /** What to do with one index of a shape and its position in C order. */
    private interface IndexVisitor {
        void visit(long[] index, long flat);
    }

    /** Every index of the shape in C order (last dimension fastest), counted independently of NdArray. */
    private static void forEachIndex(long[] shape, IndexVisitor visitor) {
        for (long n : shape) {
            if (n == 0) {
                return;
            }
        }
        long[] index = new long[shape.length];
        long flat = 0;
        while (true) {
            visitor.visit(index.clone(), flat++);
            int d = shape.length - 1;
            while (d >= 0 && ++index[d] == shape[d]) {
                index[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void longAccessorsReachTheElementInCOrder(long[] shape) {
        NdArray a = NdArray.allocate(INT32, shape);
        forEachIndex(shape, (index, flat) -> a.setLong(index, 1000 + flat));
        forEachIndex(shape, (index, flat) -> {
            String at = Arrays.toString(index);
            assertEquals(1000 + flat, a.bytes().getInt(4 * (int) flat), at);
            assertEquals(1000 + flat, a.getLong(index), at);
            assertEquals(1000 + flat, a.getLong(flat), at);
            assertEquals(flat, a.flatIndex(index), at);
        });
        forEachIndex(shape, (index, flat) -> a.setLong(flat, -flat));
        forEachIndex(shape, (index, flat) -> assertEquals(-flat, a.getLong(index), Arrays.toString(index)));
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void doubleAccessorsReachTheElementInCOrder(long[] shape) {
        NdArray a = NdArray.allocate(FLOAT64, shape);
        forEachIndex(shape, (index, flat) -> a.setDouble(index, flat + 0.5));
        forEachIndex(shape, (index, flat) -> {
            String at = Arrays.toString(index);
            assertEquals(flat + 0.5, a.bytes().getDouble(8 * (int) flat), at);
            assertEquals(flat + 0.5, a.getDouble(index), at);
            assertEquals(flat + 0.5, a.getDouble(flat), at);
        });
        forEachIndex(shape, (index, flat) -> a.setDouble(flat, -flat));
        forEachIndex(shape, (index, flat) -> assertEquals(-flat, a.getDouble(index), Arrays.toString(index)));
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void booleanAccessorsReachTheElementInCOrder(long[] shape) {
        NdArray a = NdArray.allocate(BOOL, shape);
        forEachIndex(shape, (index, flat) -> a.setBoolean(index, flat % 3 == 0));
        forEachIndex(shape, (index, flat) -> {
            String at = Arrays.toString(index);
            assertEquals(flat % 3 == 0 ? 1 : 0, a.bytes().get((int) flat), at);
            assertEquals(flat % 3 == 0, a.getBoolean(index), at);
            assertEquals(flat % 3 == 0, a.getBoolean(flat), at);
        });
        forEachIndex(shape, (index, flat) -> a.setBoolean(flat, flat % 3 != 0));
        forEachIndex(shape, (index, flat) -> assertEquals(flat % 3 != 0, a.getBoolean(index), Arrays.toString(index)));
    }

    @Test
    void severalLiteralIndicesAreOnePerDimensionAndOneIsFlat() {
        NdArray a = NdArray.allocate(FLOAT64, 4, 5);
        a.setDouble(new long[] {3, 4}, 2.5);
        assertEquals(2.5, a.getDouble(3, 4), "row 3, column 4");
        assertEquals(2.5, a.bytes().getDouble(8 * (3 * 5 + 4)));
        assertEquals(2.5, a.getDouble(19), "a single index is the flat index");
        a.setDouble(3, 1.0);
        assertEquals(1.0, a.getDouble(0, 3), "flat 3 is row 0, column 3");
        assertEquals(0.0, a.getDouble(3, 0));

        NdArray b = NdArray.allocate(INT8, 2, 3, 4);
        b.setLong(new long[] {1, 2, 3}, -7);
        assertEquals(-7, b.getLong(1, 2, 3));
        assertEquals(-7, b.getLong(23));
        assertEquals(-7.0, b.getDouble(1, 2, 3));

        NdArray c = NdArray.allocate(BOOL, 2, 2);
        c.setBoolean(new long[] {1, 0}, true);
        assertTrue(c.getBoolean(1, 0));
        assertTrue(c.getBoolean(2));
        assertFalse(c.getBoolean(0, 1));
    }

    @Test
    void oneDimensionalArraysAgreeInBothForms() {
        NdArray a = NdArray.allocate(INT16, 4);
        a.setLong(new long[] {2}, 9);
        assertEquals(9, a.getLong(2));
        assertEquals(9, a.getLong(new long[] {2}));
        a.setLong(3, 5);
        assertEquals(5, a.getLong(new long[] {3}));
    }

    @Test
    void zeroDimensionalArraysTakeNoIndexOrFlatZero() {
        NdArray s = NdArray.allocate(INT16);
        s.setLong(new long[0], -5);
        assertEquals(-5, s.getLong());
        assertEquals(-5, s.getLong(0));
        assertEquals(-5.0, s.getDouble());
        s.setDouble(new long[0], 7.9);
        assertEquals(7, s.getLong());
        assertEquals(7, s.bytes().getShort(0));

        NdArray f = NdArray.allocate(FLOAT16);
        f.setDouble(new long[0], 1.5);
        assertEquals(1.5, f.getDouble());

        NdArray b = NdArray.allocate(BOOL);
        b.setBoolean(new long[0], true);
        assertTrue(b.getBoolean());
        assertTrue(b.getBoolean(0));

        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> s.getLong(new long[] {0}));
        assertTrue(e.getMessage().contains("[0]") && e.getMessage().contains("[]"), e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> s.getDouble(0, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> s.getLong(1));
    }

    @Test
    void typeConversionsAreThoseOfTheFlatAccessors() {
        NdArray u = NdArray.allocate(UINT64, 2, 2);
        u.setLong(new long[] {1, 1}, -3);
        assertEquals(18446744073709551613.0, u.getDouble(1, 1), "uint64 above 2^63 reads as positive");
        u.setDouble(new long[] {0, 1}, 0x1p63);
        assertEquals(Long.MIN_VALUE, u.getLong(0, 1));

        NdArray b = NdArray.allocate(UINT8, 1, 2);
        b.setLong(new long[] {0, 1}, 0x1ff);
        assertEquals(0xff, b.getLong(0, 1), "truncated to the element size and zero-extended");
        assertEquals(0, b.getLong(0, 0));

        // 1 + 2^-11 is a float16 tie; a double just above it must round up, once.
        NdArray h = NdArray.allocate(FLOAT16, 1, 1);
        h.setDouble(new long[] {0, 0}, 1 + 0x1p-11 + 0x1p-40);
        assertEquals((short) 0x3c01, h.bytes().getShort(0));

        NdArray r = NdArray.allocate(R24, 2, 2);
        assertThrows(UnsupportedOperationException.class, () -> r.getLong(1, 1));
        assertThrows(UnsupportedOperationException.class, () -> r.setDouble(new long[] {1, 1}, 1));
    }

    /** Each per-dimension accessor, called with the same index on the same array. */
    private static List<Executable> accessors(NdArray a, long[] index) {
        return List.of(
                () -> a.getLong(index),
                () -> a.getDouble(index),
                () -> a.getBoolean(index),
                () -> a.setLong(index, 1),
                () -> a.setDouble(index, 1),
                () -> a.setBoolean(index, true));
    }

    @Test
    void indexOfTheWrongRankRefusedNamingIndexAndShape() {
        NdArray a = NdArray.allocate(UINT8, 2, 3);
        for (long[] index : new long[][] {{}, {1}, {1, 2, 0}}) {
            for (Executable call : accessors(a, index)) {
                IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, call);
                assertTrue(e.getMessage().contains("index " + Arrays.toString(index)), e.getMessage());
                assertTrue(e.getMessage().contains("[2, 3]"), e.getMessage());
            }
        }
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> a.getLong(1, 2, 0));
        assertTrue(e.getMessage().contains("rank 3") && e.getMessage().contains("rank 2"), e.getMessage());
        assertArrayEquals(new byte[6], a.toByteArray(), "nothing written");
    }

    @Test
    void indexOutsideTheShapeRefusedNamingIndexAndShape() {
        NdArray a = NdArray.allocate(UINT8, 2, 3);
        long[][] outside = {{2, 0}, {0, 3}, {-1, 0}, {0, -1}, {Long.MAX_VALUE, 0}, {0, Long.MIN_VALUE}, {1, 5}};
        for (long[] index : outside) {
            for (Executable call : accessors(a, index)) {
                IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, call);
                assertTrue(e.getMessage().contains("index " + Arrays.toString(index)), e.getMessage());
                assertTrue(e.getMessage().contains("[2, 3]"), e.getMessage());
            }
        }
        assertArrayEquals(new byte[6], a.toByteArray(), "nothing written");

        NdArray empty = NdArray.allocate(UINT8, 2, 0);
        assertThrows(IndexOutOfBoundsException.class, () -> empty.getLong(0, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> empty.getLong(0));
    }

    @Test
    void flatIndexOutsideRefusedNamingIndexAndShape() {
        NdArray a = NdArray.allocate(INT32, 2, 3);
        List<Executable> calls = List.of(
                () -> a.getLong(6), () -> a.getDouble(6), () -> a.getBoolean(6),
                () -> a.setLong(6, 1), () -> a.setDouble(6, 1), () -> a.setBoolean(6, true));
        for (Executable call : calls) {
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, call);
            assertTrue(e.getMessage().contains("flat index 6"), e.getMessage());
            assertTrue(e.getMessage().contains("[2, 3]"), e.getMessage());
        }
        assertThrows(IndexOutOfBoundsException.class, () -> a.getLong(-1));
        assertArrayEquals(new int[6], a.toIntArray(), "nothing written");
    }
}
