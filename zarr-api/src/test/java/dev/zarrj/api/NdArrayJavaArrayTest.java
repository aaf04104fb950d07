package dev.zarrj.api;

import static dev.zarrj.api.TestTypes.BOOL;
import static dev.zarrj.api.TestTypes.COMPLEX128;
import static dev.zarrj.api.TestTypes.COMPLEX64;
import static dev.zarrj.api.TestTypes.FLOAT16;
import static dev.zarrj.api.TestTypes.FLOAT32;
import static dev.zarrj.api.TestTypes.FLOAT64;
import static dev.zarrj.api.TestTypes.INT16;
import static dev.zarrj.api.TestTypes.INT32;
import static dev.zarrj.api.TestTypes.INT64;
import static dev.zarrj.api.TestTypes.INT8;
import static dev.zarrj.api.TestTypes.OTHER5;
import static dev.zarrj.api.TestTypes.R24;
import static dev.zarrj.api.TestTypes.UINT16;
import static dev.zarrj.api.TestTypes.UINT32;
import static dev.zarrj.api.TestTypes.UINT64;
import static dev.zarrj.api.TestTypes.UINT8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.Float16;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Bulk copies between arrays and Java arrays: one overload per primitive array type. */
class NdArrayJavaArrayTest {
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final long[] SHAPE = {2, 3};

    private static ByteBuffer bytes(NdArray a) {
        return a.bytes().order(NATIVE);
    }

    @Test
    void booleanArraysRoundTrip() {
        boolean[] v = {true, false, true, true, false, false};
        NdArray a = NdArray.copyOf(BOOL, v, SHAPE);
        assertArrayEquals(new byte[] {1, 0, 1, 1, 0, 0}, a.toByteArray());
        assertArrayEquals(v, a.toBooleanArray());
        assertArrayEquals(v, (boolean[]) a.toJavaArray());
        boolean[] into = new boolean[6];
        a.copyTo(into);
        assertArrayEquals(v, into);
        NdArray b = NdArray.allocate(BOOL, SHAPE);
        b.copyFrom(v);
        assertTrue(a.contentEquals(b));
    }

    @Test
    void byteArraysRoundTripForOneByteIntegersAndRawTypes() {
        for (DataType t : List.of(INT8, UINT8)) {
            byte[] v = {-128, -1, 0, 1, 2, 127};
            NdArray a = NdArray.copyOf(t, v, SHAPE);
            assertEquals(-1, bytes(a).get(1));
            assertEquals(t == INT8 ? -1 : 255, a.getLong(1));
            assertByteRoundTrip(a, v);
        }
        byte[] raw = new byte[18];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = (byte) (i + 1);
        }
        assertByteRoundTrip(NdArray.copyOf(R24, raw, SHAPE), raw);
        byte[] other = new byte[30];
        other[29] = 9;
        assertByteRoundTrip(NdArray.copyOf(OTHER5, other, SHAPE), other);
    }

    private static void assertByteRoundTrip(NdArray a, byte[] v) {
        assertArrayEquals(v, a.toByteArray());
        assertArrayEquals(v, (byte[]) a.toJavaArray());
        byte[] into = new byte[v.length];
        a.copyTo(into);
        assertArrayEquals(v, into);
        NdArray b = NdArray.allocate(a.dataType(), a.shape());
        b.copyFrom(v);
        assertTrue(a.contentEquals(b), a.dataType().name());
    }

    @Test
    void shortArraysRoundTrip() {
        for (DataType t : List.of(INT16, UINT16)) {
            short[] v = {Short.MIN_VALUE, -1, 0, 1, 300, Short.MAX_VALUE};
            NdArray a = NdArray.copyOf(t, v, SHAPE);
            assertEquals(300, bytes(a).getShort(2 * 4));
            assertEquals(t == INT16 ? -1 : 65535, a.getLong(0, 1));
            assertArrayEquals(v, a.toShortArray());
            assertArrayEquals(v, (short[]) a.toJavaArray());
            short[] into = new short[6];
            a.copyTo(into);
            assertArrayEquals(v, into);
            NdArray b = NdArray.allocate(t, SHAPE);
            b.copyFrom(v);
            assertTrue(a.contentEquals(b), t.name());
        }
    }

    @Test
    void intArraysRoundTrip() {
        for (DataType t : List.of(INT32, UINT32)) {
            int[] v = {Integer.MIN_VALUE, -1, 0, 1, 70000, Integer.MAX_VALUE};
            NdArray a = NdArray.copyOf(t, v, SHAPE);
            assertEquals(70000, bytes(a).getInt(4 * 4));
            assertEquals(t == INT32 ? -1 : 0xffffffffL, a.getLong(0, 1));
            assertArrayEquals(v, a.toIntArray());
            assertArrayEquals(v, (int[]) a.toJavaArray());
            int[] into = new int[6];
            a.copyTo(into);
            assertArrayEquals(v, into);
            NdArray b = NdArray.allocate(t, SHAPE);
            b.copyFrom(v);
            assertTrue(a.contentEquals(b), t.name());
        }
    }

    @Test
    void longArraysRoundTrip() {
        for (DataType t : List.of(INT64, UINT64)) {
            long[] v = {Long.MIN_VALUE, -1, 0, 1, 1L << 40, Long.MAX_VALUE};
            NdArray a = NdArray.copyOf(t, v, SHAPE);
            assertEquals(1L << 40, bytes(a).getLong(8 * 4));
            assertEquals(-1, a.getLong(0, 1), "8-byte integers keep their bits");
            assertArrayEquals(v, a.toLongArray());
            assertArrayEquals(v, (long[]) a.toJavaArray());
            long[] into = new long[6];
            a.copyTo(into);
            assertArrayEquals(v, into);
            NdArray b = NdArray.allocate(t, SHAPE);
            b.copyFrom(v);
            assertTrue(a.contentEquals(b), t.name());
        }
    }

    @Test
    void floatArraysRoundTripForFloat16Float32AndComplex64() {
        float[] f32 = {1.1f, -2.5e30f, 0f, Float.MIN_VALUE, Float.NaN, -0f};
        NdArray a = NdArray.copyOf(FLOAT32, f32, SHAPE);
        assertEquals(-2.5e30f, bytes(a).getFloat(4));
        assertFloatRoundTrip(a, f32);

        float[] f16 = {1.5f, -2f, 0f, 65504f, 0x1p-14f, Float.POSITIVE_INFINITY};
        NdArray h = NdArray.copyOf(FLOAT16, f16, SHAPE);
        assertEquals((short) 0x3e00, bytes(h).getShort(0));
        assertEquals(Float16.fromFloat(65504f), bytes(h).getShort(2 * 3));
        assertFloatRoundTrip(h, f16);

        float[] c64 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        NdArray c = NdArray.copyOf(COMPLEX64, c64, SHAPE);
        assertEquals(2f, bytes(c).getFloat(4), "imaginary part after the real part");
        assertEquals(3.0, c.getDouble(0, 1), "getDouble of a complex element is its real part");
        assertFloatRoundTrip(c, c64);
    }

    private static void assertFloatRoundTrip(NdArray a, float[] v) {
        assertArrayEquals(v, a.toFloatArray());
        assertArrayEquals(v, (float[]) a.toJavaArray());
        float[] into = new float[v.length];
        a.copyTo(into);
        assertArrayEquals(v, into);
        NdArray b = NdArray.allocate(a.dataType(), a.shape());
        b.copyFrom(v);
        assertTrue(a.contentEquals(b), a.dataType().name());
    }

    @Test
    void doubleArraysRoundTripForFloat64AndComplex128() {
        double[] f64 = {1.1, -2.5e300, 0, Double.MIN_VALUE, Double.NaN, -0.0};
        NdArray a = NdArray.copyOf(FLOAT64, f64, SHAPE);
        assertEquals(-2.5e300, bytes(a).getDouble(8));
        assertDoubleRoundTrip(a, f64);

        double[] c128 = {1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12};
        NdArray c = NdArray.copyOf(COMPLEX128, c128, SHAPE);
        assertEquals(-2.0, bytes(c).getDouble(8));
        assertDoubleRoundTrip(c, c128);
    }

    private static void assertDoubleRoundTrip(NdArray a, double[] v) {
        assertArrayEquals(v, a.toDoubleArray());
        assertArrayEquals(v, (double[]) a.toJavaArray());
        double[] into = new double[v.length];
        a.copyTo(into);
        assertArrayEquals(v, into);
        NdArray b = NdArray.allocate(a.dataType(), a.shape());
        b.copyFrom(v);
        assertTrue(a.contentEquals(b), a.dataType().name());
    }

    @Test
    void zeroDimensionalAndEmptyArrays() {
        NdArray s = NdArray.copyOf(FLOAT64, new double[] {2.5});
        assertEquals(0, s.rank());
        assertEquals(2.5, s.getDouble());
        assertArrayEquals(new double[] {2.5}, s.toDoubleArray());
        assertThrows(IllegalArgumentException.class, () -> NdArray.copyOf(FLOAT64, new double[0]));

        NdArray e = NdArray.copyOf(INT32, new int[0], 3, 0);
        assertEquals(0, e.elementCount());
        assertArrayEquals(new int[0], e.toIntArray());
        assertArrayEquals(new boolean[0], NdArray.allocate(BOOL, 0).toBooleanArray());
    }

    /** One primitive array type and its typed copies, called with an array of a given length. */
    private record JavaType(Class<?> type, BiConsumer<DataType, Integer> copyOf,
                            BiConsumer<NdArray, Integer> copyTo, BiConsumer<NdArray, Integer> copyFrom,
                            Consumer<NdArray> toArray) {
        String name() {
            return type.getSimpleName();
        }
    }

    private static final List<JavaType> JAVA_TYPES = List.of(
            new JavaType(boolean[].class, (t, n) -> NdArray.copyOf(t, new boolean[n], SHAPE),
                    (a, n) -> a.copyTo(new boolean[n]), (a, n) -> a.copyFrom(new boolean[n]), NdArray::toBooleanArray),
            new JavaType(byte[].class, (t, n) -> NdArray.copyOf(t, new byte[n], SHAPE),
                    (a, n) -> a.copyTo(new byte[n]), (a, n) -> a.copyFrom(new byte[n]), null),
            new JavaType(short[].class, (t, n) -> NdArray.copyOf(t, new short[n], SHAPE),
                    (a, n) -> a.copyTo(new short[n]), (a, n) -> a.copyFrom(new short[n]), NdArray::toShortArray),
            new JavaType(int[].class, (t, n) -> NdArray.copyOf(t, new int[n], SHAPE),
                    (a, n) -> a.copyTo(new int[n]), (a, n) -> a.copyFrom(new int[n]), NdArray::toIntArray),
            new JavaType(long[].class, (t, n) -> NdArray.copyOf(t, new long[n], SHAPE),
                    (a, n) -> a.copyTo(new long[n]), (a, n) -> a.copyFrom(new long[n]), NdArray::toLongArray),
            new JavaType(float[].class, (t, n) -> NdArray.copyOf(t, new float[n], SHAPE),
                    (a, n) -> a.copyTo(new float[n]), (a, n) -> a.copyFrom(new float[n]), NdArray::toFloatArray),
            new JavaType(double[].class, (t, n) -> NdArray.copyOf(t, new double[n], SHAPE),
                    (a, n) -> a.copyTo(new double[n]), (a, n) -> a.copyFrom(new double[n]), NdArray::toDoubleArray));

    private static final List<DataType> ALL_TYPES = List.of(BOOL, INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64,
            UINT64, FLOAT16, FLOAT32, FLOAT64, COMPLEX64, COMPLEX128, R24, OTHER5);

    @Test
    void otherJavaArrayTypesRefusedNamingDataTypeAndBothArrayTypes() {
        int checked = 0;
        for (DataType t : ALL_TYPES) {
            NdArray a = NdArray.allocate(t, SHAPE);
            String expected = a.javaArrayType().getSimpleName();
            for (JavaType j : JAVA_TYPES) {
                if (j.type() == a.javaArrayType()) {
                    continue;
                }
                // The length is the one the right array type would need, so only the type is wrong.
                int n = lengthFor(t);
                List<Executable> calls = new java.util.ArrayList<>(List.of(
                        () -> j.copyOf().accept(t, n), () -> j.copyTo().accept(a, n), () -> j.copyFrom().accept(a, n)));
                if (j.toArray() != null) {
                    calls.add(() -> j.toArray().accept(a));
                }
                for (Executable call : calls) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call,
                            t.name() + " with " + j.name());
                    String m = e.getMessage();
                    assertTrue(m.contains(t.name()) && m.contains(expected + ", not " + j.name()), m);
                    checked++;
                }
            }
        }
        // 16 types with 6 other array types, 3 copies each; the typed to...Array too, except
        // toByteArray (raw bytes of any type): 4 types copy to byte[], 12 others.
        assertEquals(16 * 6 * 3 + 4 * 6 + 12 * 5, checked);
    }

    @Test
    void wrongLengthRefusedNamingBothLengths() {
        for (DataType t : ALL_TYPES) {
            NdArray a = NdArray.allocate(t, SHAPE);
            JavaType j = JAVA_TYPES.stream().filter(x -> x.type() == a.javaArrayType()).findFirst().orElseThrow();
            int n = lengthFor(t);
            for (int wrong : new int[] {0, n - 1, n + 1}) {
                for (Executable call : List.<Executable>of(() -> j.copyOf().accept(t, wrong),
                        () -> j.copyTo().accept(a, wrong), () -> j.copyFrom().accept(a, wrong))) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call,
                            t.name() + " with " + wrong);
                    assertTrue(e.getMessage().contains("length " + n) && e.getMessage().contains("got " + wrong)
                            && e.getMessage().contains("[2, 3]"), e.getMessage());
                }
            }
            j.copyTo().accept(a, n); // the right length passes
        }
    }

    /** The Java array length that six elements of {@code t} need. */
    private static int lengthFor(DataType t) {
        return switch (t.kind()) {
            case COMPLEX -> 12;
            case RAW, OTHER -> 6 * t.size();
            default -> 6;
        };
    }

    @Test
    void nullRefused() {
        NdArray a = NdArray.allocate(INT32, 2);
        assertThrows(NullPointerException.class, () -> a.copyTo((int[]) null));
        assertThrows(NullPointerException.class, () -> a.copyFrom((int[]) null));
        assertThrows(NullPointerException.class, () -> NdArray.copyOf(INT32, (int[]) null, 2));
    }

    @Test
    void javaArrayTypeOfEachDataType() {
        assertSame(boolean[].class, NdArray.allocate(BOOL, 1).javaArrayType());
        assertSame(byte[].class, NdArray.allocate(UINT8, 1).javaArrayType());
        assertSame(byte[].class, NdArray.allocate(R24, 1).javaArrayType());
        assertSame(short[].class, NdArray.allocate(UINT16, 1).javaArrayType());
        assertSame(int[].class, NdArray.allocate(INT32, 1).javaArrayType());
        assertSame(long[].class, NdArray.allocate(UINT64, 1).javaArrayType());
        assertSame(float[].class, NdArray.allocate(FLOAT16, 1).javaArrayType());
        assertSame(float[].class, NdArray.allocate(COMPLEX64, 1).javaArrayType());
        assertSame(double[].class, NdArray.allocate(FLOAT64, 1).javaArrayType());
        assertSame(double[].class, NdArray.allocate(COMPLEX128, 1).javaArrayType());
    }
}
