import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.zstd.internal.ZstdCodecProvider;

/**
 * The {@code zstd} bytes→bytes codec of Zarr v3, built on zstd-jni (libzstd).
 *
 * <p>Exports only {@link dev.zarrj.codec.zstd.ZstdConfiguration}, for building metadata in code.
 *
 * @provides CodecProvider {@code zstd}
 */
module dev.zarrj.codec.zstd {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires com.github.luben.zstd_jni;
    requires static com.google.auto.service;

    exports dev.zarrj.codec.zstd;

    provides CodecProvider with ZstdCodecProvider;
}
