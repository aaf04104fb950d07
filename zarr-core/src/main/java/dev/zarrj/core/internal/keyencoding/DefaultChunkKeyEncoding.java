package dev.zarrj.core.internal.keyencoding;

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
public final class DefaultChunkKeyEncoding extends SeparatorChunkKeyEncoding {
    /**
     * An encoding with this separator.
     *
     * @throws IllegalArgumentException when it is not {@code '/'} or {@code '.'}
     */
    public DefaultChunkKeyEncoding(char separator) {
        super(DefaultChunkKeyEncodingProvider.NAME, separator);
    }

    @Override
    public String encode(long[] chunkCoords) {
        return append(new StringBuilder(1 + 4 * chunkCoords.length).append('c'), chunkCoords, true).toString();
    }

    @Override
    public Optional<long[]> decode(String key, int rank) {
        if (key.isEmpty() || key.charAt(0) != 'c') {
            return Optional.empty();
        }
        if (rank == 0) {
            return key.length() == 1 ? Optional.of(new long[0]) : Optional.empty();
        }
        if (key.length() < 2 || key.charAt(1) != separator()) {
            return Optional.empty();
        }
        return parse(key, 2, rank);
    }
}
