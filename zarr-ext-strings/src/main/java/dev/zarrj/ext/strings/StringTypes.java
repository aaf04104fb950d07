package dev.zarrj.ext.strings;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.datatype.DataType;
import dev.zarrj.ext.strings.internal.VariableLengthType;
import org.apiguardian.api.API;

/**
 * The data types of this module, for creating arrays in code.
 *
 * <p>{@link #STRING} and {@link #BYTES} have elements of varying length: arrays of them hold
 * {@link String}s and {@code byte[]}s ({@code NdArray.getString}, {@code toStringArray},
 * {@code copyOf(type, String[], shape)}) and are stored by the {@code vlen-utf8} and
 * {@code vlen-bytes} codecs, which an array of them must name:
 *
 * <pre>{@code
 * ZarrArray names = zarr.array(StringTypes.STRING, 1000).chunks(100).codec("vlen-utf8").create(store, "/names");
 * names.write(NdArray.copyOf(StringTypes.STRING, values, 1000));
 * }</pre>
 *
 * @since 0.15
 */
@API(status = EXPERIMENTAL, since = "0.15")
public final class StringTypes {
    /** {@code string}: variable-length Unicode text, stored as UTF-8 by {@code vlen-utf8}. */
    public static final DataType STRING = VariableLengthType.STRING;

    /** {@code bytes}: variable-length byte strings, stored by {@code vlen-bytes}. */
    public static final DataType BYTES = VariableLengthType.BYTES;

    private StringTypes() {}

    /** {@code null_terminated_bytes} holding at most {@code lengthBytes} bytes per element (NumPy's {@code |S}). */
    public static NullTerminatedBytesType nullTerminatedBytes(int lengthBytes) {
        return NullTerminatedBytesType.ofLengthBytes(lengthBytes);
    }

    /** {@code fixed_length_utf32} holding at most {@code codePoints} code points per element. */
    public static FixedLengthUtf32Type fixedLengthUtf32(int codePoints) {
        return FixedLengthUtf32Type.ofCodePoints(codePoints);
    }
}
