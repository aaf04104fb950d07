package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.bitround} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class BitRoundCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public BitRoundCodecProvider() {}

    @Override
    public String name() {
        return "numcodecs.bitround";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{\"keepbits\": 5}", "{\"keepbits\": 0}", "{\"keepbits\": 10}", "{\"keepbits\": 23}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("keepbits");
        return new BitRoundCodec(config.intField("keepbits", 0, 52), config.pointer());
    }
}
