package dev.zarrj.codec.gzip.internal;

import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.BytesToBytesCodecContract;

/**
 * This codec against the conformance kit's bytes→bytes contract, with the provider's example
 * levels (the kit's reference rule BB10 also checks it against the JDK's gzip streams). Every gzip
 * member carries a CRC-32 of its data, so it claims to detect corruption.
 */
class GzipCodecConformanceTest extends BytesToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return new GzipCodecProvider();
    }

    @Override
    protected boolean detectsCorruption(BytesToBytesCodec codec) {
        return true;
    }
}
