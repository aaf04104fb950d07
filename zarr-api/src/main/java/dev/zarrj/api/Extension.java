package dev.zarrj.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apiguardian.api.API;

/**
 * An instance of an extension (data type, chunk grid, chunk key encoding, codec, storage
 * transformer), created by its provider from metadata and able to write itself back.
 *
 * <p>Instances are immutable and thread-safe, and hold no per-array state: facts about an array
 * (data type, chunk shape) arrive as arguments.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface Extension {
    /** The registered name this instance writes into metadata. Never null. */
    String name();

    /**
     * This instance's configuration as written to metadata: every field, including defaults the
     * metadata left out where the spec asks for them to be recorded. An empty object when the
     * extension has none. The returned node is a fresh copy owned by the caller.
     */
    ObjectNode configuration();

    /**
     * The metadata form: {@code {"name": ..., "configuration": {...}}}, with the configuration left
     * out when it is empty.
     */
    default JsonNode toJson() {
        return entry(name(), configuration());
    }

    /**
     * The metadata form of an extension: {@code {"name": ..., "configuration": {...}}}, with the
     * configuration left out when it is null or empty. A fresh node owned by the caller.
     */
    static ObjectNode entry(String name, ObjectNode configuration) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("name", name);
        if (configuration != null && !configuration.isEmpty()) {
            node.set("configuration", configuration);
        }
        return node;
    }
}
