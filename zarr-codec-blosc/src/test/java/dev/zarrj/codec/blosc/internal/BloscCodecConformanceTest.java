package dev.zarrj.codec.blosc.internal;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.BytesToBytesCodecContract;

/**
 * blosc against the kit's bytes→bytes contract, with the provider's example configurations (the
 * ones without {@code typesize} are checked as resolved for each data type). blosc has no
 * checksum, so it does not claim to detect corruption.
 */
class BloscCodecConformanceTest extends BytesToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return new BloscCodecProvider();
    }
}
