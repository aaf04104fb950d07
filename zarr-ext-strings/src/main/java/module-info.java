import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.ext.strings.internal.BytesTypeProvider;
import dev.zarrj.ext.strings.internal.FixedLengthUtf32Provider;
import dev.zarrj.ext.strings.internal.NullTerminatedBytesProvider;
import dev.zarrj.ext.strings.internal.StringTypeProvider;
import dev.zarrj.ext.strings.internal.VlenBytesCodecProvider;
import dev.zarrj.ext.strings.internal.VlenUtf8CodecProvider;

/**
 * Text and byte strings (zarr-extensions): the variable-length {@code string} and {@code bytes}
 * data types with the {@code vlen-utf8} and {@code vlen-bytes} codecs that store them (what
 * zarr-python writes for every text column), and {@code fixed_length_utf32} (NumPy's {@code <U}
 * strings), and {@code null_terminated_bytes} (NumPy's {@code |S} strings).
 *
 * <p>Exports {@link dev.zarrj.ext.strings.StringTypes}: the types, for creating arrays, and the
 * conversions of {@code fixed_length_utf32} elements to and from {@link String}.
 *
 * @provides DataTypeProvider {@code string}, {@code bytes} (also read as
 *     {@code variable_length_bytes}), {@code fixed_length_utf32}, {@code null_terminated_bytes}
 * @provides CodecProvider {@code vlen-utf8}, {@code vlen-bytes}
 */
module dev.zarrj.ext.strings {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires static com.google.auto.service;

    exports dev.zarrj.ext.strings;

    provides DataTypeProvider with StringTypeProvider, BytesTypeProvider, FixedLengthUtf32Provider,
            NullTerminatedBytesProvider;
    provides CodecProvider with VlenUtf8CodecProvider, VlenBytesCodecProvider;
}
