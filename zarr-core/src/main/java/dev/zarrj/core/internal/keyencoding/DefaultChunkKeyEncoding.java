package dev.zarrj.core.internal.keyencoding;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import java.util.Optional;

/**
 * The {@code default} chunk key encoding: {@code c} followed by the separator and the decimal
 * index for each dimension, so that chunk keys never collide with metadata keys.
 *
 * <p>Spec: {@code chunk-key-encodings-default.rst}
 * (<a href="https://zarr-specs.readthedocs.io/en/latest/v3/chunk-key-encodings/default/">default</a>).
 * Name: {@code default}; no aliases. {@code separator} is {@code "/"} (the default) or
 * {@code "."}, and is always written out.
 *
 * <pre>{@code
 * "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}}
 * }</pre>
 *
 * <p>Grid index (1, 23, 45) is {@code c/1/23/45} ({@code c.1.23.45} with {@code "."}); the one
 * chunk of a 0-d array is {@code c}. {@link #decode} accepts only the canonical form. Immutable and
 * thread-safe.
 */
public final class DefaultChunkKeyEncoding implements ChunkKeyEncoding {
    private final char separator;

    /**
     * An encoding with this separator.
     *
     * @throws IllegalArgumentException when it is not {@code '/'} or {@code '.'}
     */
    public DefaultChunkKeyEncoding(char separator) {
        this.separator = ChunkKeys.checkSeparator(separator);
    }

    /** The separator, {@code '/'} or {@code '.'}. */
    public char separator() {
        return separator;
    }

    @Override
    public String name() {
        return DefaultChunkKeyEncodingProvider.NAME;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode().put(ChunkKeys.SEPARATOR, String.valueOf(separator));
    }

    @Override
    public String encode(long[] chunkCoords) {
        return ChunkKeys.append(new StringBuilder(1 + 4 * chunkCoords.length).append('c'), chunkCoords, separator,
                true).toString();
    }

    @Override
    public Optional<long[]> decode(String key, int rank) {
        if (key.isEmpty() || key.charAt(0) != 'c') {
            return Optional.empty();
        }
        if (rank == 0) {
            return key.length() == 1 ? Optional.of(new long[0]) : Optional.empty();
        }
        if (key.length() < 2 || key.charAt(1) != separator) {
            return Optional.empty();
        }
        return ChunkKeys.parse(key, 2, separator, rank);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DefaultChunkKeyEncoding e && e.separator == separator;
    }

    @Override
    public int hashCode() {
        return separator;
    }

    @Override
    public String toString() {
        return "default(" + separator + ")";
    }
}
