package dev.zarrj.core.internal.keyencoding;

import com.google.auto.service.AutoService;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;

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

    @Override
    public ChunkKeyEncoding create(ExtensionConfig config, ProviderContext context) {
        return new V2ChunkKeyEncoding(ChunkKeys.separator(config, '.'));
    }
}
