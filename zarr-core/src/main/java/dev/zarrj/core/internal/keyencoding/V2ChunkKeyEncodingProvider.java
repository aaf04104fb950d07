package dev.zarrj.core.internal.keyencoding;

import com.google.auto.service.AutoService;
import dev.zarrj.api.keyencoding.ChunkKeyEncodingProvider;

/**
 * Creates {@code v2} chunk key encodings from their metadata configuration; the separator
 * defaults to {@code '.'}.
 */
@AutoService(ChunkKeyEncodingProvider.class)
public final class V2ChunkKeyEncodingProvider extends SeparatorChunkKeyEncodingProvider {
    static final String NAME = "v2";

    /** For {@link java.util.ServiceLoader}. */
    public V2ChunkKeyEncodingProvider() {
        super(NAME, '.');
    }

    @Override
    V2ChunkKeyEncoding withSeparator(char separator) {
        return new V2ChunkKeyEncoding(separator);
    }
}
