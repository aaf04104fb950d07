package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.lz4} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class Lz4CodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public Lz4CodecProvider() {}

    @Override
    public String name() {
        return "numcodecs.lz4";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{\"acceleration\": 1}", "{\"acceleration\": 8}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("acceleration");
        return new Lz4Codec(config.intField("acceleration", Integer.MIN_VALUE, Integer.MAX_VALUE, 1));
    }
}
