package dev.zarrj.codec.numcodecs.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.codec.CodecProvider;

/** {@code numcodecs.zfpy}: refused with the reason (no zfp library for Java). */
@AutoService(CodecProvider.class)
public final class ZfpyCodecProvider extends UnavailableCodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public ZfpyCodecProvider() {
        super("numcodecs.zfpy", "it is numcodecs' ZFPY, the zfp compressed-array format written by the native zfp"
                + " library (Debian: libzfp), and no Java binding of zfp is available from Maven Central; read"
                + " the array with zarr-python and numcodecs[zfpy], or rewrite it with another codec");
    }
}
