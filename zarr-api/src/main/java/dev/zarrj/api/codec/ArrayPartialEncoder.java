package dev.zarrj.api.codec;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.NdArray;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Updates part of an encoded chunk without decoding and encoding all of it (sharding re-encodes
 * only the inner chunks a write touches and keeps the others' bytes): the spec's
 * {@code partial_encode}. What {@link ArrayToBytesCodec#partialEncoder} gives a codec that can.
 * Thread-safe.
 *
 * @since 0.1
 */
@FunctionalInterface
@API(status = EXPERIMENTAL, since = "0.1")
public interface ArrayPartialEncoder {
    /**
     * Writes {@code values} at {@code at} in the decoded chunk and returns the new encoded value,
     * in which every element outside that block is what {@code existing} held.
     *
     * @param existing the current encoded value, or empty when none is stored (every element is
     *                 then the fill value)
     * @param values   the new elements; their shape is the block's
     * @param at       where the block starts in the decoded chunk
     * @return the new encoded value, or empty when every element of the chunk is now the fill
     *         value (the caller then erases the value, or stores a filled chunk if configured to)
     * @throws CorruptDataException     when {@code existing} cannot be decoded
     * @throws IllegalArgumentException when the block lies outside the chunk
     */
    Optional<ByteBuffer> encode(Optional<ByteBuffer> existing, NdArray values, long[] at);
}
