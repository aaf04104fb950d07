package dev.zarrj.api.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Objects;

/** A {@link CodecConfiguration} given by name and JSON, for codecs without a typed configuration. */
final class NamedCodecConfiguration implements CodecConfiguration {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String name;
    private final ObjectNode configuration;

    NamedCodecConfiguration(String name, ObjectNode configuration) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a codec name must not be empty");
        }
        this.name = name;
        this.configuration = configuration;
    }

    static ObjectNode toObject(Map<String, ?> configuration) {
        if (configuration == null) {
            return JsonNodeFactory.instance.objectNode();
        }
        return MAPPER.valueToTree(configuration);
    }

    static ObjectNode toObject(JsonNode configuration) {
        if (configuration == null || configuration.isNull() || configuration.isMissingNode()) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (!configuration.isObject()) {
            throw new IllegalArgumentException("the configuration of a codec is a JSON object, found " + configuration);
        }
        return configuration.deepCopy();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ObjectNode configurationJson() {
        return configuration.deepCopy();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NamedCodecConfiguration c && name.equals(c.name) && configuration.equals(c.configuration);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + configuration.hashCode();
    }

    @Override
    public String toString() {
        return toJson().toString();
    }
}
