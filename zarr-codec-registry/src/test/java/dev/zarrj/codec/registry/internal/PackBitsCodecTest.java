package dev.zarrj.codec.registry.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.core.DataTypes;
import dev.zarrj.ext.mldtypes.MlDataTypes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** {@code packbits} against encodings worked out by hand from its README. */
class PackBitsCodecTest {
    private static ArrayToBytesCodec codec(String configuration) {
        return Codecs.create(new PackBitsCodecProvider(), configuration);
    }

    private static ChunkSpec spec(DataType type, long... shape) {
        return new ChunkSpec(type, shape, type.defaultFillValue());
    }

    private static byte[] encode(ArrayToBytesCodec codec, NdArray a) {
        ByteBuffer b = codec.encode(a, spec(a.dataType(), a.shape()));
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static byte[] bytes(int... v) {
        byte[] out = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (byte) v[i];
        }
        return out;
    }

    /** Nine bools: bit i of the stream is bit i % 8 of byte i / 8; 7 padding bits, recorded where asked. */
    @Test
    void boolsPackLeastSignificantBitFirstWithThePaddingWhereConfigured() {
        NdArray a = NdArray.copyOf(DataTypes.BOOL, new boolean[] {true, false, true, true, false, false, false, false,
            true}, 9);
        assertArrayEquals(bytes(0x0D, 0x01), encode(codec("{}"), a));
        assertArrayEquals(bytes(0x07, 0x0D, 0x01), encode(codec("{\"padding_encoding\": \"first_byte\"}"), a));
        assertArrayEquals(bytes(0x0D, 0x01, 0x07), encode(codec("{\"padding_encoding\": \"last_byte\"}"), a));
        ArrayToBytesCodec c = codec("{\"padding_encoding\": \"last_byte\"}");
        assertTrue(c.decode(ByteBuffer.wrap(bytes(0x0D, 0x01, 0x07)), spec(DataTypes.BOOL, 9)).contentEquals(a));
        assertEquals(EncodedSize.fixed(3), c.encodedSize(spec(DataTypes.BOOL, 9)));
        assertEquals(EncodedSize.fixed(2), codec("{}").encodedSize(spec(DataTypes.BOOL, 9)));
    }

    @Test
    void aWrongPaddingCountOrLengthIsCorruptData() {
        ArrayToBytesCodec c = codec("{\"padding_encoding\": \"first_byte\"}");
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> c.decode(ByteBuffer.wrap(bytes(0x06, 0x0D, 0x01)), spec(DataTypes.BOOL, 9)));
        assertTrue(e.getMessage().contains("6 padding bits"), e.getMessage());
        assertThrows(CorruptDataException.class,
                () -> c.decode(ByteBuffer.wrap(bytes(0x07, 0x0D)), spec(DataTypes.BOOL, 9)));
    }

    /** int4 -1, 2, -8 are the nibbles F, 2, 8; decoding sign-extends them. */
    @Test
    void int4ElementsTakeFourBitsEachAndDecodeSignExtended() {
        NdArray a = NdArray.copyOf(MlDataTypes.INT4, new byte[] {-1, 2, -8}, 3);
        ArrayToBytesCodec c = codec("{}");
        assertArrayEquals(bytes(0x2F, 0x08), encode(c, a));
        NdArray back = c.decode(ByteBuffer.wrap(bytes(0x2F, 0x08)), spec(MlDataTypes.INT4, 3));
        assertEquals(-1, back.getLong(0));
        assertEquals(2, back.getLong(1));
        assertEquals(-8, back.getLong(2));
        NdArray u = NdArray.copyOf(MlDataTypes.UINT2, new byte[] {3, 0, 1, 2, 1}, 5);
        // 11 00 01 10 | 01: byte 0 = 0b10_01_00_11, byte 1 = 0b01
        assertArrayEquals(bytes(0x93, 0x01), encode(c, u));
    }

    /** complex_float4_e2m1fn: real then imaginary, 4 bits each (0x3 = 1.5, 0xA = -1.0). */
    @Test
    void complexComponentsArePackedRealThenImaginary() {
        DataType t = MlDataTypes.of("complex_float4_e2m1fn").orElseThrow();
        NdArray a = NdArray.copyOf(t, new float[] {1.5f, -1.0f}, 1);
        assertArrayEquals(bytes(0xA3), encode(codec("{}"), a));
        assertTrue(codec("{}").decode(ByteBuffer.wrap(bytes(0xA3)), spec(t, 1)).contentEquals(a));
    }

    /** Without a bit range, multi-byte types encode as the bytes codec does: little endian. */
    @Test
    void fullWidthTypesAreTheirLittleEndianBytes() {
        NdArray f = NdArray.copyOf(DataTypes.FLOAT32, new float[] {1.0f, -2.5f}, 2);
        ByteBuffer le = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putFloat(1.0f).putFloat(-2.5f);
        assertArrayEquals(le.array(), encode(codec("{}"), f));
        NdArray c = NdArray.copyOf(DataTypes.COMPLEX128, new double[] {3.0, -4.0}, 1);
        ByteBuffer cle = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putDouble(3.0).putDouble(-4.0);
        assertArrayEquals(cle.array(), encode(codec("{}"), c));
        NdArray u8 = NdArray.copyOf(DataTypes.UINT8, new byte[] {1, 2, 3}, 3);
        assertArrayEquals(bytes(0, 1, 2, 3), encode(codec("{\"padding_encoding\": \"first_byte\"}"), u8));
    }

    /** uint16 bits 4..11 of 0x1234, 0xABCD are 0x23, 0xBC; decoding puts them back at bit 4. */
    @Test
    void aBitRangeKeepsThoseBitsAndIsLossy() {
        ArrayToBytesCodec c = codec("{\"first_bit\": 4, \"last_bit\": 11}");
        assertFalse(c.lossless());
        assertTrue(codec("{\"first_bit\": null, \"last_bit\": null}").lossless());
        NdArray a = NdArray.copyOf(DataTypes.UINT16, new short[] {0x1234, (short) 0xABCD}, 2);
        assertArrayEquals(bytes(0x23, 0xBC), encode(c, a));
        NdArray back = c.decode(ByteBuffer.wrap(bytes(0x23, 0xBC)), spec(DataTypes.UINT16, 2));
        assertEquals(0x0230, back.getLong(0));
        assertEquals(0x0BC0, back.getLong(1));
        assertArrayEquals(bytes(0x23, 0xBC), encode(c, back), "decoded values are a fixed point");
    }

    /** int16 bits 0..3 of 7 and -3 are 0x7 and 0xD; 0xD sign-extends from bit 3 back to -3. */
    @Test
    void signedIntegersSignExtendFromTheLastBit() {
        ArrayToBytesCodec c = codec("{\"last_bit\": 3}");
        NdArray a = NdArray.copyOf(DataTypes.INT16, new short[] {7, -3}, 2);
        assertArrayEquals(bytes(0xD7), encode(c, a));
        assertTrue(c.decode(ByteBuffer.wrap(bytes(0xD7)), spec(DataTypes.INT16, 2)).contentEquals(a));
    }

    @Test
    void configurationIsWrittenCanonically() {
        assertEquals("{\"padding_encoding\":\"none\"}", codec("{}").configuration().toString());
        assertEquals("{\"padding_encoding\":\"first_byte\",\"first_bit\":2,\"last_bit\":5}",
                codec("{\"padding_encoding\": \"first_byte\", \"first_bit\": 2, \"last_bit\": 5}").configuration()
                        .toString());
    }

    @Test
    void invalidConfigurationsAndTypesAreRefusedNamingTheField() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> codec("{\"first_bit\": 5, \"last_bit\": 4}"));
        assertTrue(e.getMessage().contains("last_bit"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> codec("{\"padding_encoding\": \"start_byte\"}"));
        assertTrue(e.getMessage().contains("padding_encoding"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> codec("{\"start_bit\": 1}"));
        assertTrue(e.getMessage().contains("start_bit"), e.getMessage());
        ArrayToBytesCodec wide = codec("{\"last_bit\": 1}");
        e = assertThrows(InvalidMetadataException.class, () -> wide.checkSupported(spec(DataTypes.BOOL, 4)));
        assertTrue(e.getMessage().contains("last_bit") && e.getMessage().contains("bool"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> codec("{}").checkSupported(spec(DataTypes.FLOAT16, 4)));
        assertTrue(e.getMessage().contains("float16"), e.getMessage());
    }
}
