package dev.zarrj.core.internal.keyencoding;

import java.util.Optional;

/**
 * The {@code v2} chunk key encoding: the decimal indices joined by the separator, as Zarr v2
 * named chunks, so that v2 arrays can be converted without renaming them.
 *
 * <p>Spec: {@code chunk-key-encodings-v2.rst}
 * (<a href="https://zarr-specs.readthedocs.io/en/latest/v3/chunk-key-encodings/v2/">v2</a>).
 * Name: {@code v2}; no aliases. {@code separator} is {@code "."} (the default) or {@code "/"}, and
 * is always written out.
 *
 * <pre>{@code
 * "chunk_key_encoding": {"name": "v2", "configuration": {"separator": "."}}
 * }</pre>
 *
 * <p>Grid index (1, 23, 45) is {@code 1.23.45} ({@code 1/23/45} with {@code "/"}); the one chunk
 * of a 0-d array is {@code 0}. {@link #decode} accepts only the canonical form. Immutable and
 * thread-safe.
 */
public final class V2ChunkKeyEncoding extends SeparatorChunkKeyEncoding {
    /**
     * An encoding with this separator.
     *
     * @throws IllegalArgumentException when it is not {@code '/'} or {@code '.'}
     */
    public V2ChunkKeyEncoding(char separator) {
        super(V2ChunkKeyEncodingProvider.NAME, separator);
    }

    @Override
    public String encode(long[] chunkCoords) {
        if (chunkCoords.length == 0) {
            return "0";
        }
        return append(new StringBuilder(4 * chunkCoords.length), chunkCoords, false).toString();
    }

    @Override
    public Optional<long[]> decode(String key, int rank) {
        if (rank == 0) {
            return key.equals("0") ? Optional.of(new long[0]) : Optional.empty();
        }
        return parse(key, 0, rank);
    }
}
