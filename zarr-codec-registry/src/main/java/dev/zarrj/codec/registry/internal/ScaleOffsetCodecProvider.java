package dev.zarrj.codec.registry.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code scale_offset} codecs from their metadata configuration (checked against the data type on use). */
@AutoService(CodecProvider.class)
public final class ScaleOffsetCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public ScaleOffsetCodecProvider() {}

    @Override
    public String name() {
        return ScaleOffsetCodec.NAME;
    }

    /**
     * Configurations that hold for every value of the types that accept them: the no-op, an
     * integer identity, and a power-of-two scale for floats (exact but for subnormals).
     */
    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Json.objects("{}", "{\"offset\": 0, \"scale\": 1}", "{\"scale\": 0.5}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("offset", "scale");
        JsonNode offset = config.field("offset").orElse(null);
        JsonNode scale = config.field("scale").orElse(null);
        return new ScaleOffsetCodec(offset == null ? null : offset.deepCopy(), scale == null ? null : scale.deepCopy(),
                config.pointer());
    }
}
