package dev.zarrj.codec.registry.internal;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.ArrayToArrayCodecContract;

/** {@code reshape} against the kit's array→array contract, with the provider's example shapes. */
class ReshapeCodecConformanceTest extends ArrayToArrayCodecContract {
    @Override
    protected CodecProvider provider() {
        return new ReshapeCodecProvider();
    }
}
