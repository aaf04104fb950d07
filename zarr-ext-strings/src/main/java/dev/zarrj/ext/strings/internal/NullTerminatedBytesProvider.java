package dev.zarrj.ext.strings.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.ext.strings.NullTerminatedBytesType;
import java.util.List;

/** Creates {@code null_terminated_bytes} types from {@code {"length_bytes": N}}. */
@AutoService(DataTypeProvider.class)
public final class NullTerminatedBytesProvider implements DataTypeProvider {
    public NullTerminatedBytesProvider() {}

    @Override
    public String name() {
        return NullTerminatedBytesType.NAME;
    }

    @Override
    public List<ObjectNode> exampleConfigurations() {
        return List.of(JsonNodeFactory.instance.objectNode().put("length_bytes", 1),
                JsonNodeFactory.instance.objectNode().put("length_bytes", 10));
    }

    /** @throws InvalidMetadataException when {@code length_bytes} is missing or not positive */
    @Override
    public DataType create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("length_bytes");
        if (!config.has("length_bytes")) {
            throw new InvalidMetadataException(config.pointer("length_bytes"), "null_terminated_bytes needs"
                    + " 'length_bytes', a positive number of bytes");
        }
        return NullTerminatedBytesType.ofLengthBytes(config.intField("length_bytes", 1, Integer.MAX_VALUE));
    }
}
