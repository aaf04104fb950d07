package dev.zarrj.codec.registry.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/**
 * Creates {@code bitround} codecs from their metadata configuration. The deprecated alias
 * {@code numcodecs.bitround} is left to zarr-codec-numcodecs, whose codec has numcodecs' semantics.
 */
@AutoService(CodecProvider.class)
public final class BitRoundCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public BitRoundCodecProvider() {}

    @Override
    public String name() {
        return BitRoundCodec.NAME;
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Json.objects("{\"keepbits\": 1}", "{\"keepbits\": 3}", "{\"keepbits\": 10}", "{\"keepbits\": 52}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when keepbits is missing or below 1, or a field is unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("keepbits");
        return new BitRoundCodec(config.intField("keepbits", 1, Integer.MAX_VALUE), config.pointer());
    }
}
