package dev.zarrj.codec.numcodecs.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.codec.CodecProvider;

/** {@code numcodecs.pcodec}: refused with the reason (not implemented on pco's Java binding yet). */
@AutoService(CodecProvider.class)
public final class PcodecCodecProvider extends UnavailableCodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public PcodecCodecProvider() {
        super("numcodecs.pcodec", "it is numcodecs' PCodec, the pcodec (pco) standalone format written by the"
                + " native pco library; zarrj does not bind it yet (pco's JNI binding, io.github.pcodec:pco-jni on"
                + " Maven Central, would provide it); read the array with zarr-python and numcodecs[pcodec], or"
                + " rewrite it with another codec");
    }
}
