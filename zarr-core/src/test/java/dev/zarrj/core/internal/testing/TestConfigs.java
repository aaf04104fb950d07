package dev.zarrj.core.internal.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;

/** Configurations from JSON text, and a provider context that none of the core extensions use. */
public final class TestConfigs {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A context whose every call fails the test. */
    public static final ProviderContext NO_CONTEXT = (codecs, pointer) -> {
        throw new AssertionError("the provider asked its context for a codec chain");
    };

    private TestConfigs() {}

    /** Parses JSON text. */
    public static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    /** A configuration from JSON text ({@code null} for none) at a JSON pointer. */
    public static ExtensionConfig config(String name, String json, String pointer) {
        return ExtensionConfig.of(name, json == null ? null : json(json), pointer);
    }
}
