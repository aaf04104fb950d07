import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.gzip.internal.GzipCodecProvider;

/**
 * The {@code gzip} bytes→bytes codec of Zarr v3, built on the JDK's zlib.
 *
 * <p>Exports only {@link dev.zarrj.codec.gzip.GzipConfiguration}, for building metadata in code.
 *
 * @provides CodecProvider {@code gzip}
 */
module dev.zarrj.codec.gzip {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires static com.google.auto.service;

    exports dev.zarrj.codec.gzip;

    provides CodecProvider with GzipCodecProvider;
}
