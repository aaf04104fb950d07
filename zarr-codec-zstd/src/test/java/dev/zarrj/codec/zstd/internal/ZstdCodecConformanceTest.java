package dev.zarrj.codec.zstd.internal;

import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.BytesToBytesCodecContract;

/**
 * zstd against the kit's bytes→bytes contract, with the provider's example configurations. With
 * {@code "checksum": true} every frame carries a checksum of its content, so those configurations
 * claim to detect corruption; without it a flipped literal decodes to another byte.
 */
class ZstdCodecConformanceTest extends BytesToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return new ZstdCodecProvider();
    }

    @Override
    protected boolean detectsCorruption(BytesToBytesCodec codec) {
        return codec.configuration().path("checksum").asBoolean(false);
    }
}
