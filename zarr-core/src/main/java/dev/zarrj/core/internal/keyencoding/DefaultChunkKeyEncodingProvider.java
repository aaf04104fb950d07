package dev.zarrj.core.internal.keyencoding;

import com.google.auto.service.AutoService;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;

/**
 * Creates {@code default} chunk key encodings from their metadata configuration; the separator
 * defaults to {@code '/'}.
 */
@AutoService(ChunkKeyEncodingProvider.class)
public final class DefaultChunkKeyEncodingProvider extends SeparatorChunkKeyEncodingProvider {
    static final String NAME = "default";

    /** For {@link java.util.ServiceLoader}. */
    public DefaultChunkKeyEncodingProvider() {
        super(NAME, '/');
    }

    @Override
    DefaultChunkKeyEncoding withSeparator(char separator) {
        return new DefaultChunkKeyEncoding(separator);
    }
}
