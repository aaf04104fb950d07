package dev.zarrj.codec.numcodecs.internal;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.ArrayToArrayCodecContract;

/** {@code numcodecs.bitround} against the kit's array→array contract, with the provider's example configurations. */
class BitRoundCodecConformanceTest extends ArrayToArrayCodecContract {
    @Override
    protected CodecProvider provider() {
        return new BitRoundCodecProvider();
    }
}
