package dev.zarrj.codec.numcodecs.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.codec.CodecProvider;

/** {@code numcodecs.pcodec}: refused with the reason (no Java binding of pco to build on). */
@AutoService(CodecProvider.class)
public final class PcodecCodecProvider extends UnavailableCodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public PcodecCodecProvider() {
        super("numcodecs.pcodec", "it is numcodecs' PCodec, the standalone format of the pcodec (pco) library,"
                + " which is written in Rust; no Java binding of pco is available from Maven Central or Debian (a JNI"
                + " binding of pco would provide it); read the array with zarr-python and numcodecs[pcodec], or"
                + " rewrite it with another codec");
    }
}
