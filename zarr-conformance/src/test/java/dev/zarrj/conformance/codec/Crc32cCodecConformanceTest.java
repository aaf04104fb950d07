package dev.zarrj.conformance.codec;

import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.BytesToBytesCodecContract;

/** zarr-core's {@code crc32c} against the bytes→bytes contract; it claims to detect corruption. */
class Crc32cCodecConformanceTest extends BytesToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return Providers.codec("crc32c");
    }

    @Override
    protected boolean detectsCorruption(BytesToBytesCodec codec) {
        return true;
    }
}
