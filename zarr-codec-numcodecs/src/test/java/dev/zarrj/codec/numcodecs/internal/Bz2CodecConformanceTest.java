package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.BytesToBytesCodecContract;

/** {@code numcodecs.bz2} against the kit's bytes→bytes contract, with the provider's example configurations. */
class Bz2CodecConformanceTest extends BytesToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return new Bz2CodecProvider();
    }

    @Override
    protected boolean detectsCorruption(BytesToBytesCodec codec) {
        return true /* block and stream CRCs */;
    }
}
