package dev.zarrj.ext.mldtypes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The values users see through NdArray and the bytes that reach the store, bit for bit, for
 * patterns worked out by hand from each README's layout (sign, exponent bits and bias, mantissa
 * bits, special values), and the rounding documented on {@link MlDataTypes}.
 */
class MlDataTypesTest {
    private static final Zarr ZARR = Zarr.defaults();

    /** The stored bytes of {@code values} written through setDouble. */
    private static byte[] patterns(DataType t, double... values) {
        NdArray a = NdArray.allocate(t, values.length);
        for (int i = 0; i < values.length; i++) {
            a.setDouble(i, values[i]);
        }
        return a.toByteArray();
    }

    private static byte[] b(int... v) {
        byte[] out = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (byte) v[i];
        }
        return out;
    }

    private static NdArray of(DataType t, int... bytes) {
        return NdArray.wrap(t, ByteBuffer.wrap(b(bytes)), bytes.length * 1L / t.size());
    }

    @Test
    void float8FormatsHaveTheirReadmeLayouts() {
        assertArrayEquals(b(0x38, 0x77, 0x01, 0x78, 0x7c, 0xb8), patterns(MlDataTypes.FLOAT8_E4M3, 1, 240, 0x1p-9,
                Double.POSITIVE_INFINITY, Double.NaN, -1));
        assertArrayEquals(b(0x3c, 0x7b, 0x7c, 0x7e), patterns(MlDataTypes.FLOAT8_E5M2, 1, 57344, Double.POSITIVE_INFINITY,
                Double.NaN));
        assertArrayEquals(b(0x30, 0x6f, 0x70, 0x78), patterns(MlDataTypes.FLOAT8_E3M4, 1, 15.5, Double.POSITIVE_INFINITY,
                Double.NaN));
        assertArrayEquals(b(0x40, 0x7f, 0x80, 0x00, 0x01), patterns(MlDataTypes.FLOAT8_E4M3FNUZ, 1, 240, Double.NaN, -0.0,
                0x1p-10));
        assertArrayEquals(b(0x58, 0x7f, 0x80), patterns(MlDataTypes.FLOAT8_E4M3B11FNUZ, 1, 30, Double.NaN));
        assertArrayEquals(b(0x40, 0x7f, 0x80), patterns(MlDataTypes.FLOAT8_E5M2FNUZ, 1, 57344, Double.NaN));
        assertArrayEquals(b(0x7f, 0xfe, 0x00, 0xff, 0x80), patterns(MlDataTypes.FLOAT8_E8M0FNU, 1, 0x1p127, 0x1p-127,
                Double.NaN, 2));
        assertEquals(-1.0, of(MlDataTypes.FLOAT8_E4M3, 0xb8).getDouble(0));
        assertTrue(Double.isNaN(of(MlDataTypes.FLOAT8_E4M3FNUZ, 0x80).getDouble(0)));
        assertEquals(0x1p-127, of(MlDataTypes.FLOAT8_E8M0FNU, 0x00).getDouble(0));
    }

    @Test
    void mxFormatsIgnoreTheirUpperBits() {
        assertArrayEquals(b(0x08, 0x1f, 0x01, 0x3f), patterns(MlDataTypes.FLOAT6_E2M3FN, 1, 7.5, 0.125, -7.5));
        assertArrayEquals(b(0x0c, 0x1f, 0x01), patterns(MlDataTypes.FLOAT6_E3M2FN, 1, 28, 0.0625));
        assertArrayEquals(b(0, 1, 2, 3, 4, 5, 6, 7, 0xf), patterns(MlDataTypes.FLOAT4_E2M1FN, 0, 0.5, 1, 1.5, 2, 3, 4, 6, -6));
        assertEquals(1.0, of(MlDataTypes.FLOAT6_E2M3FN, 0xc8).getDouble(0), "0bXX001000: XX ignored");
        assertEquals(-6.0, of(MlDataTypes.FLOAT4_E2M1FN, 0x5f).getDouble(0), "0bXXXX1111: XXXX ignored");
    }

    @Test
    void writesRoundToNearestTiesToEvenAndOverflowAsDocumented() {
        // float4_e2m1fn: ties go to the even pattern; beyond 6 it saturates (no infinity, no NaN).
        assertArrayEquals(b(0x4, 0x6, 0x6, 0x7, 0x7, 0xf, 0x7), patterns(MlDataTypes.FLOAT4_E2M1FN, 2.5, 3.5, 5, 7, 100,
                -100, Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> patterns(MlDataTypes.FLOAT4_E2M1FN, Double.NaN));
        // float8_e4m3: 248 is the tie between 240 and the first value past the largest: infinity.
        assertArrayEquals(b(0x77, 0x78, 0x78, 0xf8), patterns(MlDataTypes.FLOAT8_E4M3, 247, 248, 1000, -1000));
        // fnuz: overflow is NaN; e8m0: no zero, no sign; ties between powers of two go up.
        assertArrayEquals(b(0x80, 0x80), patterns(MlDataTypes.FLOAT8_E4M3FNUZ, 1000, Double.NEGATIVE_INFINITY));
        assertArrayEquals(b(0x81, 0xff, 0xff, 0x00), patterns(MlDataTypes.FLOAT8_E8M0FNU, 3, 0, -4, 1e-40));
        // bfloat16: pi; a value just above a tie rounds up (through float it would tie and round down).
        assertArrayEquals(patterns(MlDataTypes.BFLOAT16, Math.PI), shorts(0x4049));
        assertArrayEquals(patterns(MlDataTypes.BFLOAT16, 1 + 0x1p-8 + 0x1p-30), shorts(0x3f81));
        assertArrayEquals(patterns(MlDataTypes.BFLOAT16, 1 + 0x1p-8), shorts(0x3f80));
        assertArrayEquals(patterns(MlDataTypes.BFLOAT16, 1e39, Double.NaN), shorts(0x7f80, 0x7fc0));
    }

    private static byte[] shorts(int... v) {
        ByteBuffer bb = ByteBuffer.allocate(2 * v.length).order(java.nio.ByteOrder.nativeOrder());
        for (int x : v) {
            bb.putShort((short) x);
        }
        return bb.array();
    }

    @Test
    void narrowIntegersReadTheirLowBitsAndWriteWholeBytes() {
        NdArray i4 = of(MlDataTypes.INT4, 0x0f, 0xf7, 0x08, 0xff);
        assertArrayEquals(new byte[] {-1, 7, -8, -1}, (byte[]) i4.toJavaArray());
        assertEquals(-1, i4.getLong(0));
        assertArrayEquals(b(0x0f, 0xf7, 0x08, 0xff), i4.toByteArray(), "toByteArray stays the raw bytes");
        i4.setLong(0, -1);
        i4.setLong(1, 100); // wraps to 4, as setLong truncates core integers
        i4.setDouble(2, -3.9); // truncated toward zero
        assertArrayEquals(b(0xff, 0x04, 0xfd, 0xff), i4.toByteArray(), "written sign-extended");
        NdArray u2 = of(MlDataTypes.UINT2, 0xff, 0x02);
        assertArrayEquals(new byte[] {3, 2}, (byte[]) u2.toJavaArray());
        u2.copyFrom(new byte[] {1, 7});
        assertArrayEquals(b(0x01, 0x03), u2.toByteArray(), "written with zero upper bits");
        NdArray i2 = of(MlDataTypes.INT2, 0x02, 0x01);
        assertEquals(-2, i2.getLong(0));
        assertEquals(1, i2.getLong(1));
    }

    @Test
    void complexTypesCopyInterleavedFloats() {
        DataType t = MlDataTypes.of("complex_float8_e4m3").orElseThrow();
        NdArray a = NdArray.allocate(t, 2);
        a.copyFrom(new float[] {1, -1, 240, Float.NaN});
        assertArrayEquals(b(0x38, 0xb8, 0x77, 0x7c), a.toByteArray());
        float[] back = a.toFloatArray();
        assertEquals(1f, back[0]);
        assertEquals(-1f, back[1]);
        assertEquals(240f, back[2]);
        assertTrue(Float.isNaN(back[3]));
        assertEquals(240.0, a.getDouble(1), "getDouble is the real part");
        assertThrows(UnsupportedOperationException.class, () -> a.setDouble(0, 1));
        assertEquals(4, MlDataTypes.of("complex_bfloat16").orElseThrow().size());
        assertEquals(2, MlDataTypes.of("complex_bfloat16").orElseThrow().byteOrderUnit());
    }

    @Test
    void arraysStoreTheSpecBytesAndReadThemBack() {
        Store store = ZARR.openStore("memory:");
        ZarrArray f8 = ZARR.array(MlDataTypes.FLOAT8_E4M3, 6).chunks(4).fillValue("NaN").create(store, "/f8");
        f8.write(new long[] {0}, new long[] {4}, new float[] {1, -2, 0.5f, 240});
        assertArrayEquals(b(0x38, 0xc0, 0x30, 0x77), store.get(StoreKey.of("f8/c/0")).map(MlDataTypesTest::array).orElseThrow());
        float[] read = ZARR.openArray(store, "/f8").read().toFloatArray();
        assertArrayEquals(new float[] {1, -2, 0.5f, 240}, java.util.Arrays.copyOf(read, 4));
        assertTrue(Float.isNaN(read[4]) && Float.isNaN(read[5]), "the unwritten chunk holds the fill value NaN (0x7c)");

        ZarrArray bf = ZARR.array(MlDataTypes.BFLOAT16, 2).chunks(2)
                .codecs("[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"big\"}}]").create(store, "/bf");
        bf.write(new long[] {0}, new long[] {2}, new float[] {1, -0.5f});
        assertArrayEquals(b(0x3f, 0x80, 0xbf, 0x00), store.get(StoreKey.of("bf/c/0")).map(MlDataTypesTest::array).orElseThrow());
        assertArrayEquals(new float[] {1, -0.5f}, ZARR.openArray(store, "/bf").read().toFloatArray());

        ZarrArray i4 = ZARR.array(MlDataTypes.INT4, 3).chunks(3).fillValue(-8).create(store, "/i4");
        i4.write(new long[] {0}, new long[] {2}, new byte[] {-1, 7});
        assertArrayEquals(new byte[] {-1, 7, -8}, (byte[]) ZARR.openArray(store, "/i4").read().toJavaArray());
        assertArrayEquals(b(0xff, 0x07, 0xf8), store.get(StoreKey.of("i4/c/0")).map(MlDataTypesTest::array).orElseThrow());
    }

    @Test
    void complexFloat32IsComplex64UnderItsRegistryName() {
        DataType t = MlDataTypes.of("complex_float32").orElseThrow();
        Store store = ZARR.openStore("memory:");
        ZARR.array(t, 2).chunks(2).fillValue(java.util.List.of("NaN", 1.5)).create(store, "/c");
        ZarrArray a = ZARR.openArray(store, "/c");
        assertEquals("\"complex_float32\"", a.metadata().get("data_type").toString());
        float[] fill = a.read().toFloatArray();
        assertTrue(Float.isNaN(fill[0]));
        assertEquals(1.5f, fill[1]);
        a.write(new long[] {0}, new long[] {2}, new float[] {1, 2, 3, 4});
        assertArrayEquals(new float[] {1, 2, 3, 4}, ZARR.openArray(store, "/c").read().toFloatArray());
        assertEquals(16, MlDataTypes.of("complex_float64").orElseThrow().size());
    }

    private static byte[] array(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
