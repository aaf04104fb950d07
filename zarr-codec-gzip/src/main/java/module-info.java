import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.gzip.internal.GzipCodecProvider;

/**
 * The {@code gzip} bytes→bytes codec of Zarr v3, on the system libdeflate (through JNA) when it
 * can be loaded, and on the JDK's zlib ({@code java.util.zip}) otherwise or when the system
 * property {@code zarrj.gzip.native} is {@code false}. libdeflate is loaded when a gzip codec first
 * encodes or decodes a chunk, never when the provider is discovered or an array is opened.
 *
 * <p>Exports {@link dev.zarrj.codec.gzip.GzipConfiguration}, for building metadata in code, and
 * {@link dev.zarrj.codec.gzip.GzipLibrary}, which says which library runs (for {@code zarr
 * plugins} and the benchmarks).
 *
 * @provides CodecProvider {@code gzip}
 */
module dev.zarrj.codec.gzip {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires com.sun.jna;
    requires static com.google.auto.service;

    exports dev.zarrj.codec.gzip;

    provides CodecProvider with GzipCodecProvider;
}
