package dev.zarrj.codec.registry.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.core.DataTypes;
import dev.zarrj.ext.mldtypes.MlDataTypes;
import org.junit.jupiter.api.Test;

/** {@code cast_value} against the examples of its README and values worked out by hand. */
class CastValueCodecTest {
    private static ArrayToArrayCodec codec(String configuration) {
        return Codecs.create(new CastValueCodecProvider(), configuration);
    }

    private static ChunkSpec spec(NdArray a) {
        return new ChunkSpec(a.dataType(), a.shape(), a.dataType().defaultFillValue());
    }

    private static NdArray encode(String configuration, NdArray a) {
        return codec(configuration).encode(a, spec(a));
    }

    private static NdArray f64(double... v) {
        return NdArray.copyOf(DataTypes.FLOAT64, v, v.length);
    }

    /** The README: 128.0 to int8 fails without out_of_range, clamps to 127, wraps to -128. */
    @Test
    void outOfRangeFailsClampsOrWraps() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> encode("{\"data_type\": \"int8\"}", f64(128.0)));
        assertTrue(e.getMessage().contains("128.0") && e.getMessage().contains("int8"), e.getMessage());
        assertEquals(127, encode("{\"data_type\": \"int8\", \"out_of_range\": \"clamp\"}", f64(128.0)).getLong(0));
        assertEquals(-128, encode("{\"data_type\": \"int8\", \"out_of_range\": \"wrap\"}", f64(128.0)).getLong(0));
    }

    /** The README's int16 wrapping: 32768 -> -32768, 32769 -> -32767, -32769 -> 32767. */
    @Test
    void integersWrapInTwosComplement() {
        NdArray a = NdArray.copyOf(DataTypes.INT32, new int[] {32768, 32769, -32769, 5}, 4);
        assertArrayEquals(new short[] {-32768, -32767, 32767, 5},
                encode("{\"data_type\": \"int16\", \"out_of_range\": \"wrap\"}", a).toShortArray());
        NdArray u = NdArray.copyOf(DataTypes.UINT16, new short[] {0, 255, 256}, 3);
        e(() -> encode("{\"data_type\": \"uint8\"}", u), "256");
        assertArrayEquals(new byte[] {0, -1, -1}, encode("{\"data_type\": \"uint8\", \"out_of_range\": \"clamp\"}", u)
                .toByteArray());
    }

    @Test
    void everyRoundingModeToIntegers() {
        NdArray a = f64(2.5, -2.5, 1.5, 2.4, -2.6, 0.5);
        String base = "{\"data_type\": \"int32\", \"rounding\": \"";
        assertArrayEquals(new int[] {2, -2, 2, 2, -3, 0}, encode(base + "nearest-even\"}", a).toIntArray());
        assertArrayEquals(new int[] {3, -3, 2, 2, -3, 1}, encode(base + "nearest-away\"}", a).toIntArray());
        assertArrayEquals(new int[] {2, -2, 1, 2, -2, 0}, encode(base + "towards-zero\"}", a).toIntArray());
        assertArrayEquals(new int[] {3, -2, 2, 3, -2, 1}, encode(base + "towards-positive\"}", a).toIntArray());
        assertArrayEquals(new int[] {2, -3, 1, 2, -3, 0}, encode(base + "towards-negative\"}", a).toIntArray());
        assertArrayEquals(new int[] {2, -2, 2, 2, -3, 0}, encode("{\"data_type\": \"int32\"}", a).toIntArray(),
                "nearest-even by default");
    }

    /** 1 + 2^-24 lies halfway between the float32 values 1 and 1 + 2^-23. */
    @Test
    void roundingToANarrowerFloat() {
        NdArray a = f64(1 + 0x1p-24, -(1 + 0x1p-24), 1e39, Double.NaN, -0.0, Double.NEGATIVE_INFINITY);
        String clamp = "\", \"out_of_range\": \"clamp\"}";
        String base = "{\"data_type\": \"float32\", \"rounding\": \"";
        assertArrayEquals(new float[] {1f, -1f, Float.POSITIVE_INFINITY, Float.NaN, -0f, Float.NEGATIVE_INFINITY},
                encode(base + "nearest-even" + clamp, a).toFloatArray());
        float up = 1 + 0x1p-23f;
        assertArrayEquals(new float[] {up, -up, Float.POSITIVE_INFINITY, Float.NaN, -0f, Float.NEGATIVE_INFINITY},
                encode(base + "nearest-away" + clamp, a).toFloatArray());
        assertArrayEquals(new float[] {1f, -1f, Float.MAX_VALUE, Float.NaN, -0f, Float.NEGATIVE_INFINITY},
                encode(base + "towards-zero" + clamp, a).toFloatArray());
        assertArrayEquals(new float[] {up, -1f, Float.POSITIVE_INFINITY, Float.NaN, -0f, Float.NEGATIVE_INFINITY},
                encode(base + "towards-positive" + clamp, a).toFloatArray());
        e(() -> encode("{\"data_type\": \"float32\"}", f64(1e39)), "out_of_range is not set");
    }

    /** float8_e4m3: 0.3 = 1.2 * 2^-2 lies between 1.125 * 2^-2 and 1.25 * 2^-2, nearer the second. */
    @Test
    void narrowTargetsOfTheRegistry() {
        DataType e4m3 = MlDataTypes.FLOAT8_E4M3;
        assertEquals(0.3125, encode("{\"data_type\": \"float8_e4m3\"}", f64(0.3)).getDouble(0));
        assertEquals(0.28125, encode("{\"data_type\": \"float8_e4m3\", \"rounding\": \"towards-zero\"}", f64(0.3))
                .getDouble(0));
        assertEquals(e4m3, encode("{\"data_type\": \"float8_e4m3\"}", f64(0.3)).dataType());
        NdArray i8 = NdArray.copyOf(DataTypes.INT8, new byte[] {7, -8, 8}, 3);
        e(() -> encode("{\"data_type\": \"int4\"}", i8), "8 is outside the range of int4");
        NdArray four = encode("{\"data_type\": \"int4\", \"out_of_range\": \"wrap\"}", i8);
        assertArrayEquals(new long[] {7, -8, -8}, new long[] {four.getLong(0), four.getLong(1), four.getLong(2)});
        // float4_e2m1fn has no NaN: refused unless mapped
        e(() -> encode("{\"data_type\": \"float4_e2m1fn\"}", f64(Double.NaN)), "NaN");
    }

    /** 2^60 + 1 lies between the float32 values 2^60 and 2^60 + 2^37; uint64's largest value rounds to 2^64. */
    @Test
    void largeIntegersRoundExactly() {
        NdArray big = NdArray.copyOf(DataTypes.INT64, new long[] {(1L << 60) + 1, -((1L << 60) + 1)}, 2);
        assertArrayEquals(new float[] {0x1p60f, -0x1p60f}, encode("{\"data_type\": \"float32\"}", big).toFloatArray());
        assertArrayEquals(new float[] {0x1p60f + 0x1p37f, -0x1p60f},
                encode("{\"data_type\": \"float32\", \"rounding\": \"towards-positive\"}", big).toFloatArray());
        NdArray u = NdArray.copyOf(DataTypes.UINT64, new long[] {-1L}, 1);
        assertEquals(0x1p64, encode("{\"data_type\": \"float64\"}", u).getDouble(0));
        assertEquals(0x1p64 - 0x1p11, encode("{\"data_type\": \"float64\", \"rounding\": \"towards-zero\"}", u)
                .getDouble(0));
        // 2^64 does not fit uint64 on the way back: corrupt data unless out_of_range says otherwise
        e(() -> codec("{\"data_type\": \"float64\"}").decode(encode("{\"data_type\": \"float64\"}", u),
                spec(u)), "1.8446744073709552E19");
    }

    /** The README's NumPy-compatible configuration: NaN and infinities to 0, the rest truncated and wrapped. */
    @Test
    void theReadmesNumpyExample() {
        String numpy = "{\"data_type\": \"uint8\", \"rounding\": \"towards-zero\", \"out_of_range\": \"wrap\","
                + " \"scalar_map\": {\"encode\": [[\"NaN\", 0], [\"+Infinity\", 0], [\"-Infinity\", 0]]}}";
        assertArrayEquals(new byte[] {0, 0, 0, 44, -1, 3},
                encode(numpy, f64(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 300.7, -1.5, 3.9))
                        .toByteArray());
    }

    /** The scale_offset README's float64 to uint8 example: NaN (the fill value) is 0 stored, and 0 reads as NaN. */
    @Test
    void aScalarMapCarriesTheFillValueBothWays() {
        ArrayToArrayCodec c = codec("{\"data_type\": \"uint8\", \"rounding\": \"nearest-even\", \"scalar_map\":"
                + " {\"encode\": [[\"NaN\", 0]], \"decode\": [[0, \"NaN\"]]}}");
        FillValue nan = DataTypes.FLOAT64.parseFillValue(TextNode.valueOf("NaN"), "/fill_value");
        ChunkSpec decoded = new ChunkSpec(DataTypes.FLOAT64, new long[] {3}, nan);
        ChunkSpec encoded = c.encodedSpec(decoded);
        assertEquals(DataTypes.UINT8, encoded.dataType());
        assertArrayEquals(new byte[] {0}, encoded.fillValue().bytes());
        NdArray stored = c.encode(f64(Double.NaN, 1.0, 254.6), decoded);
        assertArrayEquals(new byte[] {0, 1, (byte) 255}, stored.toByteArray());
        assertArrayEquals(new double[] {Double.NaN, 1.0, 255.0}, c.decode(stored, decoded).toDoubleArray());
    }

    @Test
    void aFillValueThatDoesNotComeBackIsRefused() {
        FillValue half = DataTypes.FLOAT64.parseFillValue(DoubleNode.valueOf(0.5), "/fill_value");
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> codec(
                "{\"data_type\": \"int32\"}").encodedSpec(new ChunkSpec(DataTypes.FLOAT64, new long[] {2}, half)));
        assertTrue(e.getMessage().contains("fill value 0.5"), e.getMessage());
        FillValue nan = DataTypes.FLOAT64.parseFillValue(TextNode.valueOf("NaN"), "/fill_value");
        e = assertThrows(InvalidMetadataException.class, () -> codec("{\"data_type\": \"int32\"}")
                .encodedSpec(new ChunkSpec(DataTypes.FLOAT64, new long[] {2}, nan)));
        assertTrue(e.getMessage().contains("NaN"), e.getMessage());
    }

    @Test
    void aStoredValueThatCannotBeCastBackIsCorruptData() {
        ArrayToArrayCodec c = codec("{\"data_type\": \"int32\"}");
        NdArray stored = NdArray.copyOf(DataTypes.INT32, new int[] {1000}, 1);
        NdArray i8 = NdArray.allocate(DataTypes.INT8, 1);
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> c.decode(stored, spec(i8)));
        assertTrue(e.getMessage().contains("1000"), e.getMessage());
    }

    @Test
    void invalidConfigurationsAreRefusedNamingTheField() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> codec("{\"data_type\": \"float32\", \"out_of_range\": \"wrap\"}"));
        assertTrue(e.getMessage().contains("out_of_range") && e.getMessage().contains("float32"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> codec("{\"data_type\": \"bool\"}"));
        assertTrue(e.getMessage().contains("bool"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> codec("{\"rounding\": \"nearest-even\"}"));
        assertTrue(e.getMessage().contains("data_type"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> codec("{\"data_type\": \"int8\", \"rounding\": \"up\"}"));
        assertTrue(e.getMessage().contains("rounding"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class,
                () -> codec("{\"data_type\": \"int8\", \"scalar_map\": {\"encode\": [[1]]}}"));
        assertTrue(e.getMessage().contains("scalar_map"), e.getMessage());
        ArrayToArrayCodec intKeys = codec("{\"data_type\": \"int8\", \"scalar_map\": {\"encode\": [[\"NaN\", 0]]}}");
        e = assertThrows(InvalidMetadataException.class, () -> intKeys.encodedSpec(spec(NdArray.allocate(
                DataTypes.INT16, 1))));
        assertTrue(e.pointer().contains("scalar_map/encode/0/0"), e.pointer());
        e = assertThrows(InvalidMetadataException.class, () -> codec("{\"data_type\": \"int8\"}").encodedSpec(
                spec(NdArray.allocate(DataTypes.COMPLEX64, 1))));
        assertTrue(e.getMessage().contains("complex64"), e.getMessage());
    }

    @Test
    void configurationIsWrittenAsGiven() {
        assertEquals("{\"data_type\":\"uint8\",\"rounding\":\"towards-zero\",\"out_of_range\":\"wrap\"}",
                codec("{\"data_type\": \"uint8\", \"rounding\": \"towards-zero\", \"out_of_range\": \"wrap\"}")
                        .configuration().toString());
        assertEquals("{\"data_type\":\"int8\"}", codec("{\"data_type\": \"int8\"}").configuration().toString());
    }

    private static void e(org.junit.jupiter.api.function.Executable run, String contains) {
        RuntimeException e = assertThrows(RuntimeException.class, run);
        assertTrue(e.getMessage().contains(contains), e.getMessage());
    }
}
