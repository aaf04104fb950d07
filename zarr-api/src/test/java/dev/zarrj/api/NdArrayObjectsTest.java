package dev.zarrj.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.datatype.FillValue;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Arrays of the variable-length kinds: elements are Strings or byte[]s, never bytes in a buffer. */
class NdArrayObjectsTest {
    private static final FillValue FOO = FillValue.ofBytes("foo".getBytes(StandardCharsets.UTF_8));

    private static NdArray strings(long... shape) {
        NdArray a = NdArray.allocate(TestTypes.STRING, shape);
        for (long i = 0; i < a.elementCount(); i++) {
            a.setString(i, "s" + i);
        }
        return a;
    }

    @Test
    void allocatedArraysHoldTheEmptyValue() {
        NdArray s = NdArray.allocate(TestTypes.STRING, 2, 3);
        assertTrue(s.holdsObjects());
        assertArrayEquals(new String[] {"", "", "", "", "", ""}, s.toStringArray());
        NdArray b = NdArray.allocate(TestTypes.BYTES, 2);
        assertArrayEquals(new byte[0], b.getBytes(1));
        assertTrue(NdArray.holdsAfterAllocate(TestTypes.STRING, FillValue.ofBytes(new byte[0])));
        // A string of one NUL is not the empty string, though its bytes are all zero.
        assertFalse(NdArray.holdsAfterAllocate(TestTypes.STRING, FillValue.ofBytes(new byte[1])));
        assertEquals("\0", NdArray.filled(TestTypes.STRING, FillValue.ofBytes(new byte[1]), 2).getString(1));
    }

    @Test
    void elementsByFlatAndPerDimensionIndex() {
        NdArray a = strings(2, 3);
        assertEquals("s5", a.getString(5));
        assertEquals("s5", a.getString(1, 2));
        a.setString(new long[] {0, 1}, "é🎉");
        assertEquals("é🎉", a.getString(1));
        assertArrayEquals("é🎉".getBytes(StandardCharsets.UTF_8), a.getBytes(0, 1));
        a.setBytes(2, "x".getBytes(StandardCharsets.UTF_8));
        assertEquals("x", a.getString(2));
        assertThrows(IllegalArgumentException.class, () -> a.setBytes(2, new byte[] {(byte) 0xff}));
        assertThrows(IllegalArgumentException.class, () -> a.setString(0, null));
        assertThrows(IndexOutOfBoundsException.class, () -> a.getString(6));
        assertThrows(IndexOutOfBoundsException.class, () -> a.getString(2, 0));
        assertThrows(UnsupportedOperationException.class, () -> a.getLong(0));
        assertThrows(UnsupportedOperationException.class, a::bytes);
        assertThrows(UnsupportedOperationException.class, a::toByteArray);
        assertThrows(IllegalArgumentException.class, () -> NdArray.wrap(TestTypes.STRING, ByteBuffer.allocate(0), 0));
    }

    @Test
    void byteStringsAreCopiedInAndOut() {
        byte[] v = {1, 2, 3};
        NdArray a = NdArray.copyOf(TestTypes.BYTES, new byte[][] {v, {}}, 2);
        v[0] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, a.getBytes(0));
        a.getBytes(0)[1] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, a.toBytesArray()[0]);
        assertThrows(UnsupportedOperationException.class, () -> a.getString(0));
        assertThrows(IllegalArgumentException.class, () -> a.copyFrom(new String[2]));
        assertThrows(IllegalArgumentException.class, () -> a.copyFrom(new byte[][] {{1}, null}));
        assertArrayEquals(new byte[] {1, 2, 3}, a.getBytes(0), "a failed copy sets nothing");
        assertEquals(byte[][].class, a.javaArrayType());
        assertEquals(String[].class, NdArray.allocate(TestTypes.STRING, 1).javaArrayType());
    }

    @Test
    void slicesAndReshapesAreViews() {
        NdArray a = strings(4, 2);
        NdArray rows = a.slice(1, 3);
        assertArrayEquals(new String[] {"s2", "s3", "s4", "s5"}, rows.toStringArray());
        rows.setString(new long[] {1, 0}, "changed");
        assertEquals("changed", a.getString(4));
        NdArray flat = rows.reshape(4);
        assertEquals("changed", flat.getString(2));
        assertArrayEquals(new String[] {"s3", "changed"}, flat.slice(1, 3).toStringArray());
    }

    @Test
    void regionsCopyFillAndCompare() {
        NdArray a = strings(3, 4);
        NdArray part = a.region(Region.of(new long[] {1, 1}, new long[] {2, 2}));
        assertArrayEquals(new String[] {"s5", "s6", "s9", "s10"}, part.toStringArray());
        NdArray target = NdArray.filled(TestTypes.STRING, FOO, 3, 4);
        assertTrue(target.isAll(FOO));
        RegionCopy.copy(part, Region.whole(2, 2), target, new long[] {0, 2});
        assertArrayEquals(new String[] {"foo", "foo", "s5", "s6", "foo", "foo", "s9", "s10", "foo", "foo", "foo", "foo"},
                target.toStringArray());
        assertFalse(target.isAll(FOO));
        assertTrue(target.isAll(FOO, Region.of(new long[] {0, 0}, new long[] {3, 2})));
        assertFalse(target.isAll(FOO, Region.of(new long[] {1, 1}, new long[] {1, 2})));
        target.fill(FOO, Region.of(new long[] {0, 2}, new long[] {2, 2}));
        assertTrue(target.isAll(FOO));
        // Copies between an array of objects and one of bytes are refused, not garbled.
        assertThrows(IllegalArgumentException.class,
                () -> RegionCopy.copy(part, Region.whole(2, 2), NdArray.allocate(TestTypes.R128, 2, 2), new long[2]));
        NdArray bytes = NdArray.allocate(TestTypes.BYTES, 2, 2);
        assertThrows(IllegalArgumentException.class, () -> RegionCopy.copy(part, Region.whole(2, 2), bytes, new long[2]),
                "strings copied into a bytes array would fail only later, as a ClassCastException");
    }

    @Test
    void contentEqualsComparesElements() {
        NdArray a = NdArray.copyOf(TestTypes.BYTES, new byte[][] {{1}, {2, 3}}, 2);
        NdArray b = NdArray.copyOf(TestTypes.BYTES, new byte[][] {{1}, {2, 3}}, 2);
        assertTrue(a.contentEquals(b));
        b.setBytes(1, new byte[] {2});
        assertFalse(a.contentEquals(b));
        assertFalse(strings(2).contentEquals(NdArray.copyOf(TestTypes.STRING, new String[] {"s0", "s2"}, 2)));
        assertTrue(strings(2).contentEquals(NdArray.copyOf(TestTypes.STRING, new String[] {"s0", "s1"}, 2)));
    }

    @Test
    void zeroDimensionalArraysHoldOneElement() {
        NdArray a = NdArray.copyOf(TestTypes.STRING, new String[] {"only"});
        assertEquals("only", a.getString());
        NdArray b = NdArray.allocate(TestTypes.STRING);
        RegionCopy.copy(a, Region.whole(), b, new long[0]);
        assertEquals("only", b.getString());
    }
}
