package dev.zarrj.core;

import static org.apiguardian.api.API.Status.STABLE;

import dev.zarrj.api.datatype.DataType;
import dev.zarrj.core.internal.datatype.CoreDataType;
import org.apiguardian.api.API;

/**
 * The data types of the Zarr v3 core specification, to pass to the array builder.
 *
 * <p>Each is immutable and thread-safe and writes itself to metadata as its name (for example
 * {@code "data_type": "float32"}). Extension data types come from their plugins instead.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public final class DataTypes {
    private DataTypes() {}

    /** {@code bool}: one byte, 0 or 1. */
    public static final DataType BOOL = CoreDataType.BOOL;
    /** {@code int8}: signed 8-bit integer. */
    public static final DataType INT8 = CoreDataType.INT8;
    /** {@code int16}: signed 16-bit integer. */
    public static final DataType INT16 = CoreDataType.INT16;
    /** {@code int32}: signed 32-bit integer. */
    public static final DataType INT32 = CoreDataType.INT32;
    /** {@code int64}: signed 64-bit integer. */
    public static final DataType INT64 = CoreDataType.INT64;
    /** {@code uint8}: unsigned 8-bit integer. */
    public static final DataType UINT8 = CoreDataType.UINT8;
    /** {@code uint16}: unsigned 16-bit integer. */
    public static final DataType UINT16 = CoreDataType.UINT16;
    /** {@code uint32}: unsigned 32-bit integer. */
    public static final DataType UINT32 = CoreDataType.UINT32;
    /** {@code uint64}: unsigned 64-bit integer. */
    public static final DataType UINT64 = CoreDataType.UINT64;
    /** {@code float16}: IEEE 754 binary16 (optional in the spec). */
    public static final DataType FLOAT16 = CoreDataType.FLOAT16;
    /** {@code float32}: IEEE 754 binary32. */
    public static final DataType FLOAT32 = CoreDataType.FLOAT32;
    /** {@code float64}: IEEE 754 binary64. */
    public static final DataType FLOAT64 = CoreDataType.FLOAT64;
    /** {@code complex64}: two binary32 values, real then imaginary. */
    public static final DataType COMPLEX64 = CoreDataType.COMPLEX64;
    /** {@code complex128}: two binary64 values, real then imaginary. */
    public static final DataType COMPLEX128 = CoreDataType.COMPLEX128;

    /**
     * The raw type {@code r<bits>}: {@code bits / 8} opaque bytes with no byte order.
     *
     * @throws IllegalArgumentException unless {@code bits} is a positive multiple of 8
     */
    public static DataType raw(int bits) {
        return CoreDataType.raw(bits);
    }

    /**
     * The core data type with this identifier: one of the constants above, or {@code r<bits>}.
     *
     * @throws IllegalArgumentException for any other name
     */
    public static DataType of(String name) {
        return CoreDataType.byName(name).orElseThrow(() -> new IllegalArgumentException("'" + name
                + "' is not a core data type; allowed: bool, int8, int16, int32, int64, uint8, uint16, "
                + "uint32, uint64, float16, float32, float64, complex64, complex128, r<bits> (bits a "
                + "positive multiple of 8)"));
    }
}
