import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.registry.internal.BitRoundCodecProvider;
import dev.zarrj.codec.registry.internal.CastValueCodecProvider;
import dev.zarrj.codec.registry.internal.PackBitsCodecProvider;
import dev.zarrj.codec.registry.internal.ReshapeCodecProvider;
import dev.zarrj.codec.registry.internal.ScaleOffsetCodecProvider;

/**
 * The codecs of the zarr-extensions registry whose specification is final: array→array
 * {@code bitround}, {@code cast_value}, {@code scale_offset},
 * {@code reshape}; array→bytes {@code packbits}.
 *
 * <p>Exports only {@link dev.zarrj.codec.registry.RegistryCodecs}, for building metadata in code.
 *
 * @provides CodecProvider the names above
 */
module dev.zarrj.codec.registry {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires static com.google.auto.service;

    exports dev.zarrj.codec.registry;

    provides CodecProvider with BitRoundCodecProvider, CastValueCodecProvider, ScaleOffsetCodecProvider,
            ReshapeCodecProvider, PackBitsCodecProvider;
}
