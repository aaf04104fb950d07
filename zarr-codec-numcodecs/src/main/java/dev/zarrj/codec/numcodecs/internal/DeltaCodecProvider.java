package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.delta} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class DeltaCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public DeltaCodecProvider() {}

    @Override
    public String name() {
        return "numcodecs.delta";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{\"dtype\": \"int32\"}", "{\"dtype\": \"<u2\"}", "{\"dtype\": \"uint8\"}", "{\"dtype\": \"<i8\", \"astype\": \"<i2\"}", "{}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("dtype", "astype");
        return new DeltaCodec(Configs.dtype(config, "dtype"), Configs.dtype(config, "astype"), config.pointer());
    }
}
