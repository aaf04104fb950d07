package dev.zarrj.conformance.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.ArrayToBytesCodecContract;
import java.util.List;

/**
 * zarr-core's {@code bytes} against the array→bytes contract: little and big endian, and no
 * {@code endian}, which only types without a byte order accept (the others are refused, and
 * checked again with the default that {@code resolveDefaults} records).
 */
class BytesCodecConformanceTest extends ArrayToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return Providers.codec("bytes");
    }

    @Override
    protected List<ObjectNode> configurations() {
        return Configs.of("{\"endian\": \"little\"}", "{\"endian\": \"big\"}", "{}");
    }
}
