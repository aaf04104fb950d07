package dev.zarrj.ext.mldtypes;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.datatype.DataType;
import dev.zarrj.ext.mldtypes.internal.NarrowTypes;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The data types of this module, for building arrays in code:
 * {@code zarr.array(MlDataTypes.BFLOAT16, 1000).create(store, "/w")}.
 *
 * <p>Values: {@code NdArray.getDouble}/{@code setDouble} and {@code float[]} copies for the float
 * formats (complex ones interleaved, real then imaginary), {@code getLong}/{@code setLong} and
 * {@code byte[]} copies for the integers. Reading is exact. Writing rounds to nearest, ties to
 * even, once from the double; a value beyond the largest finite one becomes infinity where the
 * format has it ({@code bfloat16}, {@code float8_e3m4}, {@code float8_e4m3}, {@code float8_e5m2}),
 * NaN where it has NaN but no infinity (the {@code fnuz} formats, {@code float8_e8m0fnu}), and the
 * largest finite value, signed, in the MX formats {@code float6_*}/{@code float4_e2m1fn}, which
 * have neither (NaN cannot be written to them: {@link IllegalArgumentException}).
 * {@code float8_e8m0fnu} has no zero and no sign: zero and negative values become NaN. The fnuz
 * formats have no negative zero. Integers are truncated toward zero and wrapped to their width,
 * like {@code setLong} on the core types, and written sign-extended ({@code int2}, {@code int4})
 * or with zero upper bits ({@code uint2}, {@code uint4}, and the upper bits of the 6- and 4-bit
 * float formats), the bits a reader ignores.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class MlDataTypes {
    private MlDataTypes() {}

    /** {@code int2}. */
    public static final DataType INT2 = get("int2");

    /** {@code int4}. */
    public static final DataType INT4 = get("int4");

    /** {@code uint2}. */
    public static final DataType UINT2 = get("uint2");

    /** {@code uint4}. */
    public static final DataType UINT4 = get("uint4");

    /** {@code bfloat16}. */
    public static final DataType BFLOAT16 = get("bfloat16");

    /** {@code float8_e3m4}. */
    public static final DataType FLOAT8_E3M4 = get("float8_e3m4");

    /** {@code float8_e4m3}. */
    public static final DataType FLOAT8_E4M3 = get("float8_e4m3");

    /** {@code float8_e4m3b11fnuz}. */
    public static final DataType FLOAT8_E4M3B11FNUZ = get("float8_e4m3b11fnuz");

    /** {@code float8_e4m3fnuz}. */
    public static final DataType FLOAT8_E4M3FNUZ = get("float8_e4m3fnuz");

    /** {@code float8_e5m2}. */
    public static final DataType FLOAT8_E5M2 = get("float8_e5m2");

    /** {@code float8_e5m2fnuz}. */
    public static final DataType FLOAT8_E5M2FNUZ = get("float8_e5m2fnuz");

    /** {@code float8_e8m0fnu}. */
    public static final DataType FLOAT8_E8M0FNU = get("float8_e8m0fnu");

    /** {@code float6_e2m3fn}. */
    public static final DataType FLOAT6_E2M3FN = get("float6_e2m3fn");

    /** {@code float6_e3m2fn}. */
    public static final DataType FLOAT6_E3M2FN = get("float6_e3m2fn");

    /** {@code float4_e2m1fn}. */
    public static final DataType FLOAT4_E2M1FN = get("float4_e2m1fn");

    private static DataType get(String name) {
        return NarrowTypes.byName(name).orElseThrow();
    }

    /** The type with this name ({@code complex_float8_e4m3} included), if this module has it. */
    public static Optional<DataType> of(String name) {
        return NarrowTypes.byName(name);
    }

    /** The names of every type of this module. */
    public static Set<String> names() {
        return NarrowTypes.names();
    }
}
