package dev.zarrj.codec.registry.internal;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.ArrayToArrayCodecContract;

/** {@code scale_offset} against the kit's array→array contract: lossy for floats, so held to its fixed points. */
class ScaleOffsetCodecConformanceTest extends ArrayToArrayCodecContract {
    @Override
    protected CodecProvider provider() {
        return new ScaleOffsetCodecProvider();
    }
}
