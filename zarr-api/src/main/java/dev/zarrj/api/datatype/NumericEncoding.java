package dev.zarrj.api.datatype;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.ByteBuffer;
import org.apiguardian.api.API;

/**
 * How the elements of a data type that {@link ElementKind} does not describe are numbers:
 * {@code bfloat16}, the {@code float8}/{@code float6}/{@code float4} families, 2- and 4-bit
 * integers, complex numbers of these. A data type of kind {@link ElementKind#OTHER} offers one
 * through {@link DataType#numericEncoding()}, and {@link dev.zarrj.api.NdArray}'s element
 * accessors ({@code getDouble}, {@code setDouble}, {@code getLong}, {@code setLong}) and bulk
 * copies then convert its elements: integers to and from {@code byte[]}, floats (complex ones
 * interleaved, real then imaginary) to and from {@code float[]}.
 *
 * <p>Every value of such a type must be a {@code float} exactly (formats of at most 24
 * significant bits and 8 exponent bits). Reading is exact; writing rounds as the type's
 * specification says and the implementation documents. Implementations are immutable and
 * thread-safe; they read and write the buffer at absolute offsets, in native byte order, and
 * never change its position or limit.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface NumericEncoding {
    /** 1 for real numbers; 2 for complex ones, whose real then imaginary part take half the element each. */
    int components();

    /** Whether the values are integers (bulk copies use {@code byte[]}) rather than floats ({@code float[]}). */
    boolean isInteger();

    /** The component stored at {@code offset} (a byte offset into {@code data}), exactly. */
    double get(ByteBuffer data, int offset);

    /**
     * Stores {@code value} at {@code offset} as the type's nearest value, rounding as the type
     * documents; integers are truncated toward zero and wrapped to the type's width, like
     * {@link dev.zarrj.api.NdArray#setLong}.
     *
     * @throws IllegalArgumentException when the type has no value for it (NaN in a type without NaN)
     */
    void set(ByteBuffer data, int offset, double value);
}
