package com.example.zarr.bitround;

import com.example.zarr.bitround.internal.BitroundCodecProvider;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.ArrayToArrayCodecContract;

/**
 * The kit's array→array codec contract against this plugin: every rule, every core data type the
 * codec accepts, its example configurations (keepbits 1, 3, 10, 52). The codec declares itself
 * lossy, so the kit holds it to its fixed points.
 */
class BitroundCodecConformanceTest extends ArrayToArrayCodecContract {
    @Override
    protected CodecProvider provider() {
        return new BitroundCodecProvider();
    }
}
