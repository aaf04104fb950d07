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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.datatype.Float16;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class NdArrayTest {
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private static ByteBuffer nativeBuf(int n) {
        return ByteBuffer.allocate(n).order(NATIVE);
    }

    @Nested
    class Construction {
        @Test
        void allocateIsZeroFilledWithShapeAndSize() {
            NdArray a = NdArray.allocate(INT32, 2, 3);
            assertArrayEquals(new long[] {2, 3}, a.shape());
            assertEquals(2, a.rank());
            assertEquals(3, a.shape(1));
            assertEquals(6, a.elementCount());
            assertEquals(24, a.byteSize());
            assertArrayEquals(new byte[24], a.toByteArray());
            assertSame(INT32, a.dataType());
        }

        @Test
        void scalarHasOneElement() {
            NdArray a = NdArray.allocate(FLOAT64);
            assertEquals(0, a.rank());
            assertEquals(1, a.elementCount());
            assertEquals(8, a.byteSize());
        }

        @Test
        void zeroLengthDimensionGivesEmptyArray() {
            NdArray a = NdArray.allocate(INT16, 3, 0, 4);
            assertEquals(0, a.elementCount());
            assertEquals(0, a.byteSize());
            assertArrayEquals(new short[0], a.toShortArray());
        }

        @Test
        void shapeIsCopiedInAndOut() {
            long[] shape = {2, 2};
            NdArray a = NdArray.allocate(UINT8, shape);
            shape[0] = 99;
            assertEquals(2, a.shape(0));
            a.shape()[1] = 99;
            assertEquals(2, a.shape(1));
        }

        @Test
        void negativeDimensionRefused() {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> NdArray.allocate(UINT8, 2, -1));
            assertTrue(e.getMessage().contains("[2, -1]"), e.getMessage());
        }

        @Test
        void tooLargeForOneBufferRefused() {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> NdArray.allocate(FLOAT64, 1 << 20, 1 << 10));
            assertTrue(e.getMessage().contains("2 GiB"), e.getMessage());
        }

        @Test
        void filledSetsEveryElement() {
            NdArray a = NdArray.filled(INT32, TestTypes.fillInt(-7), 3, 5);
            int[] expected = new int[15];
            Arrays.fill(expected, -7);
            assertArrayEquals(expected, a.toIntArray());
            assertTrue(a.isAll(TestTypes.fillInt(-7)));
        }

        @Test
        void fillOfARegionSetsOnlyThatRegion() {
            NdArray a = NdArray.allocate(INT32, 3, 4);
            a.fill(TestTypes.fillInt(9), Region.of(new long[] {1, 1}, new long[] {2, 2}));
            assertArrayEquals(new int[] {0, 0, 0, 0, 0, 9, 9, 0, 0, 9, 9, 0}, a.toIntArray());
            assertThrows(IllegalArgumentException.class,
                    () -> a.fill(TestTypes.fillInt(9), Region.of(new long[] {2, 3}, new long[] {2, 2})));
        }

        @Test
        void isAllOfARegionLooksOnlyInsideIt() {
            NdArray a = NdArray.allocate(INT32, 3, 4, 5);
            a.fill(TestTypes.fillInt(9), Region.of(new long[] {1, 1, 1}, new long[] {2, 2, 3}));
            assertTrue(a.isAll(TestTypes.fillInt(9), Region.of(new long[] {1, 1, 1}, new long[] {2, 2, 3})));
            assertTrue(a.isAll(TestTypes.fillInt(0), Region.of(new long[] {0, 0, 0}, new long[] {1, 4, 5})));
            assertTrue(a.isAll(TestTypes.fillInt(0), Region.of(new long[] {1, 1, 1}, new long[] {2, 0, 3})), "empty region");
            for (long[] at : new long[][] {{1, 1, 0}, {1, 0, 1}, {0, 1, 1}, {1, 1, 2}}) {
                assertFalse(a.isAll(TestTypes.fillInt(9), Region.of(at, new long[] {2, 2, 3})), Arrays.toString(at));
            }
            a.setLong(a.flatIndex(2, 2, 3), 8); // the region's last element
            assertFalse(a.isAll(TestTypes.fillInt(9), Region.of(new long[] {1, 1, 1}, new long[] {2, 2, 3})));
            assertThrows(IllegalArgumentException.class,
                    () -> a.isAll(TestTypes.fillInt(9), Region.of(new long[] {2, 3, 3}, new long[] {2, 2, 3})));
        }

        @Test
        void filledWithZeroIsZero() {
            NdArray a = NdArray.filled(FLOAT32, TestTypes.fillFloat(0f), 4);
            assertArrayEquals(new float[4], a.toFloatArray());
        }

        @Test
        void wrapSharesTheBufferFromItsPosition() {
            ByteBuffer b = nativeBuf(4 + 12);
            b.position(4);
            NdArray a = NdArray.wrap(INT32, b, 3);
            b.putInt(4 + 8, 42);
            assertEquals(42, a.getLong(2));
            a.setLong(0, 5);
            assertEquals(5, b.getInt(4));
            assertEquals(0, b.getInt(0), "bytes before the position are not part of the array");
        }

        @Test
        void wrapRefusesSizeMismatchNamingBothSizes() {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> NdArray.wrap(INT16, nativeBuf(7), 2, 2));
            assertTrue(e.getMessage().contains("8 bytes"), e.getMessage());
            assertTrue(e.getMessage().contains("got 7"), e.getMessage());
            assertTrue(e.getMessage().contains("int16"), e.getMessage());
        }

        @Test
        void toStringNamesTypeAndShape() {
            assertEquals("NdArray[uint16 [2, 3]]", NdArray.allocate(UINT16, 2, 3).toString());
        }
    }

    @Test
    void elementBytesAreNativeOrder() {
        NdArray a = NdArray.copyOf(INT32, new int[] {0x01020304, -2}, 2);
        ByteBuffer b = a.bytes();
        assertEquals(NATIVE, b.order());
        assertEquals(0x01020304, b.getInt(0));
        assertEquals(-2, b.getInt(4));
        byte[] raw = a.toByteArray();
        assertEquals(0x01020304, ByteBuffer.wrap(raw).order(NATIVE).getInt(0));
    }

    @Test
    void boolStoresZeroOrOne() {
        NdArray a = NdArray.copyOf(BOOL, new boolean[] {true, false, true}, 3);
        assertArrayEquals(new byte[] {1, 0, 1}, a.toByteArray());
        assertTrue(a.getBoolean(0));
        assertFalse(a.getBoolean(1));
        a.setBoolean(1, true);
        assertEquals(1, a.getLong(1));
        // Any non-zero byte reads as true.
        a.bytes().put(2, (byte) 7);
        assertArrayEquals(new boolean[] {true, true, true}, (boolean[]) a.toJavaArray());
    }

    @Test
    void float16ConvertsThroughFloat() {
        NdArray a = NdArray.copyOf(FLOAT16, new float[] {1.0f, -2.5f, 0.1f, 70000f}, 4);
        ByteBuffer b = a.bytes();
        assertEquals((short) 0x3c00, b.getShort(0));
        assertEquals((short) 0xc100, b.getShort(2));
        assertEquals(Float16.fromFloat(0.1f), b.getShort(4));
        assertEquals((short) 0x7c00, b.getShort(6), "above the float16 range becomes infinity");
        float[] back = a.toFloatArray();
        assertArrayEquals(new float[] {1.0f, -2.5f, Float16.toFloat(Float16.fromFloat(0.1f)),
                Float.POSITIVE_INFINITY}, back);
        assertEquals(0.0999755859375f, back[2]);
    }

    @Test
    void complexIsInterleavedRealImaginary() {
        NdArray a = NdArray.copyOf(COMPLEX64, new float[] {1.5f, -2f, 3f, 4f}, 2);
        ByteBuffer b = a.bytes();
        assertEquals(1.5f, b.getFloat(0));
        assertEquals(-2f, b.getFloat(4));
        assertEquals(3f, b.getFloat(8));
        assertEquals(1.5, a.getDouble(0), "getDouble of a complex element is its real part");
        assertEquals(3.0, a.getDouble(1));
        NdArray c = NdArray.copyOf(COMPLEX128, new double[] {0.25, 8}, 1);
        assertEquals(8.0, c.bytes().getDouble(8));
        assertEquals(0.25, c.getDouble(0));
    }

    @Test
    void wrongJavaArrayTypeRefusedNamingExpectedType() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NdArray.copyOf(INT32, new long[4], 4));
        assertTrue(e.getMessage().contains("int[]"), e.getMessage());
        assertTrue(e.getMessage().contains("long[]"), e.getMessage());
        assertTrue(e.getMessage().contains("int32"), e.getMessage());

        NdArray f16 = NdArray.allocate(FLOAT16, 2);
        e = assertThrows(IllegalArgumentException.class, () -> f16.copyTo(new short[2]));
        assertTrue(e.getMessage().contains("float[]"), e.getMessage());

        assertThrows(IllegalArgumentException.class, () -> NdArray.copyOf(BOOL, new byte[2], 2));
        assertThrows(IllegalArgumentException.class, () -> NdArray.copyOf(COMPLEX64, new double[4], 2));
        assertThrows(IllegalArgumentException.class, () -> NdArray.copyOf(UINT16, new int[2], 2));
        assertThrows(NullPointerException.class, () -> NdArray.copyOf(UINT16, (short[]) null, 2));
    }

    @Test
    void wrongJavaArrayLengthRefusedNamingExpectedLength() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NdArray.copyOf(FLOAT64, new double[5], 2, 3));
        assertTrue(e.getMessage().contains("length 6"), e.getMessage());
        assertTrue(e.getMessage().contains("got 5"), e.getMessage());
        // Complex types take two Java elements per element.
        e = assertThrows(IllegalArgumentException.class, () -> NdArray.copyOf(COMPLEX64, new float[3], 3));
        assertTrue(e.getMessage().contains("length 6"), e.getMessage());
        // Raw types take one byte per element byte.
        e = assertThrows(IllegalArgumentException.class, () -> NdArray.copyOf(R24, new byte[2], 2));
        assertTrue(e.getMessage().contains("length 6"), e.getMessage());
    }

    @Test
    void typedShortcutsRefuseOtherTypes() {
        NdArray a = NdArray.allocate(INT16, 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, a::toIntArray);
        assertTrue(e.getMessage().contains("short[]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, a::toFloatArray);
        assertThrows(IllegalArgumentException.class, a::toDoubleArray);
        assertThrows(IllegalArgumentException.class, a::toLongArray);
        assertThrows(IllegalArgumentException.class, () -> NdArray.allocate(FLOAT32, 1).toShortArray());
        assertArrayEquals(new long[] {0, 0}, NdArray.allocate(UINT64, 2).toLongArray());
        assertArrayEquals(new double[] {0}, NdArray.allocate(FLOAT64, 1).toDoubleArray());
    }

    @Nested
    class Views {
        @Test
        void reshapeSharesMemory() {
            NdArray a = NdArray.copyOf(INT32, new int[] {0, 1, 2, 3, 4, 5}, 2, 3);
            NdArray r = a.reshape(3, 2);
            assertArrayEquals(new long[] {3, 2}, r.shape());
            assertArrayEquals(a.toIntArray(), r.toIntArray());
            r.setLong(r.flatIndex(2, 1), 99);
            assertEquals(99, a.getLong(a.flatIndex(1, 2)));
            a.setLong(0, -4);
            assertEquals(-4, r.getLong(0));
        }

        @Test
        void reshapeToScalarAndBack() {
            NdArray a = NdArray.copyOf(FLOAT64, new double[] {2.5}, 1, 1);
            NdArray s = a.reshape();
            assertEquals(0, s.rank());
            assertEquals(2.5, s.getDouble(0));
        }

        @Test
        void reshapeRefusesOtherElementCount() {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> NdArray.allocate(UINT8, 2, 3).reshape(4, 2));
            assertTrue(e.getMessage().contains("[2, 3]") && e.getMessage().contains("[4, 2]"), e.getMessage());
        }

        @Test
        void sliceSharesMemoryWithParent() {
            int[] values = new int[4 * 3];
            for (int i = 0; i < values.length; i++) {
                values[i] = i;
            }
            NdArray a = NdArray.copyOf(INT32, values, 4, 3);
            NdArray s = a.slice(1, 3);
            assertArrayEquals(new long[] {2, 3}, s.shape());
            assertArrayEquals(new int[] {3, 4, 5, 6, 7, 8}, s.toIntArray());
            s.setLong(s.flatIndex(1, 2), -1);
            assertEquals(-1, a.getLong(a.flatIndex(2, 2)));
            a.setLong(a.flatIndex(1, 0), 100);
            assertEquals(100, s.getLong(0));
            // Filling the view touches only its rows.
            s.fill(TestTypes.fillInt(7));
            assertArrayEquals(new int[] {0, 1, 2, 7, 7, 7, 7, 7, 7, 9, 10, 11}, a.toIntArray());
            assertEquals(24, s.byteSize());
        }

        @Test
        void sliceOfSliceAndEmptySlice() {
            NdArray a = NdArray.copyOf(INT16, new short[] {0, 1, 2, 3, 4, 5, 6, 7}, 8);
            NdArray s = a.slice(2, 7).slice(1, 3);
            assertArrayEquals(new short[] {3, 4}, s.toShortArray());
            assertEquals(0, a.slice(8, 8).elementCount());
            assertEquals(0, a.slice(3, 3).byteSize());
        }

        @Test
        void sliceOutsideRefused() {
            NdArray a = NdArray.allocate(UINT8, 4, 2);
            assertThrows(IllegalArgumentException.class, () -> a.slice(-1, 2));
            assertThrows(IllegalArgumentException.class, () -> a.slice(0, 5));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.slice(3, 2));
            assertTrue(e.getMessage().contains("[3, 2)"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> NdArray.allocate(UINT8).slice(0, 0));
        }

        @Test
        void bytesIsASharedView() {
            NdArray a = NdArray.allocate(INT64, 2);
            ByteBuffer b = a.bytes();
            assertEquals(0, b.position());
            assertEquals(16, b.limit());
            b.putLong(8, 123);
            assertEquals(123, a.getLong(1));
            b.position(5);
            assertEquals(0, a.bytes().position(), "each call returns an independent view");
        }

        @Test
        void regionCopiesOut() {
            NdArray a = NdArray.copyOf(INT32, new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 3, 4);
            NdArray r = a.region(Region.of(new long[] {1, 1}, new long[] {2, 2}));
            assertArrayEquals(new int[] {5, 6, 9, 10}, r.toIntArray());
            r.setLong(0, -1);
            assertEquals(5, a.getLong(5), "a region is a copy, not a view");
        }
    }

    @Nested
    class Fill {
        @Test
        void multiByteValueLandsInEveryElement() {
            NdArray a = NdArray.allocate(INT32, 7);
            a.fill(TestTypes.fill((byte) 1, (byte) 2, (byte) 3, (byte) 4));
            byte[] bytes = a.toByteArray();
            for (int i = 0; i < 7; i++) {
                assertArrayEquals(new byte[] {1, 2, 3, 4}, Arrays.copyOfRange(bytes, 4 * i, 4 * i + 4), "element " + i);
            }
        }

        @Test
        void sixteenByteValue() {
            NdArray a = NdArray.allocate(COMPLEX128, 5);
            a.fill(TestTypes.fillComplex128(1.5, -3));
            assertArrayEquals(new double[] {1.5, -3, 1.5, -3, 1.5, -3, 1.5, -3, 1.5, -3}, (double[]) a.toJavaArray());
        }

        @Test
        void sizeThatIsNotAPowerOfTwo() {
            for (int n = 0; n <= 11; n++) {
                NdArray a = NdArray.allocate(R24, n);
                a.fill(TestTypes.fill((byte) 9, (byte) 8, (byte) 7));
                byte[] expected = new byte[3 * n];
                for (int i = 0; i < n; i++) {
                    expected[3 * i] = 9;
                    expected[3 * i + 1] = 8;
                    expected[3 * i + 2] = 7;
                }
                assertArrayEquals(expected, a.toByteArray(), "n=" + n);
            }
        }

        @Test
        void wrongValueSizeRefused() {
            NdArray a = NdArray.allocate(INT16, 3);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> a.fill(TestTypes.fillInt(1)));
            assertTrue(e.getMessage().contains("4 bytes") && e.getMessage().contains("int16"), e.getMessage());
        }

        @Test
        void isAllChecksEveryElement() {
            NdArray a = NdArray.filled(FLOAT64, TestTypes.fillDouble(Double.NaN), 9);
            assertTrue(a.isAll(TestTypes.fillDouble(Double.NaN)));
            assertFalse(a.isAll(TestTypes.fillDouble(0)));
            a.setDouble(8, 1.0);
            assertFalse(a.isAll(TestTypes.fillDouble(Double.NaN)), "last element differs");
        }

        @Test
        void isAllComparesBitsNotValues() {
            NdArray a = NdArray.filled(FLOAT32, TestTypes.fillFloat(0f), 3);
            assertTrue(a.isAll(TestTypes.fillFloat(0f)));
            assertFalse(a.isAll(TestTypes.fillFloat(-0f)), "-0.0 has other bits than 0.0");
            a.fill(TestTypes.fillFloat(-0f));
            assertTrue(a.isAll(TestTypes.fillFloat(-0f)));
            assertFalse(a.isAll(TestTypes.fillFloat(0f)));
        }

        @Test
        void isAllZeroSeesANonZeroByteAnywhere() {
            for (int n = 1; n <= 20; n++) {
                for (int k = 0; k < n; k++) {
                    NdArray a = NdArray.allocate(UINT8, n);
                    assertTrue(a.isAll(TestTypes.fill((byte) 0)));
                    a.setLong(k, 1);
                    assertFalse(a.isAll(TestTypes.fill((byte) 0)), "n=" + n + " k=" + k);
                }
            }
        }

        @Test
        void isAllOneByteAndMultiByteValues() {
            NdArray a = NdArray.filled(UINT8, TestTypes.fill((byte) 5), 10);
            assertTrue(a.isAll(TestTypes.fill((byte) 5)));
            a.setLong(9, 6);
            assertFalse(a.isAll(TestTypes.fill((byte) 5)));

            NdArray b = NdArray.filled(INT16, TestTypes.fillShort((short) 0x1234), 6);
            assertTrue(b.isAll(TestTypes.fillShort((short) 0x1234)));
            b.bytes().put(11, (byte) 0);
            assertFalse(b.isAll(TestTypes.fillShort((short) 0x1234)));
        }

        @Test
        void isAllOnAnEmptyArray() {
            assertTrue(NdArray.allocate(INT32, 0).isAll(TestTypes.fillInt(3)));
        }
    }

    @Nested
    class ContentEquals {
        @Test
        void sameTypeShapeAndBytes() {
            NdArray a = NdArray.copyOf(INT32, new int[] {1, 2, 3, 4}, 2, 2);
            NdArray b = NdArray.copyOf(INT32, new int[] {1, 2, 3, 4}, 2, 2);
            assertTrue(a.contentEquals(b));
            assertTrue(b.contentEquals(a));
            b.setLong(3, 5);
            assertFalse(a.contentEquals(b));
            assertFalse(a.contentEquals(null));
        }

        @Test
        void otherShapeOrTypeDiffers() {
            NdArray a = NdArray.copyOf(INT32, new int[] {1, 2, 3, 4}, 2, 2);
            assertFalse(a.contentEquals(a.reshape(4)), "same bytes, other shape");
            NdArray asUint = NdArray.wrap(UINT32, a.bytes(), 2, 2);
            assertFalse(a.contentEquals(asUint), "same bytes, other type");
            NdArray asFloat = NdArray.wrap(FLOAT32, a.bytes(), 2, 2);
            assertFalse(a.contentEquals(asFloat));
        }

        @Test
        void viewsCompareByTheirOwnBytes() {
            NdArray a = NdArray.copyOf(INT16, new short[] {0, 1, 2, 3, 4, 5}, 3, 2);
            NdArray expected = NdArray.copyOf(INT16, new short[] {2, 3, 4, 5}, 2, 2);
            assertTrue(a.slice(1, 3).contentEquals(expected));
            assertTrue(expected.contentEquals(a.slice(1, 3)));
            assertFalse(a.slice(0, 2).contentEquals(expected));
        }
    }

    @Nested
    class ElementAccess {
        @Test
        void getLongSignExtendsInts() {
            assertEquals(-1, longOf(INT8, -1));
            assertEquals(-128, longOf(INT8, 0x80));
            assertEquals(-1, longOf(INT16, 0xffff));
            assertEquals(-32768, longOf(INT16, 0x8000));
            assertEquals(-1, longOf(INT32, 0xffffffffL));
            assertEquals(Integer.MIN_VALUE, longOf(INT32, 0x80000000L));
            assertEquals(-1, longOf(INT64, -1));
            assertEquals(127, longOf(INT8, 127));
        }

        @Test
        void getLongZeroExtendsUints() {
            assertEquals(255, longOf(UINT8, -1));
            assertEquals(128, longOf(UINT8, 0x80));
            assertEquals(65535, longOf(UINT16, -1));
            assertEquals(0x8000, longOf(UINT16, 0x8000));
            assertEquals(0xffffffffL, longOf(UINT32, -1));
            assertEquals(0x80000000L, longOf(UINT32, 0x80000000L));
            assertEquals(-1L, longOf(UINT64, -1), "uint64 keeps its bits");
            assertEquals("18446744073709551615", Long.toUnsignedString(longOf(UINT64, -1)));
            assertEquals(1, longOf(BOOL, 1));
        }

        private long longOf(DataType type, long bits) {
            NdArray a = NdArray.allocate(type, 2);
            a.setLong(1, bits);
            assertEquals(0, a.getLong(0), "neighbour untouched");
            return a.getLong(1);
        }

        @Test
        void setLongTruncatesToTheElementSize() {
            NdArray a = NdArray.allocate(UINT8, 2);
            a.setLong(0, 0x1ff);
            assertEquals(0xff, a.getLong(0));
            assertEquals(0, a.getLong(1));
        }

        @Test
        void getDoubleOfEachKind() {
            assertEquals(-3.0, doubleOf(INT16, -3));
            assertEquals(65533.0, doubleOf(UINT16, -3));
            assertEquals(4294967293.0, doubleOf(UINT32, -3));
            assertEquals(18446744073709551613.0, doubleOf(UINT64, -3), "uint64 above 2^63 reads as positive");
            assertEquals(0x1p63, doubleOf(UINT64, Long.MIN_VALUE));
            assertEquals(-9.223372036854775808e18, doubleOf(INT64, Long.MIN_VALUE));
            assertEquals(1.0, doubleOf(BOOL, 1));
        }

        private double doubleOf(DataType type, long bits) {
            NdArray a = NdArray.allocate(type, 1);
            a.setLong(0, bits);
            return a.getDouble(0);
        }

        @Test
        void getAndSetDoubleOnFloats() {
            NdArray h = NdArray.allocate(FLOAT16, 3);
            h.bytes().putShort(0, (short) 0x3e00);
            assertEquals(1.5, h.getDouble(0));
            h.setDouble(1, -65504.0);
            assertEquals((short) 0xfbff, h.bytes().getShort(2));
            assertEquals(-65504.0, h.getDouble(1));
            h.setDouble(2, 1e-8);
            assertEquals(0.0, h.getDouble(2), "below half the smallest subnormal rounds to zero");

            NdArray f = NdArray.allocate(FLOAT32, 1);
            f.setDouble(0, 0.1);
            assertEquals((double) 0.1f, f.getDouble(0));

            NdArray d = NdArray.allocate(FLOAT64, 1);
            d.setDouble(0, Math.PI);
            assertEquals(Math.PI, d.getDouble(0));
            d.setDouble(0, Double.NaN);
            assertTrue(Double.isNaN(d.getDouble(0)));
        }

        @Test
        void setDoubleOnFloat16RoundsTheDoubleOnce() {
            // 1 + 2^-11 is half-way between the float16 values 1 and 1 + 2^-10; a double just above
            // it must round up. Rounding to float first would land on the tie and round to even (1).
            NdArray h = NdArray.allocate(FLOAT16, 2);
            h.setDouble(0, 1 + 0x1p-11 + 0x1p-40);
            assertEquals((short) 0x3c01, h.bytes().getShort(0));
            h.setDouble(1, 1 + 0x1p-11 - 0x1p-40);
            assertEquals((short) 0x3c00, h.bytes().getShort(2));
            h.setDouble(0, 1 + 0x1p-11);
            assertEquals((short) 0x3c00, h.bytes().getShort(0), "an exact tie rounds to even");
            h.setDouble(0, 65520.0 - 0x1p-30);
            assertEquals((short) 0x7bff, h.bytes().getShort(0));
            h.setDouble(0, Double.NaN);
            assertTrue(Double.isNaN(h.getDouble(0)));
            h.setDouble(0, Double.NEGATIVE_INFINITY);
            assertEquals((short) 0xfc00, h.bytes().getShort(0));
            h.setDouble(0, 1e300);
            assertEquals((short) 0x7c00, h.bytes().getShort(0));
        }

        @Test
        void setDoubleOnIntegersTruncates() {
            NdArray a = NdArray.allocate(INT32, 2);
            a.setDouble(0, -2.9);
            a.setDouble(1, 7.9);
            assertArrayEquals(new int[] {-2, 7}, a.toIntArray());
        }

        @Test
        void setDoubleOnUint64AboveLongRange() {
            NdArray a = NdArray.allocate(UINT64, 2);
            a.setDouble(0, 0x1p63);
            a.setDouble(1, 18446744073709549568.0); // the largest double below 2^64
            assertEquals(Long.MIN_VALUE, a.getLong(0));
            assertEquals("18446744073709549568", Long.toUnsignedString(a.getLong(1)));
            assertEquals(18446744073709549568.0, a.getDouble(1));
        }

        @Test
        void typedAccessOnUnsupportedTypesRefused() {
            assertThrows(UnsupportedOperationException.class, () -> NdArray.allocate(R24, 1).getLong(0));
            assertThrows(UnsupportedOperationException.class, () -> NdArray.allocate(R24, 1).getDouble(0));
            assertThrows(UnsupportedOperationException.class, () -> NdArray.allocate(OTHER5, 1).setLong(0, 1));
            assertThrows(UnsupportedOperationException.class, () -> NdArray.allocate(COMPLEX64, 1).setDouble(0, 1));
        }

        @Test
        void indexOutOfRangeRefused() {
            NdArray a = NdArray.allocate(INT32, 2, 2);
            assertThrows(IndexOutOfBoundsException.class, () -> a.getLong(4));
            assertThrows(IndexOutOfBoundsException.class, () -> a.getLong(-1));
            assertThrows(IndexOutOfBoundsException.class, () -> a.setDouble(4, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> a.getBoolean(9));
        }

        @Test
        void flatIndexIsRowMajor() {
            NdArray a = NdArray.allocate(UINT8, 2, 3, 4);
            assertEquals(0, a.flatIndex(0, 0, 0));
            assertEquals(1, a.flatIndex(0, 0, 1));
            assertEquals(4, a.flatIndex(0, 1, 0));
            assertEquals(12, a.flatIndex(1, 0, 0));
            assertEquals(23, a.flatIndex(1, 2, 3));
            assertEquals(0, NdArray.allocate(UINT8).flatIndex());
        }

        @Test
        void flatIndexRefusesWrongRankAndOutOfBounds() {
            NdArray a = NdArray.allocate(UINT8, 2, 3);
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> a.flatIndex(1));
            assertTrue(e.getMessage().contains("rank 1") && e.getMessage().contains("rank 2"), e.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> a.flatIndex(0, 3));
            assertThrows(IndexOutOfBoundsException.class, () -> a.flatIndex(2, 0));
            assertThrows(IndexOutOfBoundsException.class, () -> a.flatIndex(-1, 0));
        }
    }

    @Test
    void filledUsesTheExactBits() {
        FillValue nanPayload = TestTypes.fillInt(0x7fc00001);
        NdArray a = NdArray.filled(FLOAT32, nanPayload, 3);
        for (int i = 0; i < 3; i++) {
            assertEquals(0x7fc00001, a.bytes().getInt(4 * i));
        }
    }
}
