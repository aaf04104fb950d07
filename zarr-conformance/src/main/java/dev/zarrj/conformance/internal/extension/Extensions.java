package dev.zarrj.conformance.internal.extension;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.Extension;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ExtensionProvider;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.conformance.internal.rules.Rule;
import dev.zarrj.core.Zarr;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** What the metadata contracts share: configurations to try, JSON parsing, and JSON round trips. */
public final class Extensions {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The field name no provider knows, used to check that unknown fields are rejected. */
    public static final String UNKNOWN_FIELD = "zarrj_conformance_unknown_field";

    private Extensions() {}

    /**
     * A provider context for extensions that nest no codecs: building a codec chain fails; a data
     * type that wraps another ({@code optional}) gets it from the installed registry.
     */
    public static final ProviderContext NO_CODECS = new ProviderContext() {
        @Override
        public CodecChain codecChain(JsonNode codecs, String pointer) {
            throw new UnsupportedOperationException("the conformance kit gives data types, grids, key encodings"
                    + " and storage transformers no codec chains (" + pointer + ")");
        }

        @Override
        public DataType dataType(JsonNode dataType, String pointer) {
            return Zarr.defaults().providerContext().dataType(dataType, pointer);
        }
    };

    /**
     * The configurations a contract tries by default: each of the provider's
     * {@link ExtensionProvider#exampleConfigurations()}, or the empty one when it lists none.
     */
    public static List<ExtensionConfig> defaultConfigurations(ExtensionProvider<?> provider, String pointer) {
        List<ExtensionConfig> out = new ArrayList<>();
        for (ObjectNode c : provider.exampleConfigurations()) {
            out.add(ExtensionConfig.of(provider.name(), c, pointer + "/configuration"));
        }
        if (out.isEmpty()) {
            out.add(ExtensionConfig.of(provider.name(), null, pointer + "/configuration"));
        }
        return out;
    }

    /** Parses JSON text (for test values written as the spec writes them). */
    public static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The name and configuration of an extension's metadata form: a bare string (a core data type)
     * or {@code {"name": ..., "configuration": {...}}}.
     */
    public static ExtensionConfig parse(JsonNode metadata, String pointer) {
        if (metadata == null) {
            throw Rule.fail("toJson() returned null");
        }
        if (metadata.isTextual()) {
            return ExtensionConfig.of(metadata.textValue(), null, pointer + "/configuration");
        }
        if (!metadata.isObject() || !metadata.path("name").isTextual()) {
            throw Rule.fail("toJson() gave " + metadata + ", which is neither a name nor an object with a \"name\"");
        }
        for (java.util.Iterator<String> it = metadata.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!f.equals("name") && !f.equals("configuration") && !f.equals("must_understand")) {
                throw Rule.fail("toJson() gave " + metadata + " with the member '" + f + "'; an extension object has"
                        + " only name, configuration and must_understand");
            }
        }
        return ExtensionConfig.of(metadata.get("name").textValue(), metadata.get("configuration"),
                pointer + "/configuration");
    }

    /**
     * Writes an instance to metadata, creates it again from that with the provider, and checks
     * that the new instance equals it and writes the same metadata.
     */
    public static <T extends Extension> void roundTrip(ExtensionProvider<T> provider, T instance, String pointer) {
        JsonNode first = instance.toJson();
        ExtensionConfig config = parse(first, pointer);
        if (!config.name().equals(instance.name())) {
            throw Rule.fail("toJson() names '" + config.name() + "' but name() is '" + instance.name() + "'");
        }
        T again;
        try {
            again = provider.create(config, NO_CODECS);
        } catch (InvalidMetadataException e) {
            throw Rule.fail("the provider rejects the metadata " + first + " that " + instance + " wrote: " + e.getMessage());
        }
        if (again == null) {
            throw Rule.fail("the provider returned null for " + first);
        }
        JsonNode second = again.toJson();
        if (!first.equals(second)) {
            throw Rule.fail(first + " read back and written again is " + second);
        }
        if (!instance.equals(again)) {
            throw Rule.fail(first + " read back is " + again + ", which does not equal " + instance
                    + " (equals must compare what the metadata says)");
        }
        if (instance.hashCode() != again.hashCode()) {
            throw Rule.fail(instance + " and the equal " + again + " have different hash codes");
        }
    }

    /**
     * Checks that the provider rejects each configuration with an extra unknown field, with an
     * {@link InvalidMetadataException} whose pointer names that field.
     */
    public static void rejectsUnknownFields(ExtensionProvider<?> provider, List<ExtensionConfig> configurations) {
        for (ExtensionConfig c : configurations) {
            rejectsUnknownField(provider, c);
        }
    }

    private static void rejectsUnknownField(ExtensionProvider<?> provider, ExtensionConfig valid) {
        ObjectNode c = valid.json();
        c.put(UNKNOWN_FIELD, 1);
        ExtensionConfig bad = ExtensionConfig.of(valid.name(), c, valid.pointer());
        Object created;
        try {
            created = provider.create(bad, NO_CODECS);
        } catch (InvalidMetadataException e) {
            if (!e.pointer().contains(UNKNOWN_FIELD) && !e.getMessage().contains(UNKNOWN_FIELD)) {
                throw Rule.fail("the error for the unknown field does not name it: " + e.getMessage());
            }
            return;
        } catch (RuntimeException e) {
            throw Rule.fail("the configuration " + c + " threw " + e + "; expected an InvalidMetadataException"
                    + " naming '" + UNKNOWN_FIELD + "'");
        }
        throw Rule.fail("the configuration " + c + " with an unknown field was accepted (as " + created
                + "); a provider must reject what it does not understand");
    }
}
