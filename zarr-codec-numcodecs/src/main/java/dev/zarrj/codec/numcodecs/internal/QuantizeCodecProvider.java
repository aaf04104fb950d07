package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.quantize} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class QuantizeCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public QuantizeCodecProvider() {}

    @Override
    public String name() {
        return "numcodecs.quantize";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{\"digits\": 3, \"dtype\": \"<f8\"}", "{\"digits\": 2, \"dtype\": \"<f4\"}", "{\"digits\": 1, \"dtype\": \"float16\"}", "{\"digits\": 5}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("digits", "dtype", "astype");
        return new QuantizeCodec(config.intField("digits", -300, 300), Configs.dtype(config, "dtype"),
                Configs.dtype(config, "astype"), config.pointer());
    }
}
