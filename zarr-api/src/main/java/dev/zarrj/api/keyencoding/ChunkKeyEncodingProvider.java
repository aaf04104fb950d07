package dev.zarrj.api.keyencoding;

import dev.zarrj.api.ExtensionProvider;

/**
 * Creates {@link ChunkKeyEncoding}s. A {@link java.util.ServiceLoader} service; key encodings are
 * never skipped with {@code "must_understand": false}.
 */
public interface ChunkKeyEncodingProvider extends ExtensionProvider<ChunkKeyEncoding> {}
