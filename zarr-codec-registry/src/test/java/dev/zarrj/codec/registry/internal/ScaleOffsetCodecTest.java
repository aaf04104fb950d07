package dev.zarrj.codec.registry.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.core.DataTypes;
import org.junit.jupiter.api.Test;

/** {@code scale_offset} against the examples of its README and values worked out by hand. */
class ScaleOffsetCodecTest {
    private static ArrayToArrayCodec codec(String configuration) {
        return Codecs.create(new ScaleOffsetCodecProvider(), configuration);
    }

    private static ChunkSpec spec(DataType t, int n) {
        return new ChunkSpec(t, new long[] {n}, t.defaultFillValue());
    }

    /** The README's float32 example: (15 - 5) * 0.1f is 1 in float32, and 1 / 0.1f + 5 is 15 again. */
    @Test
    void float32WithScaleAndOffset() {
        ArrayToArrayCodec c = codec("{\"offset\": 5, \"scale\": 0.1}");
        NdArray a = NdArray.copyOf(DataTypes.FLOAT32, new float[] {15f, 5f, Float.NaN}, 3);
        NdArray e = c.encode(a, spec(DataTypes.FLOAT32, 3));
        assertArrayEquals(new float[] {1f, 0f, Float.NaN}, e.toFloatArray());
        assertArrayEquals(new float[] {15f, 5f, Float.NaN}, c.decode(e, spec(DataTypes.FLOAT32, 3)).toFloatArray());
    }

    /** The README's uint16 example: offset 1000 maps [1000, 1255] onto [0, 255]; 999 has no uint16 result. */
    @Test
    void uint16RangeReduction() {
        ArrayToArrayCodec c = codec("{\"offset\": 1000}");
        NdArray a = NdArray.copyOf(DataTypes.UINT16, new short[] {1000, 1255}, 2);
        NdArray e = c.encode(a, spec(DataTypes.UINT16, 2));
        assertEquals(0, e.getLong(0));
        assertEquals(255, e.getLong(1));
        assertTrue(c.decode(e, spec(DataTypes.UINT16, 2)).contentEquals(a));
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> c.encode(NdArray.copyOf(DataTypes.UINT16, new short[] {999}, 1), spec(DataTypes.UINT16, 1)));
        assertTrue(x.getMessage().contains("999"), x.getMessage());
    }

    /** The README's float64 example: offset -10, scale 0.1 maps 0 and 2540 onto 1 and 255; NaN stays NaN. */
    @Test
    void float64ToTheUint8RangeKeepsANanFillValue() {
        ArrayToArrayCodec c = codec("{\"offset\": -10, \"scale\": 0.1}");
        FillValue nan = DataTypes.FLOAT64.parseFillValue(TextNode.valueOf("NaN"), "/fill_value");
        ChunkSpec spec = new ChunkSpec(DataTypes.FLOAT64, new long[] {2}, nan);
        assertTrue(Double.isNaN(NdArray.filled(DataTypes.FLOAT64, c.encodedSpec(spec).fillValue(), 1).getDouble(0)));
        NdArray e = c.encode(NdArray.copyOf(DataTypes.FLOAT64, new double[] {0.0, 2540.0}, 2), spec);
        assertArrayEquals(new double[] {1.0, 255.0}, e.toDoubleArray());
    }

    /** int8 with offset -10, scale 3: 30 -> 120; 33 -> 129 overflows; 121 / 3 is not an integer. */
    @Test
    void integersComputeExactlyAndRefuseWhatTheTypeCannotHold() {
        ArrayToArrayCodec c = codec("{\"offset\": -10, \"scale\": 3}");
        assertEquals(120, c.encode(NdArray.copyOf(DataTypes.INT8, new byte[] {30}, 1), spec(DataTypes.INT8, 1))
                .getLong(0));
        assertThrows(IllegalArgumentException.class,
                () -> c.encode(NdArray.copyOf(DataTypes.INT8, new byte[] {33}, 1), spec(DataTypes.INT8, 1)));
        assertEquals(30, c.decode(NdArray.copyOf(DataTypes.INT8, new byte[] {120}, 1), spec(DataTypes.INT8, 1))
                .getLong(0));
        CorruptDataException e = assertThrows(CorruptDataException.class,
                () -> c.decode(NdArray.copyOf(DataTypes.INT8, new byte[] {121}, 1), spec(DataTypes.INT8, 1)));
        assertTrue(e.getMessage().contains("121"), e.getMessage());
    }

    @Test
    void theFillValueGoesThroughTheSameSteps() {
        ArrayToArrayCodec c = codec("{\"offset\": -100}");
        FillValue f = DataTypes.INT8.parseFillValue(IntNode.valueOf(100), "/fill_value");
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> c.encodedSpec(new ChunkSpec(DataTypes.INT8, new long[] {1}, f)));
        assertTrue(e.getMessage().contains("fill value 100"), e.getMessage());
        FillValue seven = DataTypes.INT8.parseFillValue(IntNode.valueOf(7), "/fill_value");
        assertEquals(107, NdArray.filled(DataTypes.INT8, c.encodedSpec(new ChunkSpec(DataTypes.INT8, new long[] {1},
                seven)).fillValue(), 1).getLong(0));
    }

    @Test
    void float16OverflowIsAnError() {
        ArrayToArrayCodec c = codec("{\"scale\": 2}");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.encode(
                NdArray.copyOf(DataTypes.FLOAT16, new float[] {65504f}, 1), spec(DataTypes.FLOAT16, 1)));
        assertTrue(e.getMessage().contains("overflows float16"), e.getMessage());
    }

    @Test
    void noConfigurationIsANoOp() {
        NdArray a = NdArray.copyOf(DataTypes.INT32, new int[] {Integer.MIN_VALUE, 7}, 2);
        assertTrue(codec("{}").encode(a, spec(DataTypes.INT32, 2)).contentEquals(a));
        assertEquals("{}", codec("{}").configuration().toString());
        assertEquals("{\"offset\":5,\"scale\":0.1}", codec("{\"offset\": 5, \"scale\": 0.1}").configuration().toString());
    }

    @Test
    void invalidParametersAreRefusedNamingThem() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> codec("{\"scale\": 0}").encodedSpec(spec(DataTypes.FLOAT32, 1)));
        assertTrue(e.pointer().endsWith("scale"), e.pointer());
        e = assertThrows(InvalidMetadataException.class,
                () -> codec("{\"offset\": \"NaN\"}").encodedSpec(spec(DataTypes.INT8, 1)));
        assertTrue(e.pointer().endsWith("offset"), e.pointer());
        e = assertThrows(InvalidMetadataException.class,
                () -> codec("{\"offset\": 1.5}").encodedSpec(spec(DataTypes.INT8, 1)));
        assertTrue(e.pointer().endsWith("offset"), e.pointer());
        e = assertThrows(InvalidMetadataException.class, () -> codec("{\"shift\": 1}"));
        assertTrue(e.getMessage().contains("shift"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> codec("{}").encodedSpec(spec(DataTypes.BOOL, 1)));
        assertTrue(e.getMessage().contains("bool"), e.getMessage());
    }
}
