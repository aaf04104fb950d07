package dev.zarrj.core.internal.datatype;

import static dev.zarrj.core.internal.datatype.FillValueJson.assertRefused;
import static dev.zarrj.core.internal.datatype.FillValueJson.assertRoundTrip;
import static dev.zarrj.core.internal.datatype.FillValueJson.nativeBytes;
import static dev.zarrj.core.internal.datatype.FillValueJson.parse;
import static dev.zarrj.core.internal.datatype.FillValueJson.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.datatype.FillValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every permitted fill value form of every core data type, and forms that must be refused. */
class CoreFillValueTest {

    private static byte[] f32(int bits) {
        return nativeBytes(4, b -> b.putInt(bits));
    }

    private static byte[] f64(long bits) {
        return nativeBytes(8, b -> b.putLong(bits));
    }

    private static byte[] f16(int bits) {
        return nativeBytes(2, b -> b.putShort((short) bits));
    }

    private static int bits(float f) {
        return Float.floatToRawIntBits(f);
    }

    private static long bits(double d) {
        return Double.doubleToRawLongBits(d);
    }

    // ---- bool

    @Test
    void boolTakesJsonBooleansAndTheLegacyZeroAndOne() {
        assertRoundTrip(CoreDataType.BOOL, "true", new byte[] {1}, "true");
        assertRoundTrip(CoreDataType.BOOL, "false", new byte[] {0}, "false");
        // 0 and 1: a legacy form (read with a warning, see LegacyFormsTest), written back canonically
        assertRoundTrip(CoreDataType.BOOL, "1", new byte[] {1}, "true");
        assertRoundTrip(CoreDataType.BOOL, "0", new byte[] {0}, "false");
        for (String bad : List.of("2", "-1", "1.0", "\"true\"", "null", "[true]")) {
            InvalidMetadataException e = assertRefused(CoreDataType.BOOL, bad);
            assertTrue(e.getMessage().contains("true or false"), e::getMessage);
        }
    }

    // ---- integers

    @Test
    void signedIntegersTakeTheirWholeRange() {
        assertRoundTrip(CoreDataType.INT8, "0", new byte[] {0}, "0");
        assertRoundTrip(CoreDataType.INT8, "-128", new byte[] {-128}, "-128");
        assertRoundTrip(CoreDataType.INT8, "127", new byte[] {127}, "127");
        assertRoundTrip(CoreDataType.INT8, "-1", new byte[] {-1}, "-1");
        assertRoundTrip(CoreDataType.INT16, "-32768", nativeBytes(2, b -> b.putShort(Short.MIN_VALUE)), "-32768");
        assertRoundTrip(CoreDataType.INT16, "32767", nativeBytes(2, b -> b.putShort(Short.MAX_VALUE)), "32767");
        assertRoundTrip(CoreDataType.INT16, "-2", nativeBytes(2, b -> b.putShort((short) -2)), "-2");
        assertRoundTrip(CoreDataType.INT32, "-2147483648",
                nativeBytes(4, b -> b.putInt(Integer.MIN_VALUE)), "-2147483648");
        assertRoundTrip(CoreDataType.INT32, "2147483647",
                nativeBytes(4, b -> b.putInt(Integer.MAX_VALUE)), "2147483647");
        assertRoundTrip(CoreDataType.INT32, "305419896", nativeBytes(4, b -> b.putInt(0x12345678)), "305419896");
        assertRoundTrip(CoreDataType.INT64, "-9223372036854775808",
                nativeBytes(8, b -> b.putLong(Long.MIN_VALUE)), "-9223372036854775808");
        assertRoundTrip(CoreDataType.INT64, "9223372036854775807",
                nativeBytes(8, b -> b.putLong(Long.MAX_VALUE)), "9223372036854775807");
        assertRoundTrip(CoreDataType.INT64, "-3", nativeBytes(8, b -> b.putLong(-3)), "-3");
    }

    @Test
    void unsignedIntegersTakeTheirWholeRange() {
        assertRoundTrip(CoreDataType.UINT8, "0", new byte[] {0}, "0");
        assertRoundTrip(CoreDataType.UINT8, "255", new byte[] {-1}, "255");
        assertRoundTrip(CoreDataType.UINT8, "128", new byte[] {-128}, "128");
        assertRoundTrip(CoreDataType.UINT16, "65535", nativeBytes(2, b -> b.putShort((short) -1)), "65535");
        assertRoundTrip(CoreDataType.UINT16, "32768", nativeBytes(2, b -> b.putShort(Short.MIN_VALUE)), "32768");
        assertRoundTrip(CoreDataType.UINT32, "4294967295", nativeBytes(4, b -> b.putInt(-1)), "4294967295");
        assertRoundTrip(CoreDataType.UINT32, "2147483648",
                nativeBytes(4, b -> b.putInt(Integer.MIN_VALUE)), "2147483648");
        assertRoundTrip(CoreDataType.UINT64, "0", new byte[8], "0");
        assertRoundTrip(CoreDataType.UINT64, "9223372036854775808",
                nativeBytes(8, b -> b.putLong(Long.MIN_VALUE)), "9223372036854775808");
    }

    @Test
    void uint64MaxIsReadAndWrittenAsAnUnsignedNumber() {
        assertRoundTrip(CoreDataType.UINT64, "18446744073709551615",
                nativeBytes(8, b -> b.putLong(-1L)), "18446744073709551615");
        FillValue max = parse(CoreDataType.UINT64, "18446744073709551615");
        assertEquals(BigIntegerNode.valueOf(new BigInteger("18446744073709551615")),
                CoreDataType.UINT64.fillValueToJson(max));
    }

    @Test
    void integersOutOfRangeAreRefusedNamingTheRange() {
        InvalidMetadataException e = assertRefused(CoreDataType.INT8, "128");
        assertTrue(e.getMessage().contains("[-128, 127]"), e::getMessage);
        assertRefused(CoreDataType.INT8, "-129");
        assertRefused(CoreDataType.INT16, "32768");
        assertRefused(CoreDataType.INT16, "-32769");
        assertRefused(CoreDataType.INT32, "2147483648");
        assertRefused(CoreDataType.INT32, "-2147483649");
        assertRefused(CoreDataType.INT64, "9223372036854775808");
        assertRefused(CoreDataType.INT64, "-9223372036854775809");
        assertRefused(CoreDataType.UINT8, "256");
        e = assertRefused(CoreDataType.UINT8, "-1");
        assertTrue(e.getMessage().contains("[0, 255]"), e::getMessage);
        assertRefused(CoreDataType.UINT16, "65536");
        assertRefused(CoreDataType.UINT32, "4294967296");
        assertRefused(CoreDataType.UINT32, "-1");
        e = assertRefused(CoreDataType.UINT64, "18446744073709551616");
        assertTrue(e.getMessage().contains("[0, 18446744073709551615]"), e::getMessage);
        assertRefused(CoreDataType.UINT64, "-1");
        assertRefused(CoreDataType.INT64, "1" + "0".repeat(40));
    }

    @Test
    void integersRefuseFractionsExponentsStringsAndOtherJson() {
        for (CoreDataType t : List.of(CoreDataType.INT8, CoreDataType.INT32, CoreDataType.UINT16, CoreDataType.UINT64)) {
            for (String bad : List.of("1.5", "1.0", "1e3", "0.0", "\"1\"", "true", "null", "[1]", "{}", "\"NaN\"")) {
                InvalidMetadataException e = assertRefused(t, bad);
                assertTrue(e.getMessage().contains("no fraction or exponent part"), e::getMessage);
            }
        }
        // An exact BigDecimal is still not a JSON integer.
        assertThrows(InvalidMetadataException.class,
                () -> CoreDataType.INT32.parseFillValue(DecimalNode.valueOf(new BigDecimal("7")), "/fill_value"));
    }

    // ---- float32

    @Test
    void float32Numbers() {
        assertRoundTrip(CoreDataType.FLOAT32, "0.1", f32(bits(0.1f)), "0.1");
        assertRoundTrip(CoreDataType.FLOAT32, "0.0", f32(0), "0.0");
        assertRoundTrip(CoreDataType.FLOAT32, "-0.0", f32(0x80000000), "-0.0");
        assertRoundTrip(CoreDataType.FLOAT32, "1", f32(bits(1.0f)), "1.0");
        assertRoundTrip(CoreDataType.FLOAT32, "-2.5e-3", f32(bits(-2.5e-3f)), "-0.0025");
        assertRoundTrip(CoreDataType.FLOAT32, "3.4028234663852886e38", f32(0x7f7fffff), "3.4028235E38");
        assertRoundTrip(CoreDataType.FLOAT32, "1.4e-45", f32(1), "1.4E-45");
        assertRoundTrip(CoreDataType.FLOAT32, "16777217", f32(bits(16777216f)), "1.6777216E7");
        // Beyond the largest float, to nearest is infinity.
        assertRoundTrip(CoreDataType.FLOAT32, "1e39", f32(0x7f800000), "\"Infinity\"");
        assertRoundTrip(CoreDataType.FLOAT32, "18446744073709551615", f32(bits(1.8446744e19f)), "1.8446744E19");
    }

    @Test
    void float32FromExactDecimalAndFloatNodes() {
        FillValue fromDecimal = CoreDataType.FLOAT32.parseFillValue(new DecimalNode(new BigDecimal("0.1")), "/f");
        assertArrayEquals(f32(bits(0.1f)), fromDecimal.bytes());
        FillValue fromFloat = CoreDataType.FLOAT32.parseFillValue(FloatNode.valueOf(0.3f), "/f");
        assertArrayEquals(f32(bits(0.3f)), fromFloat.bytes());
        // A decimal just above the midpoint of 1 and its successor rounds up only when read exactly.
        String aboveMidpoint = new BigDecimal(1.0 + 0x1p-24).add(new BigDecimal("1e-30")).toPlainString();
        FillValue exact = CoreDataType.FLOAT32.parseFillValue(new DecimalNode(new BigDecimal(aboveMidpoint)), "/f");
        assertArrayEquals(f32(bits(Math.nextUp(1.0f))), exact.bytes());
    }

    @Test
    void float32Sentinels() {
        assertRoundTrip(CoreDataType.FLOAT32, "\"NaN\"", f32(0x7fc00000), "\"NaN\"");
        assertRoundTrip(CoreDataType.FLOAT32, "\"Infinity\"", f32(0x7f800000), "\"Infinity\"");
        assertRoundTrip(CoreDataType.FLOAT32, "\"-Infinity\"", f32(0xff800000), "\"-Infinity\"");
    }

    @Test
    void float32HexKeepsEveryBitAndCanonicalisesOnWrite() {
        assertRoundTrip(CoreDataType.FLOAT32, "\"0x7fc00000\"", f32(0x7fc00000), "\"NaN\"");
        assertRoundTrip(CoreDataType.FLOAT32, "\"0x7fc00001\"", f32(0x7fc00001), "\"0x7fc00001\"");
        assertRoundTrip(CoreDataType.FLOAT32, "\"0x7fa00000\"", f32(0x7fa00000), "\"0x7fa00000\"");
        assertRoundTrip(CoreDataType.FLOAT32, "\"0xffc00000\"", f32(0xffc00000), "\"0xffc00000\"");
        assertRoundTrip(CoreDataType.FLOAT32, "\"0x7f800001\"", f32(0x7f800001), "\"0x7f800001\"");
        assertRoundTrip(CoreDataType.FLOAT32, "\"0x7FC00001\"", f32(0x7fc00001), "\"0x7fc00001\"");
        assertRoundTrip(CoreDataType.FLOAT32, "\"0x7f800000\"", f32(0x7f800000), "\"Infinity\"");
        assertRoundTrip(CoreDataType.FLOAT32, "\"0x3f800000\"", f32(bits(1.0f)), "1.0");
        assertRoundTrip(CoreDataType.FLOAT32, "\"0x80000000\"", f32(0x80000000), "-0.0");
        assertRoundTrip(CoreDataType.FLOAT32, "\"0x00000000\"", f32(0), "0.0");
    }

    @Test
    void float32RefusesOtherStringsAndJson() {
        for (String bad : List.of("\"nan\"", "\"inf\"", "\"+Infinity\"", "\"-NaN\"", "\"1.5\"", "\"\"",
                "\"0x7fc0000\"", "\"0x7fc000000\"", "\"0X7FC00000\"", "\"7fc00000\"", "\"0x7fc0000g\"",
                "\"0x-7fc0000\"", "\"0x+7fc0000\"", "\"0x\uff17fc00000\"", "true", "null", "[1.5]", "{}")) {
            InvalidMetadataException e = assertRefused(CoreDataType.FLOAT32, bad);
            assertTrue(e.getMessage().contains("\"0x\" followed by 8 hex digits"), e::getMessage);
        }
        assertThrows(InvalidMetadataException.class,
                () -> CoreDataType.FLOAT32.parseFillValue(DoubleNode.valueOf(Double.NaN), "/fill_value"));
    }

    // ---- float64

    @Test
    void float64NumbersSentinelsAndHex() {
        assertRoundTrip(CoreDataType.FLOAT64, "0.1", f64(bits(0.1)), "0.1");
        assertRoundTrip(CoreDataType.FLOAT64, "-0.0", f64(0x8000000000000000L), "-0.0");
        assertRoundTrip(CoreDataType.FLOAT64, "1", f64(bits(1.0)), "1.0");
        assertRoundTrip(CoreDataType.FLOAT64, "-1e300", f64(bits(-1e300)), "-1.0E300");
        assertRoundTrip(CoreDataType.FLOAT64, "4.9e-324", f64(1), "4.9E-324");
        // 2^53 + 1 is a tie between 2^53 and 2^53 + 2: to even.
        assertRoundTrip(CoreDataType.FLOAT64, "9007199254740993", f64(bits(9007199254740992.0)), "9.007199254740992E15");
        assertRoundTrip(CoreDataType.FLOAT64, "18446744073709551615", f64(bits(0x1p64)), "1.8446744073709552E19");
        assertRoundTrip(CoreDataType.FLOAT64, "\"NaN\"", f64(0x7ff8000000000000L), "\"NaN\"");
        assertRoundTrip(CoreDataType.FLOAT64, "\"Infinity\"", f64(0x7ff0000000000000L), "\"Infinity\"");
        assertRoundTrip(CoreDataType.FLOAT64, "\"-Infinity\"", f64(0xfff0000000000000L), "\"-Infinity\"");
        assertRoundTrip(CoreDataType.FLOAT64, "\"0x7ff8000000000000\"", f64(0x7ff8000000000000L), "\"NaN\"");
        assertRoundTrip(CoreDataType.FLOAT64, "\"0x7ff4000000000000\"", f64(0x7ff4000000000000L),
                "\"0x7ff4000000000000\"");
        assertRoundTrip(CoreDataType.FLOAT64, "\"0x7ff8000000000001\"", f64(0x7ff8000000000001L),
                "\"0x7ff8000000000001\"");
        assertRoundTrip(CoreDataType.FLOAT64, "\"0xfff8000000000000\"", f64(0xfff8000000000000L),
                "\"0xfff8000000000000\"");
        assertRoundTrip(CoreDataType.FLOAT64, "\"0x3ff0000000000000\"", f64(bits(1.0)), "1.0");
        assertRoundTrip(CoreDataType.FLOAT64, "\"0x0000000000000000\"", f64(0), "0.0");
    }

    @Test
    void float64RefusesWrongHexWidthAndOtherForms() {
        for (String bad : List.of("\"0x7ff800000000000\"", "\"0x7ff80000000000000\"", "\"0x7fc00000\"",
                "\"NAN\"", "\"Inf\"", "false", "[]")) {
            InvalidMetadataException e = assertRefused(CoreDataType.FLOAT64, bad);
            assertTrue(e.getMessage().contains("16 hex digits"), e::getMessage);
        }
    }

    // ---- float16

    @Test
    void float16NumbersRoundToNearestEven() {
        assertRoundTrip(CoreDataType.FLOAT16, "2048", f16(0x6800), "2048.0");
        assertRoundTrip(CoreDataType.FLOAT16, "2049", f16(0x6800), "2048.0");
        assertRoundTrip(CoreDataType.FLOAT16, "2050", f16(0x6801), "2050.0");
        assertRoundTrip(CoreDataType.FLOAT16, "2051", f16(0x6802), "2052.0");
        assertRoundTrip(CoreDataType.FLOAT16, "2049.0", f16(0x6800), "2048.0");
        assertRoundTrip(CoreDataType.FLOAT16, "2051.0", f16(0x6802), "2052.0");
        assertRoundTrip(CoreDataType.FLOAT16, "65504", f16(0x7bff), "65504.0");
        assertRoundTrip(CoreDataType.FLOAT16, "65519.99", f16(0x7bff), "65504.0");
        assertRoundTrip(CoreDataType.FLOAT16, "65520", f16(0x7c00), "\"Infinity\"");
        assertRoundTrip(CoreDataType.FLOAT16, "-65520.0", f16(0xfc00), "\"-Infinity\"");
        assertRoundTrip(CoreDataType.FLOAT16, "1e10", f16(0x7c00), "\"Infinity\"");
        assertRoundTrip(CoreDataType.FLOAT16, "0.1", f16(0x2e66), "0.099975586");
        assertRoundTrip(CoreDataType.FLOAT16, "1", f16(0x3c00), "1.0");
        assertRoundTrip(CoreDataType.FLOAT16, "-0.0", f16(0x8000), "-0.0");
        assertRoundTrip(CoreDataType.FLOAT16, "0.0", f16(0), "0.0");
    }

    @Test
    void float16Subnormals() {
        assertRoundTrip(CoreDataType.FLOAT16, "5.960464477539063e-8", f16(0x0001), "5.9604645E-8");
        assertRoundTrip(CoreDataType.FLOAT16, "-5.960464477539063e-8", f16(0x8001), "-5.9604645E-8");
        // 2^-25 is the tie between 0 and the smallest subnormal: to even, zero.
        assertRoundTrip(CoreDataType.FLOAT16, "2.9802322387695312e-8", f16(0x0000), "0.0");
        assertRoundTrip(CoreDataType.FLOAT16, "2.980232238769532e-8", f16(0x0001), "5.9604645E-8");
        // 3 * 2^-25 is the tie between subnormals 1 and 2: to even, 2.
        assertRoundTrip(CoreDataType.FLOAT16, "8.940696716308594e-8", f16(0x0002), "1.1920929E-7");
        assertRoundTrip(CoreDataType.FLOAT16, "1e-9", f16(0x0000), "0.0");
        // The largest subnormal and the smallest normal.
        assertRoundTrip(CoreDataType.FLOAT16, "6.097555160522461e-5", f16(0x03ff), "6.097555E-5");
        assertRoundTrip(CoreDataType.FLOAT16, "6.103515625e-5", f16(0x0400), "6.1035156E-5");
    }

    @Test
    void float16RoundsADoubleOnceNotThroughFloat() {
        // As a float, 2049.0001 is 2049 exactly, which would round to 2048; the value is above the
        // midpoint of 2048 and 2050, so the nearest binary16 is 2050.
        assertRoundTrip(CoreDataType.FLOAT16, "2049.0001", f16(0x6801), "2050.0");
        assertRoundTrip(CoreDataType.FLOAT16, "2050.9999", f16(0x6801), "2050.0");
    }

    @Test
    void float16RoundsAnExactDecimalOnce() {
        // Closer to the midpoints than a double can tell: exact decimals must still round right.
        String[][] cases = {
            {"2049.00000000000000000001", "6801"},
            {"2048.99999999999999999999", "6800"},
            {"2051.00000000000000000001", "6802"},
            {"2050.99999999999999999999", "6801"},
            {"65519.9999999999999999999", "7bff"},
            {"-2049.00000000000000000001", "e801"},
            {"2.98023223876953125000000001e-8", "0001"},
            {"2.98023223876953125e-8", "0000"},
            {"1e-400", "0000"},
            {"1e400", "7c00"},
        };
        for (String[] c : cases) {
            FillValue v = CoreDataType.FLOAT16.parseFillValue(new DecimalNode(new BigDecimal(c[0])), "/f");
            assertArrayEquals(f16(Integer.parseInt(c[1], 16)), v.bytes(), c[0]);
        }
    }

    @Test
    void float16SentinelsAndHex() {
        assertRoundTrip(CoreDataType.FLOAT16, "\"NaN\"", f16(0x7e00), "\"NaN\"");
        assertRoundTrip(CoreDataType.FLOAT16, "\"Infinity\"", f16(0x7c00), "\"Infinity\"");
        assertRoundTrip(CoreDataType.FLOAT16, "\"-Infinity\"", f16(0xfc00), "\"-Infinity\"");
        assertRoundTrip(CoreDataType.FLOAT16, "\"0x7e00\"", f16(0x7e00), "\"NaN\"");
        assertRoundTrip(CoreDataType.FLOAT16, "\"0x7d00\"", f16(0x7d00), "\"0x7d00\"");
        assertRoundTrip(CoreDataType.FLOAT16, "\"0x7c01\"", f16(0x7c01), "\"0x7c01\"");
        assertRoundTrip(CoreDataType.FLOAT16, "\"0xfe00\"", f16(0xfe00), "\"0xfe00\"");
        assertRoundTrip(CoreDataType.FLOAT16, "\"0x3c00\"", f16(0x3c00), "1.0");
        assertRoundTrip(CoreDataType.FLOAT16, "\"0x0000\"", f16(0), "0.0");
        for (String bad : List.of("\"0x7e0\"", "\"0x07e00\"", "\"0x7e00 \"", "\"NaN \"", "[]")) {
            InvalidMetadataException e = assertRefused(CoreDataType.FLOAT16, bad);
            assertTrue(e.getMessage().contains("4 hex digits"), e::getMessage);
        }
    }

    // ---- complex

    @Test
    void complex64Pairs() {
        assertRoundTrip(CoreDataType.COMPLEX64, "[1.5, 2.5]",
                nativeBytes(8, b -> b.putFloat(1.5f).putFloat(2.5f)), "[1.5,2.5]");
        assertRoundTrip(CoreDataType.COMPLEX64, "[0.1, -0.0]",
                nativeBytes(8, b -> b.putFloat(0.1f).putInt(0x80000000)), "[0.1,-0.0]");
        assertRoundTrip(CoreDataType.COMPLEX64, "[\"-Infinity\", \"NaN\"]",
                nativeBytes(8, b -> b.putInt(0xff800000).putInt(0x7fc00000)), "[\"-Infinity\",\"NaN\"]");
        assertRoundTrip(CoreDataType.COMPLEX64, "[1, \"Infinity\"]",
                nativeBytes(8, b -> b.putFloat(1f).putInt(0x7f800000)), "[1.0,\"Infinity\"]");
        assertRoundTrip(CoreDataType.COMPLEX64, "[\"0x7fc00000\", \"0x00000000\"]",
                nativeBytes(8, b -> b.putInt(0x7fc00000).putInt(0)), "[\"NaN\",0.0]");
        assertRoundTrip(CoreDataType.COMPLEX64, "[\"0x7fc00001\", \"0xffa00000\"]",
                nativeBytes(8, b -> b.putInt(0x7fc00001).putInt(0xffa00000)), "[\"0x7fc00001\",\"0xffa00000\"]");
    }

    @Test
    void complex128Pairs() {
        assertRoundTrip(CoreDataType.COMPLEX128, "[1.5, 2.5]",
                nativeBytes(16, b -> b.putDouble(1.5).putDouble(2.5)), "[1.5,2.5]");
        assertRoundTrip(CoreDataType.COMPLEX128, "[0.1, 1e300]",
                nativeBytes(16, b -> b.putDouble(0.1).putDouble(1e300)), "[0.1,1.0E300]");
        assertRoundTrip(CoreDataType.COMPLEX128, "[\"NaN\", \"-Infinity\"]",
                nativeBytes(16, b -> b.putLong(0x7ff8000000000000L).putLong(0xfff0000000000000L)),
                "[\"NaN\",\"-Infinity\"]");
        assertRoundTrip(CoreDataType.COMPLEX128, "[\"0x7ff4000000000000\", \"0x3ff0000000000000\"]",
                nativeBytes(16, b -> b.putLong(0x7ff4000000000000L).putDouble(1.0)), "[\"0x7ff4000000000000\",1.0]");
    }

    @Test
    void complexRefusesAnythingButAPairOfFloatForms() {
        for (CoreDataType t : List.of(CoreDataType.COMPLEX64, CoreDataType.COMPLEX128)) {
            for (String bad : List.of("1.5", "\"NaN\"", "[]", "[1]", "[1, 2, 3]", "{\"real\": 1, \"imag\": 2}", "null")) {
                InvalidMetadataException e = assertRefused(t, bad);
                assertTrue(e.getMessage().contains("two-element array"), e::getMessage);
            }
        }
        InvalidMetadataException e = assertRefused(CoreDataType.COMPLEX64, "[1, \"nan\"]", "/fill_value/1");
        assertTrue(e.getMessage().contains("imaginary part"), e::getMessage);
        e = assertRefused(CoreDataType.COMPLEX64, "[\"0x7ff8000000000000\", 1]", "/fill_value/0");
        assertTrue(e.getMessage().contains("8 hex digits"), e::getMessage);
        e = assertRefused(CoreDataType.COMPLEX128, "[1, \"0x7fc00000\"]", "/fill_value/1");
        assertTrue(e.getMessage().contains("16 hex digits"), e::getMessage);
        assertRefused(CoreDataType.COMPLEX128, "[[1], 2]", "/fill_value/0");
    }

    // ---- raw

    @Test
    void rawTakesExactlySizeBytes() {
        CoreDataType r24 = CoreDataType.raw(24);
        assertRoundTrip(r24, "[1, 2, 3]", new byte[] {1, 2, 3}, "[1,2,3]");
        assertRoundTrip(r24, "[255, 0, 128]", new byte[] {-1, 0, -128}, "[255,0,128]");
        assertRoundTrip(CoreDataType.raw(8), "[7]", new byte[] {7}, "[7]");
        for (String bad : List.of("[1, 2]", "[1, 2, 3, 4]", "[]", "\"0x010203\"", "3", "null")) {
            InvalidMetadataException e = assertRefused(r24, bad);
            assertTrue(e.getMessage().contains("array of 3 integers in [0, 255]"), e::getMessage);
        }
        assertRefused(r24, "[256, 0, 0]", "/fill_value/0");
        assertRefused(r24, "[0, -1, 0]", "/fill_value/1");
        assertRefused(r24, "[0, 0, 1.0]", "/fill_value/2");
        assertRefused(r24, "[0, 0, \"1\"]", "/fill_value/2");
        assertRefused(r24, "[0, 0, 99999999999999999999]", "/fill_value/2");
    }

    @Test
    void longRawValuesAreCutShortInMessages() {
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> parse(CoreDataType.raw(8), "[" + "1, ".repeat(500) + "1]"));
        assertTrue(e.getMessage().length() < 300, e::getMessage);
        assertTrue(e.getMessage().contains("..."), e::getMessage);
    }

    // ---- defaults and misuse

    @Test
    void defaultFillValuesAreZeroAndWriteAsZero() {
        String[][] expected = {
            {"bool", "false"}, {"int8", "0"}, {"int64", "0"}, {"uint8", "0"}, {"uint64", "0"},
            {"float16", "0.0"}, {"float32", "0.0"}, {"float64", "0.0"},
            {"complex64", "[0.0,0.0]"}, {"complex128", "[0.0,0.0]"}, {"r24", "[0,0,0]"},
        };
        for (String[] e : expected) {
            CoreDataType t = CoreDataType.byName(e[0]).orElseThrow();
            FillValue v = t.defaultFillValue();
            assertTrue(v.isZero(), e[0]);
            assertEquals(t.size(), v.size(), e[0]);
            assertEquals(e[1], text(t.fillValueToJson(v)), e[0]);
        }
    }

    @Test
    void writingAFillValueOfTheWrongSizeIsAProgrammingError() {
        FillValue fourBytes = FillValue.ofBytes(new byte[4]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CoreDataType.FLOAT64.fillValueToJson(fourBytes));
        assertTrue(e.getMessage().contains("float64"), e::getMessage);
    }
}
