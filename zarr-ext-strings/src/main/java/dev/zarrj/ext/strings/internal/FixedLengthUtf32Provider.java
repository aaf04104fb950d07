package dev.zarrj.ext.strings.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.ext.strings.FixedLengthUtf32Type;
import java.util.List;

/** Creates {@code fixed_length_utf32} types from {@code {"length_bytes": N}}. */
@AutoService(DataTypeProvider.class)
public final class FixedLengthUtf32Provider implements DataTypeProvider {
    public FixedLengthUtf32Provider() {}

    @Override
    public String name() {
        return FixedLengthUtf32Type.NAME;
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return List.of(length(4), length(16), length(48));
    }

    private static ObjectNode length(int bytes) {
        return JsonNodeFactory.instance.objectNode().put("length_bytes", bytes);
    }

    /** @throws InvalidMetadataException when {@code length_bytes} is missing or not a positive multiple of 4 */
    @Override
    public DataType create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("length_bytes");
        if (!config.has("length_bytes")) {
            throw new InvalidMetadataException(config.pointer("length_bytes"), "fixed_length_utf32 needs"
                    + " 'length_bytes', a positive multiple of 4");
        }
        int bytes = config.intField("length_bytes", 4, Integer.MAX_VALUE - 3);
        if (bytes % 4 != 0) {
            throw new InvalidMetadataException(config.pointer("length_bytes"), "fixed_length_utf32: 'length_bytes' must"
                    + " be a multiple of 4 (4 bytes per code point), found " + bytes);
        }
        return FixedLengthUtf32Type.ofLengthBytes(bytes);
    }
}
