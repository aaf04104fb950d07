package dev.zarrj.conformance.codec;

import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.BytesToBytesCodecContract;

/**
 * zarr-codec-gzip against the bytes→bytes contract, with the provider's example levels. It runs
 * in this module because zarr-codec-gzip cannot depend on the kit (the kit depends on zarr-core,
 * whose tests depend on zarr-codec-gzip: a cycle Maven refuses). Every gzip member carries a CRC-32
 * of its data, so it claims to detect corruption.
 */
class GzipCodecConformanceTest extends BytesToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return Providers.codec("gzip");
    }

    @Override
    protected boolean detectsCorruption(BytesToBytesCodec codec) {
        return true;
    }
}
