package dev.zarrj.ext.optional.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.ext.optional.OptionalType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Creates {@code optional} types from {@code {"name": <inner>, "configuration": {...}}}, the inner
 * type coming from the registry through the provider context.
 */
@AutoService(DataTypeProvider.class)
public final class OptionalTypeProvider implements DataTypeProvider {
    public OptionalTypeProvider() {}

    @Override
    public String name() {
        return OptionalType.NAME;
    }

    @Override
    public Set<String> aliases() {
        return Set.of(OptionalType.LEGACY_NAME);
    }

    /** Optional core types of each kind, and two levels of nesting. */
    @Override
    public List<ObjectNode> exampleConfigurations() {
        List<ObjectNode> out = new ArrayList<>();
        for (String inner : List.of("bool", "uint8", "int16", "uint64", "float32", "float64", "complex64", "r24")) {
            out.add(config(inner, JsonNodeFactory.instance.objectNode()));
        }
        out.add(config(OptionalType.NAME, config("uint8", JsonNodeFactory.instance.objectNode())));
        out.add(config(OptionalType.LEGACY_NAME, config(OptionalType.NAME, config("float64",
                JsonNodeFactory.instance.objectNode()))));
        return out;
    }

    private static ObjectNode config(String name, ObjectNode configuration) {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.put("name", name);
        c.set("configuration", configuration);
        return c;
    }

    /**
     * @throws InvalidMetadataException when {@code name} or {@code configuration} is missing or of
     *     the wrong JSON type, another field is present, the inner type is unknown or invalid, or
     *     its elements vary in size
     */
    @Override
    public DataType create(ExtensionConfig config, ProviderContext context) {
        config.rejectUnknownFields("name", "configuration");
        String inner = config.stringField("name");
        JsonNode innerConfig = config.nodeField("configuration");
        if (!innerConfig.isObject()) {
            throw config.error("configuration", "'configuration' must be the inner data type's configuration object"
                    + " ({} for none), found " + innerConfig);
        }
        ObjectNode entry = JsonNodeFactory.instance.objectNode();
        entry.put("name", inner);
        if (!innerConfig.isEmpty()) {
            entry.set("configuration", innerConfig);
        }
        DataType type = context.dataType(entry, config.pointer());
        if (!OptionalType.supports(type)) {
            throw config.error("name", OptionalType.unsupported(type));
        }
        return OptionalType.of(OptionalType.NAMES.contains(config.name()) ? config.name() : OptionalType.NAME, type);
    }
}
