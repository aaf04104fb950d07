package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.BytesToBytesCodecContract;

/** {@code numcodecs.fletcher32} against the kit's bytes→bytes contract, with the provider's example configurations. */
class Fletcher32CodecConformanceTest extends BytesToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return new Fletcher32CodecProvider();
    }

    @Override
    protected boolean detectsCorruption(BytesToBytesCodec codec) {
        return true;
    }
}
