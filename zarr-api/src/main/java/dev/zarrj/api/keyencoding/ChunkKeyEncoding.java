package dev.zarrj.api.keyencoding;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.Extension;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Turns chunk grid coordinates into store keys relative to the array's prefix (the
 * {@code chunk_key_encoding} of array metadata), and back. Immutable and thread-safe.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface ChunkKeyEncoding extends Extension {
    /** The key of the chunk at these grid coordinates (zero-length for a 0-d array). */
    String encode(long[] chunkCoords);

    /**
     * The grid coordinates a key stands for, or empty when the key is not a chunk key of this
     * encoding for an array of this rank.
     */
    Optional<long[]> decode(String key, int rank);
}
