package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.BytesToBytesCodecContract;

/** {@code numcodecs.shuffle} against the kit's bytes→bytes contract, with the provider's example configurations. */
class ShuffleCodecConformanceTest extends BytesToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return new ShuffleCodecProvider();
    }

    @Override
    protected boolean detectsCorruption(BytesToBytesCodec codec) {
        return false;
    }
}
