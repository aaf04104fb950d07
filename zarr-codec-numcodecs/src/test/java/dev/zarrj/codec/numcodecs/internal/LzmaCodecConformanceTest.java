package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.conformance.BytesToBytesCodecContract;
import java.util.List;

/**
 * {@code numcodecs.lzma} against the kit's bytes→bytes contract: the four formats' shapes at the
 * fastest preset (xz-java at higher presets costs minutes over the kit's cases, and presets only
 * change the encoder's effort).
 */
class LzmaCodecConformanceTest extends BytesToBytesCodecContract {
    @Override
    protected CodecProvider provider() {
        return new LzmaCodecProvider();
    }

    @Override
    protected List<ObjectNode> configurations() {
        return Configs.examples("{\"preset\": 0}", "{\"format\": 2, \"preset\": 0}",
                "{\"format\": 3, \"filters\": [{\"id\": 3, \"dist\": 2}, {\"id\": 33, \"preset\": 0}]}");
    }

    @Override
    protected boolean detectsCorruption(BytesToBytesCodec codec) {
        return false; // .lzma and raw streams have no checksum
    }
}
