import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.ext.optional.internal.OptionalCodecProvider;
import dev.zarrj.ext.optional.internal.OptionalTypeProvider;

/**
 * zarrs' {@code optional} data type (elements that may be missing, nestable) and its
 * {@code optional} array→bytes codec, which stores a chunk's missing-mask and its present values
 * through two codec chains of their own.
 *
 * <p>Exports {@link dev.zarrj.ext.optional.OptionalType} (the data type, with typed access to
 * masks and values) and {@link dev.zarrj.ext.optional.OptionalConfiguration} (the codec's
 * configuration, for building metadata in code).
 *
 * @provides DataTypeProvider {@code zarrs.optional} (alias {@code optional})
 * @provides CodecProvider {@code zarrs.optional} (alias {@code optional})
 */
module dev.zarrj.ext.optional {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires static com.google.auto.service;

    exports dev.zarrj.ext.optional;

    provides DataTypeProvider with OptionalTypeProvider;
    provides CodecProvider with OptionalCodecProvider;
}
