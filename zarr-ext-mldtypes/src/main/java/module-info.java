import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.ext.mldtypes.internal.NarrowTypeProviders;

/**
 * The ml_dtypes family of data types (zarr-extensions): the 2- and 4-bit integers {@code int2},
 * {@code int4}, {@code uint2}, {@code uint4}; {@code bfloat16}; the {@code float8_*},
 * {@code float6_*} and {@code float4_e2m1fn} formats; and the {@code complex_*} types of these and
 * of {@code float16}, and {@code complex_float32}/{@code complex_float64} (the registry's names of
 * {@code complex64}/{@code complex128}). Read and written bit-exact in the {@code bytes} codec's one byte per
 * component (two for 16-bit formats); {@code NdArray} converts their values to and from Java
 * numbers through {@link dev.zarrj.api.datatype.NumericEncoding}.
 *
 * <p>Exports {@link dev.zarrj.ext.mldtypes.MlDataTypes}, the types by name for building arrays in code.
 *
 * @provides DataTypeProvider one per type
 */
module dev.zarrj.ext.mldtypes {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires static com.google.auto.service;

    exports dev.zarrj.ext.mldtypes;

    provides DataTypeProvider with
            NarrowTypeProviders.Int2,
            NarrowTypeProviders.Int4,
            NarrowTypeProviders.Uint2,
            NarrowTypeProviders.Uint4,
            NarrowTypeProviders.BFloat16,
            NarrowTypeProviders.Float8E3m4,
            NarrowTypeProviders.Float8E4m3,
            NarrowTypeProviders.Float8E4m3b11fnuz,
            NarrowTypeProviders.Float8E4m3fnuz,
            NarrowTypeProviders.Float8E5m2,
            NarrowTypeProviders.Float8E5m2fnuz,
            NarrowTypeProviders.Float8E8m0fnu,
            NarrowTypeProviders.Float6E2m3fn,
            NarrowTypeProviders.Float6E3m2fn,
            NarrowTypeProviders.Float4E2m1fn,
            NarrowTypeProviders.ComplexBFloat16,
            NarrowTypeProviders.ComplexFloat16,
            NarrowTypeProviders.ComplexFloat8E3m4,
            NarrowTypeProviders.ComplexFloat8E4m3,
            NarrowTypeProviders.ComplexFloat8E4m3b11fnuz,
            NarrowTypeProviders.ComplexFloat8E4m3fnuz,
            NarrowTypeProviders.ComplexFloat8E5m2,
            NarrowTypeProviders.ComplexFloat8E5m2fnuz,
            NarrowTypeProviders.ComplexFloat8E8m0fnu,
            NarrowTypeProviders.ComplexFloat6E2m3fn,
            NarrowTypeProviders.ComplexFloat6E3m2fn,
            NarrowTypeProviders.ComplexFloat4E2m1fn,
            NarrowTypeProviders.ComplexFloat32,
            NarrowTypeProviders.ComplexFloat64;
}
