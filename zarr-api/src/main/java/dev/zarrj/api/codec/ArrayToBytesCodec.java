package dev.zarrj.api.codec;

import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import java.nio.ByteBuffer;

/**
 * The one codec of a chain that turns an array into bytes (for example {@code bytes},
 * {@code sharding_indexed}).
 */
public non-sealed interface ArrayToBytesCodec extends Codec {
    /**
     * Checks that this codec can encode the representation; called when an array is opened.
     *
     * @throws InvalidMetadataException naming the field that makes it impossible
     */
    default void checkSupported(ChunkSpec decoded) {}

    /** The spec's {@code compute_encoded_size}: the encoded size for a decoded representation. */
    EncodedSize encodedSize(ChunkSpec decoded);

    /** Encodes an array; the returned buffer (position to limit) is owned by the caller. */
    ByteBuffer encode(NdArray array, ChunkSpec decoded);

    /**
     * Decodes bytes (position to limit) into an array of {@code decoded}'s representation.
     *
     * @throws CorruptDataException when the bytes are not a valid encoding of that representation
     */
    NdArray decode(ByteBuffer encoded, ChunkSpec decoded);

    /** Whether {@link #partialDecoder} reads less than the whole value. False by default. */
    default boolean supportsPartialDecode() {
        return false;
    }

    /**
     * A decoder of regions of the encoded value behind {@code input}: the spec's
     * {@code partial_decode}. The default reads the whole value and decodes it in full.
     */
    default ArrayPartialDecoder partialDecoder(ByteSource input, ChunkSpec decoded) {
        return ArrayPartialDecoder.fullDecode(input, decoded, this::decode);
    }
}
