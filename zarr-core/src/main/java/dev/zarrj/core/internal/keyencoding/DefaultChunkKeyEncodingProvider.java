package dev.zarrj.core.internal.keyencoding;

import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;

/** Creates {@code default} chunk key encodings from their metadata configuration. */
@AutoService(ChunkKeyEncodingProvider.class)
public final class DefaultChunkKeyEncodingProvider implements ChunkKeyEncodingProvider {
    static final String NAME = "default";

    /** For {@link java.util.ServiceLoader}. */
    public DefaultChunkKeyEncodingProvider() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ChunkKeyEncoding create(ExtensionConfig config, ProviderContext context) {
        return new DefaultChunkKeyEncoding(ChunkKeys.separator(config, '/'));
    }
}
