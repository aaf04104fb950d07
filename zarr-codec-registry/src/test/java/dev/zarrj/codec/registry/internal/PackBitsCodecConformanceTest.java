package dev.zarrj.codec.registry.internal;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.ArrayToBytesCodecContract;

/** {@code packbits} against the kit's array→bytes contract, with the provider's example configurations. */
class PackBitsCodecConformanceTest extends ArrayToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return new PackBitsCodecProvider();
    }
}
