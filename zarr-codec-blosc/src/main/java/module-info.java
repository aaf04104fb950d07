import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.blosc.internal.BloscCodecProvider;

/**
 * The {@code blosc} bytes→bytes codec of Zarr v3, on the system c-blosc 1.x library (through
 * jblosc and JNA).
 *
 * <p>Exports only {@link dev.zarrj.codec.blosc.BloscConfiguration}, for building metadata in code.
 * The native library is loaded when the first blosc codec is created, never when the provider is
 * discovered: without c-blosc installed, only arrays that use blosc fail to open, with a message
 * that says how to install it.
 *
 * @provides CodecProvider {@code blosc}
 */
module dev.zarrj.codec.blosc {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires jblosc;
    requires com.sun.jna;
    requires static com.google.auto.service;

    exports dev.zarrj.codec.blosc;

    provides CodecProvider with BloscCodecProvider;
}
