package dev.zarrj.ext.mldtypes.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.conformance.DataTypeContract;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;

/**
 * Every type of the module against the kit's data type contract, through its own provider, with
 * the fill-value forms its spec permits and forbids and the bits they stand for (the patterns of
 * 1, -1, the largest value, NaN and infinity worked out from each README's layout and bias), and
 * the numeric-encoding rule DT07 over every bit pattern.
 */
class NarrowTypeConformanceTest {
    static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    /** The bytes of components of {@code width} bytes each, native order. */
    static byte[] bytes(int width, long... patterns) {
        ByteBuffer b = ByteBuffer.allocate(width * patterns.length).order(ByteOrder.nativeOrder());
        for (long p : patterns) {
            if (width == 1) {
                b.put((byte) p);
            } else {
                b.putShort((short) p);
            }
        }
        return b.array();
    }

    static String hex(long pattern, int width) {
        return "\"0x" + String.format("%0" + 2 * width + "x", pattern) + "\"";
    }

    /** The forms of one real format: {json, pattern}; and what it must refuse. */
    record Forms(List<Object[]> valid, List<String> invalid) {}

    static Forms floatForms(int width, long one, long max, String maxValue, long nan, long inf, String style) {
        long sign = width == 2 ? 0x8000 : style.equals("FINITE") && max == 0x07 ? 0x8 : style.equals("FINITE") ? 0x20 : 0x80;
        List<Object[]> valid = new ArrayList<>();
        List<String> invalid = new ArrayList<>(List.of("\"nan\"", "\"0x\"", "\"0xZZ\"", "\"0x" + "0".repeat(2 * width + 1) + "\"",
                "true", "null", "[1.0]", "{}", "\"1\"", "\"+Infinity\""));
        valid.add(new Object[] {"1", one});
        valid.add(new Object[] {"1.0", one});
        valid.add(new Object[] {maxValue, max});
        valid.add(new Object[] {hex(one, width), one});
        if (!style.equals("E8M0")) {
            valid.add(new Object[] {"0", 0L});
            valid.add(new Object[] {"-1", one | sign});
            valid.add(new Object[] {"-" + maxValue, max | sign});
            valid.add(new Object[] {"-0.0", style.equals("FNUZ") ? 0L : sign});
        } else {
            invalid.add("0");
            invalid.add("-1");
            invalid.add("-0.0");
        }
        if (nan >= 0) {
            valid.add(new Object[] {"\"NaN\"", nan});
            valid.add(new Object[] {hex(nan, width), nan});
        } else {
            invalid.add("\"NaN\"");
        }
        if (inf >= 0) {
            valid.add(new Object[] {"\"Infinity\"", inf});
            valid.add(new Object[] {"\"-Infinity\"", inf | sign});
            valid.add(new Object[] {"1e300", inf});
        } else {
            invalid.add("\"Infinity\"");
            invalid.add("\"-Infinity\"");
            invalid.add("1e300");
        }
        if (width == 1 && max == 0x1f) {
            invalid.add("\"0x40\"");
        }
        if (width == 1 && max == 0x07) {
            invalid.add("\"0x10\"");
        }
        return new Forms(valid, invalid);
    }

    static Forms intForms(long min, long max) {
        List<Object[]> valid = new ArrayList<>();
        for (long v : new long[] {min, max, 0, 1}) {
            valid.add(new Object[] {Long.toString(v), v & 0xff});
        }
        if (min < 0) {
            valid.add(new Object[] {"-1", 0xffL});
        }
        return new Forms(valid, List.of(Long.toString(max + 1), Long.toString(min - 1), "1.5", "1.0", "1e2", "\"1\"", "true",
                "null", "[1]", "\"0x01\""));
    }

    /** The module's provider of a name, as ServiceLoader would find it. */
    static DataTypeProvider provider(String name) {
        for (Class<?> c : NarrowTypeProviders.class.getDeclaredClasses()) {
            try {
                DataTypeProvider p = (DataTypeProvider) c.getConstructor().newInstance();
                if (p.name().equals(name)) {
                    return p;
                }
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("no provider for " + name);
    }

    abstract static class Narrow extends DataTypeContract {
        private final String name;
        private final Forms forms;
        private final int width;
        private final boolean complex;

        Narrow(String name, Forms forms, int width, boolean complex) {
            this.name = name;
            this.forms = forms;
            this.width = width;
            this.complex = complex;
        }

        @Override
        protected DataTypeProvider provider() {
            return NarrowTypeConformanceTest.provider(name);
        }

        @Override
        protected List<FillValueExample> fillValueExamples(DataType type) {
            List<FillValueExample> out = new ArrayList<>();
            List<Object[]> v = forms.valid();
            for (int i = 0; i < v.size(); i++) {
                if (!complex) {
                    out.add(new FillValueExample(json((String) v.get(i)[0]), bytes(width, (Long) v.get(i)[1])));
                } else {
                    Object[] re = v.get(i);
                    Object[] im = v.get((i * 3 + 1) % v.size());
                    out.add(new FillValueExample(json("[" + re[0] + ", " + im[0] + "]"),
                            bytes(width, (Long) re[1], (Long) im[1])));
                }
            }
            return out;
        }

        @Override
        protected List<JsonNode> validFillValues(DataType type) {
            List<JsonNode> out = new ArrayList<>(super.validFillValues(type));
            if (!complex && forms.valid().stream().noneMatch(f -> f[0].equals("0"))) {
                return out;
            }
            out.add(json(complex ? "[0.1, 0.3]" : width == 1 && !name.contains("int") ? "0.1" : "0"));
            return out;
        }

        @Override
        protected List<JsonNode> invalidFillValues(DataType type) {
            List<JsonNode> out = new ArrayList<>();
            for (String s : forms.invalid()) {
                out.add(json(complex ? "[" + s + ", 0]" : s));
            }
            if (complex) {
                for (String s : List.of("1", "\"NaN\"", "[1]", "[1, 2, 3]", "null", "{}")) {
                    out.add(json(s));
                }
            }
            return out;
        }
    }
    @Nested class BFloat16 extends Narrow { BFloat16() { super("bfloat16", floatForms(2, 0x3f80, 0x7f7f, "3.3895313892515355E38", 0x7fc0, 0x7f80, "IEEE"), 2, false); } }
    @Nested class ComplexBFloat16 extends Narrow { ComplexBFloat16() { super("complex_bfloat16", floatForms(2, 0x3f80, 0x7f7f, "3.3895313892515355E38", 0x7fc0, 0x7f80, "IEEE"), 2, true); } }
    @Nested class Float8E3m4 extends Narrow { Float8E3m4() { super("float8_e3m4", floatForms(1, 0x30, 0x6f, "15.5", 0x78, 0x70, "IEEE"), 1, false); } }
    @Nested class ComplexFloat8E3m4 extends Narrow { ComplexFloat8E3m4() { super("complex_float8_e3m4", floatForms(1, 0x30, 0x6f, "15.5", 0x78, 0x70, "IEEE"), 1, true); } }
    @Nested class Float8E4m3 extends Narrow { Float8E4m3() { super("float8_e4m3", floatForms(1, 0x38, 0x77, "240", 0x7c, 0x78, "IEEE"), 1, false); } }
    @Nested class ComplexFloat8E4m3 extends Narrow { ComplexFloat8E4m3() { super("complex_float8_e4m3", floatForms(1, 0x38, 0x77, "240", 0x7c, 0x78, "IEEE"), 1, true); } }
    @Nested class Float8E4m3b11fnuz extends Narrow { Float8E4m3b11fnuz() { super("float8_e4m3b11fnuz", floatForms(1, 0x58, 0x7f, "30", 0x80, -1, "FNUZ"), 1, false); } }
    @Nested class ComplexFloat8E4m3b11fnuz extends Narrow { ComplexFloat8E4m3b11fnuz() { super("complex_float8_e4m3b11fnuz", floatForms(1, 0x58, 0x7f, "30", 0x80, -1, "FNUZ"), 1, true); } }
    @Nested class Float8E4m3fnuz extends Narrow { Float8E4m3fnuz() { super("float8_e4m3fnuz", floatForms(1, 0x40, 0x7f, "240", 0x80, -1, "FNUZ"), 1, false); } }
    @Nested class ComplexFloat8E4m3fnuz extends Narrow { ComplexFloat8E4m3fnuz() { super("complex_float8_e4m3fnuz", floatForms(1, 0x40, 0x7f, "240", 0x80, -1, "FNUZ"), 1, true); } }
    @Nested class Float8E5m2 extends Narrow { Float8E5m2() { super("float8_e5m2", floatForms(1, 0x3c, 0x7b, "57344", 0x7e, 0x7c, "IEEE"), 1, false); } }
    @Nested class ComplexFloat8E5m2 extends Narrow { ComplexFloat8E5m2() { super("complex_float8_e5m2", floatForms(1, 0x3c, 0x7b, "57344", 0x7e, 0x7c, "IEEE"), 1, true); } }
    @Nested class Float8E5m2fnuz extends Narrow { Float8E5m2fnuz() { super("float8_e5m2fnuz", floatForms(1, 0x40, 0x7f, "57344", 0x80, -1, "FNUZ"), 1, false); } }
    @Nested class ComplexFloat8E5m2fnuz extends Narrow { ComplexFloat8E5m2fnuz() { super("complex_float8_e5m2fnuz", floatForms(1, 0x40, 0x7f, "57344", 0x80, -1, "FNUZ"), 1, true); } }
    @Nested class Float8E8m0fnu extends Narrow { Float8E8m0fnu() { super("float8_e8m0fnu", floatForms(1, 0x7f, 0xfe, "1.7014118346046923E38", 0xff, -1, "E8M0"), 1, false); } }
    @Nested class ComplexFloat8E8m0fnu extends Narrow { ComplexFloat8E8m0fnu() { super("complex_float8_e8m0fnu", floatForms(1, 0x7f, 0xfe, "1.7014118346046923E38", 0xff, -1, "E8M0"), 1, true); } }
    @Nested class Float6E2m3fn extends Narrow { Float6E2m3fn() { super("float6_e2m3fn", floatForms(1, 0x8, 0x1f, "7.5", -1, -1, "FINITE"), 1, false); } }
    @Nested class ComplexFloat6E2m3fn extends Narrow { ComplexFloat6E2m3fn() { super("complex_float6_e2m3fn", floatForms(1, 0x8, 0x1f, "7.5", -1, -1, "FINITE"), 1, true); } }
    @Nested class Float6E3m2fn extends Narrow { Float6E3m2fn() { super("float6_e3m2fn", floatForms(1, 0xc, 0x1f, "28", -1, -1, "FINITE"), 1, false); } }
    @Nested class ComplexFloat6E3m2fn extends Narrow { ComplexFloat6E3m2fn() { super("complex_float6_e3m2fn", floatForms(1, 0xc, 0x1f, "28", -1, -1, "FINITE"), 1, true); } }
    @Nested class Float4E2m1fn extends Narrow { Float4E2m1fn() { super("float4_e2m1fn", floatForms(1, 0x2, 0x7, "6", -1, -1, "FINITE"), 1, false); } }
    @Nested class ComplexFloat4E2m1fn extends Narrow { ComplexFloat4E2m1fn() { super("complex_float4_e2m1fn", floatForms(1, 0x2, 0x7, "6", -1, -1, "FINITE"), 1, true); } }
    @Nested class ComplexFloat16 extends Narrow { ComplexFloat16() { super("complex_float16", floatForms(2, 0x3c00, 0x7bff, "65504", 0x7e00, 0x7c00, "IEEE"), 2, true); } }
    @Nested class Int2 extends Narrow { Int2() { super("int2", intForms(-2, 1), 1, false); } }
    @Nested class Int4 extends Narrow { Int4() { super("int4", intForms(-8, 7), 1, false); } }
    @Nested class Uint2 extends Narrow { Uint2() { super("uint2", intForms(0, 3), 1, false); } }
    @Nested class Uint4 extends Narrow { Uint4() { super("uint4", intForms(0, 15), 1, false); } }

    /** The aliases of complex64 and complex128: kind COMPLEX, so the kit's own complex forms apply. */
    @Nested
    class ComplexFloat32 extends DataTypeContract {
        @Override
        protected DataTypeProvider provider() {
            return NarrowTypeConformanceTest.provider("complex_float32");
        }
    }

    @Nested
    class ComplexFloat64 extends DataTypeContract {
        @Override
        protected DataTypeProvider provider() {
            return NarrowTypeConformanceTest.provider("complex_float64");
        }
    }
}
