package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.fixedscaleoffset} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class FixedScaleOffsetCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public FixedScaleOffsetCodecProvider() {}

    @Override
    public String name() {
        return "numcodecs.fixedscaleoffset";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{\"offset\": 1000, \"scale\": 10, \"dtype\": \"<f8\", \"astype\": \"<i4\"}", "{\"offset\": 0.5, \"scale\": 4.0, \"dtype\": \"<f4\"}", "{\"offset\": 3, \"scale\": 1, \"dtype\": \"<i2\"}", "{\"offset\": 0, \"scale\": 100, \"dtype\": \"<f8\", \"astype\": \"|u1\"}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("offset", "scale", "dtype", "astype");
        return new FixedScaleOffsetCodec(Configs.number(config, "offset"), Configs.number(config, "scale"),
                Configs.dtype(config, "dtype"), Configs.dtype(config, "astype"), config.pointer());
    }
}
