package dev.zarrj.ext.optional.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.ext.optional.OptionalConfiguration;
import dev.zarrj.ext.optional.OptionalType;
import java.util.List;
import java.util.Set;

/** Creates {@code optional} codecs from {@code {"mask_codecs": [...], "data_codecs": [...]}}. */
@AutoService(CodecProvider.class)
public final class OptionalCodecProvider implements CodecProvider {
    public OptionalCodecProvider() {}

    @Override
    public String name() {
        return OptionalType.NAME;
    }

    @Override
    public Set<String> aliases() {
        return Set.of(OptionalType.LEGACY_NAME);
    }

    /**
     * Core codecs only: masks and values with {@code bytes}; both chains ending in
     * {@code crc32c}, values big-endian; and one nested level (for optional values).
     */
    @Override
    public List<ObjectNode> exampleConfigurations() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode crc = f.objectNode().put("name", "crc32c");
        ObjectNode big = f.objectNode().put("name", "bytes");
        big.putObject("configuration").put("endian", "big");
        OptionalConfiguration plain = OptionalConfiguration.of(bytes(), OptionalConfiguration.littleEndianBytes());
        return List.of(plain.configurationJson(),
                OptionalConfiguration.of(bytes().add(crc), f.arrayNode().add(big).add(crc.deepCopy()))
                        .configurationJson(),
                OptionalConfiguration.of(bytes(), f.arrayNode().add(plain.toJson())).configurationJson());
    }

    private static com.fasterxml.jackson.databind.node.ArrayNode bytes() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return f.arrayNode().add(f.objectNode().put("name", "bytes"));
    }

    /**
     * Builds both chains through {@code context}, and the mask's {@code bool} type.
     *
     * @throws InvalidMetadataException naming the field: an unknown field, or {@code mask_codecs}
     *     or {@code data_codecs} missing or not a valid chain
     */
    @Override
    public Codec create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("mask_codecs", "data_codecs");
        CodecChain mask = context.codecChain(config.nodeField("mask_codecs"), config.pointer("mask_codecs"));
        CodecChain data = context.codecChain(config.nodeField("data_codecs"), config.pointer("data_codecs"));
        DataType bool = context.dataType(JsonNodeFactory.instance.textNode("bool"), config.pointer("mask_codecs"));
        String name = OptionalType.NAMES.contains(config.name()) ? config.name() : OptionalType.NAME;
        return new OptionalCodec(name, mask, data, bool, config.pointer());
    }
}
