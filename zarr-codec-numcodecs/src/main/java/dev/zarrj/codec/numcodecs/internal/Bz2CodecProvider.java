package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.bz2} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class Bz2CodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public Bz2CodecProvider() {}

    @Override
    public String name() {
        return "numcodecs.bz2";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{\"level\": 1}", "{\"level\": 9}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("level");
        return new Bz2Codec(config.intField("level", 1, 9, 1));
    }
}
