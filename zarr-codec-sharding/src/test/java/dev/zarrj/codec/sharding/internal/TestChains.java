package dev.zarrj.codec.sharding.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.core.Zarr;
import java.io.UncheckedIOException;

/**
 * Helpers for testing the codec directly: configuration JSON, and sharding codecs created with
 * zarr-core's own provider context (the same chain rules an array's codecs follow).
 */
final class TestChains {
    static final ObjectMapper JSON = new ObjectMapper();

    private TestChains() {}

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A sharding codec from its configuration JSON, as the first codec of an array. */
    static ShardingCodec sharding(String configuration) {
        return (ShardingCodec) new ShardingCodecProvider().create(
                ExtensionConfig.of("sharding_indexed", json(configuration), "/codecs/0/configuration"),
                Zarr.defaults().providerContext());
    }

    /** {@code {"name": ..., "configuration": ...}} as JSON text, for building configurations. */
    static String codec(String name, String configuration) {
        ObjectNode n = JSON.createObjectNode().put("name", name);
        if (configuration != null) {
            n.set("configuration", json(configuration));
        }
        return n.toString();
    }
}
