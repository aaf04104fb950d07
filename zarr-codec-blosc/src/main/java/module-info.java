import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.codec.blosc.internal.BloscCodecProvider;

/**
 * The {@code blosc} bytes→bytes codec of Zarr v3, on the system c-blosc 1.x library (through
 * jblosc and JNA).
 *
 * <p>Exports only {@link dev.zarrj.codec.blosc.BloscConfiguration}, for building metadata in code.
 * The native library is loaded when a blosc codec first encodes or decodes a chunk, never when the
 * provider is discovered or an array is opened: without c-blosc installed, only reading or writing
 * the chunks of arrays that use blosc fails, with a message that says how to install it.
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
