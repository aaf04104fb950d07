package dev.zarrj.api.keyencoding;

import dev.zarrj.api.Extension;
import java.util.Optional;

/**
 * Turns chunk grid coordinates into store keys relative to the array's prefix (the
 * {@code chunk_key_encoding} of array metadata), and back. Immutable and thread-safe.
 */
public interface ChunkKeyEncoding extends Extension {
    /** The key of the chunk at these grid coordinates (zero-length for a 0-d array). */
    String encode(long[] chunkCoords);

    /**
     * The grid coordinates a key stands for, or empty when the key is not a chunk key of this
     * encoding for an array of this rank.
     */
    Optional<long[]> decode(String key, int rank);
}
