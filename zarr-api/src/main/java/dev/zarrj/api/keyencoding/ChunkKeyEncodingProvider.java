package dev.zarrj.api.keyencoding;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ExtensionProvider;
import org.apiguardian.api.API;

/**
 * Creates {@link ChunkKeyEncoding}s. A {@link java.util.ServiceLoader} service; key encodings are
 * never skipped with {@code "must_understand": false}.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface ChunkKeyEncodingProvider extends ExtensionProvider<ChunkKeyEncoding> {}
