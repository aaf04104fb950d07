package dev.zarrj.core.internal.keyencoding;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
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
public final class V2ChunkKeyEncoding implements ChunkKeyEncoding {
    private final char separator;

    /**
     * An encoding with this separator.
     *
     * @throws IllegalArgumentException when it is not {@code '/'} or {@code '.'}
     */
    public V2ChunkKeyEncoding(char separator) {
        this.separator = ChunkKeys.checkSeparator(separator);
    }

    /** The separator, {@code '.'} or {@code '/'}. */
    public char separator() {
        return separator;
    }

    @Override
    public String name() {
        return V2ChunkKeyEncodingProvider.NAME;
    }

    @Override
    public ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode().put(ChunkKeys.SEPARATOR, String.valueOf(separator));
    }

    @Override
    public String encode(long[] chunkCoords) {
        if (chunkCoords.length == 0) {
            return "0";
        }
        return ChunkKeys.append(new StringBuilder(4 * chunkCoords.length), chunkCoords, separator, false).toString();
    }

    @Override
    public Optional<long[]> decode(String key, int rank) {
        if (rank == 0) {
            return key.equals("0") ? Optional.of(new long[0]) : Optional.empty();
        }
        return ChunkKeys.parse(key, 0, separator, rank);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof V2ChunkKeyEncoding e && e.separator == separator;
    }

    @Override
    public int hashCode() {
        return 31 + separator;
    }

    @Override
    public String toString() {
        return "v2(" + separator + ")";
    }
}
