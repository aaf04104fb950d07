package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.BytesToBytesCodecContract;

/** {@code numcodecs.lz4} against the kit's bytes→bytes contract, with the provider's example configurations. */
class Lz4CodecConformanceTest extends BytesToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return new Lz4CodecProvider();
    }

    @Override
    protected boolean detectsCorruption(BytesToBytesCodec codec) {
        return false;
    }
}
