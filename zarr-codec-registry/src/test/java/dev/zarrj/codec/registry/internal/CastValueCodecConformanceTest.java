package dev.zarrj.codec.registry.internal;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.ArrayToArrayCodecContract;

/** {@code cast_value} against the kit's array→array contract: lossy, so held to its fixed points. */
class CastValueCodecConformanceTest extends ArrayToArrayCodecContract {
    @Override
    protected CodecProvider provider() {
        return new CastValueCodecProvider();
    }
}
