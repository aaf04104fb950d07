package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.shuffle} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class ShuffleCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public ShuffleCodecProvider() {}

    @Override
    public String name() {
        return "numcodecs.shuffle";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{\"elementsize\": 4}", "{\"elementsize\": 1}", "{\"elementsize\": 8}", "{\"elementsize\": 2}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("elementsize");
        return new ShuffleCodec(config.has("elementsize")
                ? java.util.OptionalInt.of(config.intField("elementsize", 0, Integer.MAX_VALUE))
                : java.util.OptionalInt.empty(), config.pointer());
    }
}
