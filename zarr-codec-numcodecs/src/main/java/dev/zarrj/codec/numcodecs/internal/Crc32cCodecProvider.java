package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.crc32c} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class Crc32cCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public Crc32cCodecProvider() {}

    @Override
    public String name() {
        return "numcodecs.crc32c";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{}", "{\"location\": \"start\"}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        return Checksums.create(config, ChecksumCodec.Algorithm.CRC32C);
    }
}
