package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.BytesToBytesCodecContract;

/** {@code numcodecs.zlib} against the kit's bytes→bytes contract, with the provider's example configurations. */
class ZlibCodecConformanceTest extends BytesToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return new ZlibCodecProvider();
    }

    @Override
    protected boolean detectsCorruption(BytesToBytesCodec codec) {
        return true /* the Adler-32 trailer */;
    }
}
