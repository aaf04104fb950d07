package dev.zarrj.ext.mldtypes.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;

/**
 * One provider per type of the module, registered like any plugin's. None takes configuration;
 * each returns its shared {@link NarrowType}.
 */
public final class NarrowTypeProviders {
    private NarrowTypeProviders() {}

    private static DataType plain(ExtensionConfig config, String name) {
        config.rejectUnknownFields();
        return NarrowTypes.get(name);
    }

    /** {@code int2}. */
    @AutoService(DataTypeProvider.class)
    public static final class Int2 implements DataTypeProvider {
        public Int2() {}

        @Override public String name() { return "int2"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "int2");
        }
    }

    /** {@code int4}. */
    @AutoService(DataTypeProvider.class)
    public static final class Int4 implements DataTypeProvider {
        public Int4() {}

        @Override public String name() { return "int4"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "int4");
        }
    }

    /** {@code uint2}. */
    @AutoService(DataTypeProvider.class)
    public static final class Uint2 implements DataTypeProvider {
        public Uint2() {}

        @Override public String name() { return "uint2"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "uint2");
        }
    }

    /** {@code uint4}. */
    @AutoService(DataTypeProvider.class)
    public static final class Uint4 implements DataTypeProvider {
        public Uint4() {}

        @Override public String name() { return "uint4"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "uint4");
        }
    }

    /** {@code bfloat16}. */
    @AutoService(DataTypeProvider.class)
    public static final class BFloat16 implements DataTypeProvider {
        public BFloat16() {}

        @Override public String name() { return "bfloat16"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "bfloat16");
        }
    }

    /** {@code float8_e3m4}. */
    @AutoService(DataTypeProvider.class)
    public static final class Float8E3m4 implements DataTypeProvider {
        public Float8E3m4() {}

        @Override public String name() { return "float8_e3m4"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "float8_e3m4");
        }
    }

    /** {@code float8_e4m3}. */
    @AutoService(DataTypeProvider.class)
    public static final class Float8E4m3 implements DataTypeProvider {
        public Float8E4m3() {}

        @Override public String name() { return "float8_e4m3"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "float8_e4m3");
        }
    }

    /** {@code float8_e4m3b11fnuz}. */
    @AutoService(DataTypeProvider.class)
    public static final class Float8E4m3b11fnuz implements DataTypeProvider {
        public Float8E4m3b11fnuz() {}

        @Override public String name() { return "float8_e4m3b11fnuz"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "float8_e4m3b11fnuz");
        }
    }

    /** {@code float8_e4m3fnuz}. */
    @AutoService(DataTypeProvider.class)
    public static final class Float8E4m3fnuz implements DataTypeProvider {
        public Float8E4m3fnuz() {}

        @Override public String name() { return "float8_e4m3fnuz"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "float8_e4m3fnuz");
        }
    }

    /** {@code float8_e5m2}. */
    @AutoService(DataTypeProvider.class)
    public static final class Float8E5m2 implements DataTypeProvider {
        public Float8E5m2() {}

        @Override public String name() { return "float8_e5m2"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "float8_e5m2");
        }
    }

    /** {@code float8_e5m2fnuz}. */
    @AutoService(DataTypeProvider.class)
    public static final class Float8E5m2fnuz implements DataTypeProvider {
        public Float8E5m2fnuz() {}

        @Override public String name() { return "float8_e5m2fnuz"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "float8_e5m2fnuz");
        }
    }

    /** {@code float8_e8m0fnu}. */
    @AutoService(DataTypeProvider.class)
    public static final class Float8E8m0fnu implements DataTypeProvider {
        public Float8E8m0fnu() {}

        @Override public String name() { return "float8_e8m0fnu"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "float8_e8m0fnu");
        }
    }

    /** {@code float6_e2m3fn}. */
    @AutoService(DataTypeProvider.class)
    public static final class Float6E2m3fn implements DataTypeProvider {
        public Float6E2m3fn() {}

        @Override public String name() { return "float6_e2m3fn"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "float6_e2m3fn");
        }
    }

    /** {@code float6_e3m2fn}. */
    @AutoService(DataTypeProvider.class)
    public static final class Float6E3m2fn implements DataTypeProvider {
        public Float6E3m2fn() {}

        @Override public String name() { return "float6_e3m2fn"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "float6_e3m2fn");
        }
    }

    /** {@code float4_e2m1fn}. */
    @AutoService(DataTypeProvider.class)
    public static final class Float4E2m1fn implements DataTypeProvider {
        public Float4E2m1fn() {}

        @Override public String name() { return "float4_e2m1fn"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "float4_e2m1fn");
        }
    }

    /** {@code complex_bfloat16}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexBFloat16 implements DataTypeProvider {
        public ComplexBFloat16() {}

        @Override public String name() { return "complex_bfloat16"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_bfloat16");
        }
    }

    /** {@code complex_float16}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexFloat16 implements DataTypeProvider {
        public ComplexFloat16() {}

        @Override public String name() { return "complex_float16"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_float16");
        }
    }

    /** {@code complex_float8_e3m4}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexFloat8E3m4 implements DataTypeProvider {
        public ComplexFloat8E3m4() {}

        @Override public String name() { return "complex_float8_e3m4"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_float8_e3m4");
        }
    }

    /** {@code complex_float8_e4m3}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexFloat8E4m3 implements DataTypeProvider {
        public ComplexFloat8E4m3() {}

        @Override public String name() { return "complex_float8_e4m3"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_float8_e4m3");
        }
    }

    /** {@code complex_float8_e4m3b11fnuz}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexFloat8E4m3b11fnuz implements DataTypeProvider {
        public ComplexFloat8E4m3b11fnuz() {}

        @Override public String name() { return "complex_float8_e4m3b11fnuz"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_float8_e4m3b11fnuz");
        }
    }

    /** {@code complex_float8_e4m3fnuz}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexFloat8E4m3fnuz implements DataTypeProvider {
        public ComplexFloat8E4m3fnuz() {}

        @Override public String name() { return "complex_float8_e4m3fnuz"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_float8_e4m3fnuz");
        }
    }

    /** {@code complex_float8_e5m2}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexFloat8E5m2 implements DataTypeProvider {
        public ComplexFloat8E5m2() {}

        @Override public String name() { return "complex_float8_e5m2"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_float8_e5m2");
        }
    }

    /** {@code complex_float8_e5m2fnuz}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexFloat8E5m2fnuz implements DataTypeProvider {
        public ComplexFloat8E5m2fnuz() {}

        @Override public String name() { return "complex_float8_e5m2fnuz"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_float8_e5m2fnuz");
        }
    }

    /** {@code complex_float8_e8m0fnu}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexFloat8E8m0fnu implements DataTypeProvider {
        public ComplexFloat8E8m0fnu() {}

        @Override public String name() { return "complex_float8_e8m0fnu"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_float8_e8m0fnu");
        }
    }

    /** {@code complex_float6_e2m3fn}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexFloat6E2m3fn implements DataTypeProvider {
        public ComplexFloat6E2m3fn() {}

        @Override public String name() { return "complex_float6_e2m3fn"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_float6_e2m3fn");
        }
    }

    /** {@code complex_float6_e3m2fn}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexFloat6E3m2fn implements DataTypeProvider {
        public ComplexFloat6E3m2fn() {}

        @Override public String name() { return "complex_float6_e3m2fn"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_float6_e3m2fn");
        }
    }

    /** {@code complex_float4_e2m1fn}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexFloat4E2m1fn implements DataTypeProvider {
        public ComplexFloat4E2m1fn() {}

        @Override public String name() { return "complex_float4_e2m1fn"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_float4_e2m1fn");
        }
    }

    /** {@code complex_float32}, an alias of the core {@code complex64}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexFloat32 implements DataTypeProvider {
        public ComplexFloat32() {}

        @Override public String name() { return "complex_float32"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_float32");
        }
    }

    /** {@code complex_float64}, an alias of the core {@code complex128}. */
    @AutoService(DataTypeProvider.class)
    public static final class ComplexFloat64 implements DataTypeProvider {
        public ComplexFloat64() {}

        @Override public String name() { return "complex_float64"; }

        @Override public DataType create(ExtensionConfig config, ProviderContext context) {
            return plain(config, "complex_float64");
        }
    }
}
