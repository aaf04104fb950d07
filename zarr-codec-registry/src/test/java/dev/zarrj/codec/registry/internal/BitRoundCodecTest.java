package dev.zarrj.codec.registry.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.core.DataTypes;
import dev.zarrj.ext.mldtypes.MlDataTypes;
import org.junit.jupiter.api.Test;

/** {@code bitround} against values worked out by hand from its README and the zarr-extensions tables. */
class BitRoundCodecTest {
    private static ArrayToArrayCodec codec(int keepbits) {
        return Codecs.create(new BitRoundCodecProvider(), "{\"keepbits\": " + keepbits + "}");
    }

    private static NdArray encode(ArrayToArrayCodec c, NdArray a) {
        DataType t = a.dataType();
        return c.encode(a, new ChunkSpec(t, a.shape(), t.defaultFillValue()));
    }

    /** 1.23456789 = 0x3F9E0652 keeps 0x3FA00000 = 1.25; -8.3587 gives -8; 98765.43 gives 98304. */
    @Test
    void floatsKeepThatManyMantissaBitsRoundedToNearest() {
        NdArray a = NdArray.copyOf(DataTypes.FLOAT32, new float[] {0f, 1.23456789f, -8.3587192834f, 98765.4321f}, 4);
        assertArrayEquals(new float[] {0f, 1.25f, -8f, 98304f}, encode(codec(3), a).toFloatArray());
        // 1 + 2^-4 (0x3F880000) and 1 + 2^-3 + 2^-4 (0x3F980000) lie halfway with keepbits 3: ties go to
        // the even pattern, 1 and 1.25
        NdArray tie = NdArray.copyOf(DataTypes.FLOAT32, new float[] {Float.intBitsToFloat(0x3F880000),
            Float.intBitsToFloat(0x3F980000)}, 2);
        assertArrayEquals(new float[] {1f, 1.25f}, encode(codec(3), tie).toFloatArray());
    }

    @Test
    void complexAndBfloat16RoundEachComponent() {
        NdArray c = NdArray.copyOf(DataTypes.COMPLEX64, new float[] {1.23456789f, 98765.4321f}, 1);
        assertArrayEquals(new float[] {1.25f, 98304f}, encode(codec(3), c).toFloatArray());
        // bfloat16 1.2265625 = 0x3F9D (mantissa 0011101) with keepbits 3 -> 0x3FA0 = 1.25
        NdArray b = NdArray.copyOf(MlDataTypes.BFLOAT16, new float[] {1.2265625f}, 1);
        assertEquals(1.25, encode(codec(3), b).getDouble(0));
    }

    /** The uint32 table of zarrs' tests: 1664 = 0b11010000000 rounds to 1536, 4294967295 saturates to 0xE0000000. */
    @Test
    void integersRoundFromTheirHighestSetBit() {
        NdArray a = NdArray.copyOf(DataTypes.UINT32, new int[] {0, 1024, 1280, 1664, 1685, 123145182, -1}, 7);
        assertArrayEquals(new int[] {0, 1024, 1280, 1536, 1792, 117440512, (int) 3758096384L},
                encode(codec(3), a).toIntArray());
        NdArray u8 = NdArray.copyOf(DataTypes.UINT8, new byte[] {0, 1, 10, 11, 100, 123, (byte) 200, (byte) 208,
            (byte) 209, (byte) 255}, 10);
        assertArrayEquals(new byte[] {0, 1, 10, 12, 96, (byte) 128, (byte) 192, (byte) 192, (byte) 224, (byte) 224},
                encode(codec(3), u8).toByteArray());
    }

    /** int16 -11 is the pattern 0xFFF5: its highest set bit is bit 15, so keepbits 2 keeps 0xC000. */
    @Test
    void signedIntegersRoundTheirTwosComplementPattern() {
        NdArray a = NdArray.copyOf(DataTypes.INT16, new short[] {-11, 11, Short.MIN_VALUE, -1}, 4);
        assertArrayEquals(new short[] {(short) 0xC000, 12, Short.MIN_VALUE, (short) 0xC000},
                encode(codec(2), a).toShortArray());
        NdArray nat = NdArray.copyOf(DataTypes.INT64, new long[] {Long.MIN_VALUE}, 1);
        assertEquals(Long.MIN_VALUE, encode(codec(3), nat).getLong(0), "NaT stays NaT");
    }

    @Test
    void keepbitsAtOrAboveTheAvailableBitsChangesNothing() {
        NdArray a = NdArray.copyOf(DataTypes.FLOAT64, new double[] {Math.PI}, 1);
        assertEquals(Math.PI, encode(codec(52), a).getDouble(0));
        assertEquals(Math.PI, encode(codec(60), a).getDouble(0));
        assertFalse(codec(3).lossless());
        assertEquals("{\"keepbits\":3}", codec(3).configuration().toString());
    }

    @Test
    void refusesKeepbitsBelowOneAndUnsupportedTypesNamingThem() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> codec(0));
        assertTrue(e.getMessage().contains("keepbits"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class,
                () -> codec(3).encodedSpec(new ChunkSpec(DataTypes.BOOL, new long[] {2}, DataTypes.BOOL.defaultFillValue())));
        assertTrue(e.getMessage().contains("bool"), e.getMessage());
    }
}
