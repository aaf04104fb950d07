package dev.zarrj.codec.numcodecs.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.List;

/** Creates {@code numcodecs.lzma} codecs from their metadata configuration. */
@AutoService(CodecProvider.class)
public final class LzmaCodecProvider implements CodecProvider {
    /** For {@link java.util.ServiceLoader}; does nothing. */
    public LzmaCodecProvider() {}

    @Override
    public String name() {
        return "numcodecs.lzma";
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return Configs.examples("{\"preset\": 1}", "{\"format\": 2, \"preset\": 0}", "{\"format\": 1, \"check\": 0, \"filters\": [{\"id\": 3, \"dist\": 4}, {\"id\": 33, \"preset\": 0}]}", "{\"format\": 3, \"filters\": [{\"id\": 33, \"preset\": 1}]}");
    }

    /** @throws dev.zarrj.api.InvalidMetadataException when a field is invalid or unknown */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("format", "check", "preset", "filters");
        int format = config.intField("format", 0, 3, LzmaCodec.FORMAT_XZ);
        int check = config.intField("check", -1, 16, -1);
        Long preset = config.has("preset") ? config.longField("preset", 0, 0xFFFFFFFFL) : null;
        com.fasterxml.jackson.databind.node.ArrayNode filters = null;
        if (config.has("filters")) {
            if (!config.nodeField("filters").isArray()) {
                throw config.error("filters", "'filters' must be an array of filter objects or null, found "
                        + config.nodeField("filters"));
            }
            filters = (com.fasterxml.jackson.databind.node.ArrayNode) config.nodeField("filters");
        }
        return new LzmaCodec(format, check, preset, filters, config.pointer());
    }
}
