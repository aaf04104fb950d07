package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.zfpy} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class ZfpyCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public ZfpyCodecProvider() {}

    @Override
    public String name() {
        return ZfpyCodec.NAME;
    }

    /** Reversible (lossless) configurations: lossy ones are checked against numcodecs' bytes instead. */
    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{\"mode\": 5}", "{\"mode\": 4, \"tolerance\": -1}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("mode", "tolerance", "rate", "precision", "compression_kwargs");
        int mode = config.intField("mode", Integer.MIN_VALUE, Integer.MAX_VALUE, ZfpyCodec.MODE_FIXED_ACCURACY);
        double tolerance = config.has("tolerance") ? Configs.number(config, "tolerance").doubleValue() : -1;
        double rate = config.has("rate") ? Configs.number(config, "rate").doubleValue() : -1;
        int precision = config.intField("precision", Integer.MIN_VALUE, Integer.MAX_VALUE, -1);
        JsonNode kwargs = config.field("compression_kwargs").orElse(null);
        return new ZfpyCodec(mode, tolerance, rate, precision, kwargs, config.pointer());
    }
}
