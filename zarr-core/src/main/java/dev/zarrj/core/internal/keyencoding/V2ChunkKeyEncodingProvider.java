package dev.zarrj.core.internal.keyencoding;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;
import java.util.List;

/** Creates {@code v2} chunk key encodings from their metadata configuration. */
@AutoService(ChunkKeyEncodingProvider.class)
public final class V2ChunkKeyEncodingProvider implements ChunkKeyEncodingProvider {
    static final String NAME = "v2";

    /** For {@link java.util.ServiceLoader}. */
    public V2ChunkKeyEncodingProvider() {}

    @Override
    public String name() {
        return NAME;
    }

    /** Both separators, the default first. */
    @Override
    public List<ObjectNode> exampleConfigurations() {
        return List.of(JsonNodeFactory.instance.objectNode().put(ChunkKeys.SEPARATOR, "."),
                JsonNodeFactory.instance.objectNode().put(ChunkKeys.SEPARATOR, "/"));
    }

    @Override
    public ChunkKeyEncoding create(ExtensionConfig config, ProviderContext context) {
        return new V2ChunkKeyEncoding(ChunkKeys.separator(config, '.'));
    }
}
