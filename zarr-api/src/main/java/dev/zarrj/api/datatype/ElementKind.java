package dev.zarrj.api.datatype;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * How the bytes of one element are interpreted. {@link dev.zarrj.api.NdArray}'s typed accessors
 * and bulk copies rely on it; extension data types that fit none of these use {@link #OTHER}.
 * Elements of the variable-length kinds have no fixed size: arrays hold them as Java objects.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ElementKind {
    /** One byte, 0 or 1. */
    BOOL,
    /** Two's-complement signed integer of 1, 2, 4 or 8 bytes. */
    INT,
    /** Unsigned integer of 1, 2, 4 or 8 bytes. */
    UINT,
    /** IEEE 754 binary16, binary32 or binary64. */
    FLOAT,
    /** Two IEEE 754 floats of 4 or 8 bytes each: real, then imaginary. */
    COMPLEX,
    /** Opaque bytes ({@code r*}). */
    RAW,
    /**
     * Anything else: raw byte access, and number access when {@link DataType#numericEncoding()}
     * is present.
     */
    OTHER,
    /**
     * Variable-length Unicode text: {@link dev.zarrj.api.NdArray} holds each element as a
     * {@link String}.
     *
     * @since 0.15
     */
    STRING,
    /**
     * Variable-length byte strings: {@link dev.zarrj.api.NdArray} holds each element as a
     * {@code byte[]}.
     *
     * @since 0.15
     */
    BYTES;

    /**
     * Whether elements of this kind vary in size ({@link #STRING}, {@link #BYTES}): arrays of them
     * hold objects rather than bytes, and {@link DataType#size()} is only an estimate.
     */
    public boolean isVariableLength() {
        return this == STRING || this == BYTES;
    }
}
