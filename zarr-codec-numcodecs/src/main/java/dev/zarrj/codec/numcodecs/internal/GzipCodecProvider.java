package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.gzip} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class GzipCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public GzipCodecProvider() {}

    @Override
    public String name() {
        return "numcodecs.gzip";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{\"level\": 1}", "{\"level\": 9}", "{\"level\": 0}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("level");
        return new GzipCodec(config.intField("level", 0, 9, 1));
    }
}
