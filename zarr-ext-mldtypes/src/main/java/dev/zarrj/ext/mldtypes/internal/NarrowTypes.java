package dev.zarrj.ext.mldtypes.internal;

import dev.zarrj.api.datatype.DataType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Every type of the module, by name: one instance each. */
public final class NarrowTypes {
    private NarrowTypes() {}

    private static final Map<String, DataType> BY_NAME = new LinkedHashMap<>();

    static {
        for (NarrowType t : new NarrowType[] {
            new NarrowType("int2", NarrowInt.INT2, 1),
            new NarrowType("int4", NarrowInt.INT4, 1),
            new NarrowType("uint2", NarrowInt.UINT2, 1),
            new NarrowType("uint4", NarrowInt.UINT4, 1),
            new NarrowType("bfloat16", MiniFloat.BFLOAT16, 1),
            new NarrowType("float8_e3m4", MiniFloat.FLOAT8_E3M4, 1),
            new NarrowType("float8_e4m3", MiniFloat.FLOAT8_E4M3, 1),
            new NarrowType("float8_e4m3b11fnuz", MiniFloat.FLOAT8_E4M3B11FNUZ, 1),
            new NarrowType("float8_e4m3fnuz", MiniFloat.FLOAT8_E4M3FNUZ, 1),
            new NarrowType("float8_e5m2", MiniFloat.FLOAT8_E5M2, 1),
            new NarrowType("float8_e5m2fnuz", MiniFloat.FLOAT8_E5M2FNUZ, 1),
            new NarrowType("float8_e8m0fnu", MiniFloat.FLOAT8_E8M0FNU, 1),
            new NarrowType("float6_e2m3fn", MiniFloat.FLOAT6_E2M3FN, 1),
            new NarrowType("float6_e3m2fn", MiniFloat.FLOAT6_E3M2FN, 1),
            new NarrowType("float4_e2m1fn", MiniFloat.FLOAT4_E2M1FN, 1),
            new NarrowType("complex_bfloat16", MiniFloat.BFLOAT16, 2),
            new NarrowType("complex_float16", MiniFloat.FLOAT16, 2),
            new NarrowType("complex_float8_e3m4", MiniFloat.FLOAT8_E3M4, 2),
            new NarrowType("complex_float8_e4m3", MiniFloat.FLOAT8_E4M3, 2),
            new NarrowType("complex_float8_e4m3b11fnuz", MiniFloat.FLOAT8_E4M3B11FNUZ, 2),
            new NarrowType("complex_float8_e4m3fnuz", MiniFloat.FLOAT8_E4M3FNUZ, 2),
            new NarrowType("complex_float8_e5m2", MiniFloat.FLOAT8_E5M2, 2),
            new NarrowType("complex_float8_e5m2fnuz", MiniFloat.FLOAT8_E5M2FNUZ, 2),
            new NarrowType("complex_float8_e8m0fnu", MiniFloat.FLOAT8_E8M0FNU, 2),
            new NarrowType("complex_float6_e2m3fn", MiniFloat.FLOAT6_E2M3FN, 2),
            new NarrowType("complex_float6_e3m2fn", MiniFloat.FLOAT6_E3M2FN, 2),
            new NarrowType("complex_float4_e2m1fn", MiniFloat.FLOAT4_E2M1FN, 2),
        }) {
            BY_NAME.put(t.name(), t);
        }
        BY_NAME.put(ComplexAlias.COMPLEX_FLOAT32.name(), ComplexAlias.COMPLEX_FLOAT32);
        BY_NAME.put(ComplexAlias.COMPLEX_FLOAT64.name(), ComplexAlias.COMPLEX_FLOAT64);
    }

    /** The type with this name, if this module has it. */
    public static Optional<DataType> byName(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    /** Every name, in the order of the README's table. */
    public static Set<String> names() {
        return java.util.Collections.unmodifiableSet(BY_NAME.keySet());
    }

    static DataType get(String name) {
        DataType t = BY_NAME.get(name);
        if (t == null) {
            throw new IllegalStateException("no narrow type " + name);
        }
        return t;
    }
}
