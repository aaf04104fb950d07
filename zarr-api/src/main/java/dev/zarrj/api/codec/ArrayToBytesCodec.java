package dev.zarrj.api.codec;

import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.IntFunction;

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

    /**
     * Decodes the region {@code [chunkOffset, chunkOffset + region)} of a chunk into
     * {@code destination} at {@code destinationOffset}: what a read needs when it wants a chunk,
     * or part of one, inside a larger array, without an intermediate array per chunk (sharding
     * decodes each inner chunk straight into the destination).
     *
     * <p>The default decodes the whole chunk with {@link #decode} and copies the region.
     *
     * @throws CorruptDataException when the bytes are not a valid encoding of {@code decoded}
     */
    default void decodeInto(ByteBuffer encoded, ChunkSpec decoded, long[] chunkOffset, NdArray destination,
                            long[] destinationOffset, long[] region) {
        NdArray chunk = decode(encoded, decoded);
        CodecChain.checkDecodedShape(name(), chunk, decoded);
        NdArray.copy(chunk, chunkOffset, destination, destinationOffset, region);
    }

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

    /**
     * Whether {@link #encodeRegion} encodes a chunk straight out of a larger array, without first
     * copying the whole chunk (sharding gathers each inner chunk from it). False by default.
     */
    default boolean supportsRegionEncode() {
        return false;
    }

    /**
     * Encodes the chunk that is the region of shape {@code decoded.shape()} at {@code sourceOffset}
     * in {@code source} (the whole of {@code source} when their shapes match): the same bytes as
     * {@link #encode} of a copy of that region, which is what the default does. The result may
     * lie in memory from {@code allocate}, lent as
     * {@link BytesToBytesCodec#encode(ByteBuffer, IntFunction)} describes; the default ignores it.
     * {@code source} is left unchanged.
     *
     * @throws IllegalArgumentException when the region lies outside {@code source} or the element
     *                                  sizes differ
     */
    default ByteBuffer encodeRegion(NdArray source, long[] sourceOffset, ChunkSpec decoded,
                                    IntFunction<ByteBuffer> allocate) {
        if (source.dataType().size() != decoded.dataType().size()) {
            throw new IllegalArgumentException("a source of " + source.dataType().name() + " for " + decoded);
        }
        boolean whole = Arrays.equals(source.shape(), decoded.shape())
                && Arrays.stream(sourceOffset).allMatch(o -> o == 0);
        return encode(whole ? source : source.region(sourceOffset, decoded.shape()), decoded);
    }

    /**
     * Whether {@link #encodePartial} updates a value without decoding and re-encoding all of it
     * (sharding replaces only the touched inner chunks). False by default.
     */
    default boolean supportsPartialEncode() {
        return false;
    }

    /**
     * Writes {@code region} at {@code offset} into an existing encoded value and returns the new
     * value: the partial write that keeps every untouched part of the old one.
     *
     * <p>The default decodes the whole value (or starts from the fill value when there is none),
     * copies the region in and encodes it all again.
     *
     * @param existing the current encoded value, or empty when none is stored
     * @param region   the new elements
     * @param offset   where {@code region} goes in the decoded chunk
     * @param decoded  the decoded representation of the whole chunk
     * @return the new encoded value, or empty when every element of the chunk is now the fill
     *         value (the caller then erases the value, or stores a filled chunk if configured to)
     * @throws CorruptDataException when {@code existing} cannot be decoded
     */
    default Optional<ByteBuffer> encodePartial(Optional<ByteBuffer> existing, NdArray region, long[] offset,
                                               ChunkSpec decoded) {
        NdArray chunk = NdArray.filled(decoded.dataType(), decoded.fillValue(), decoded.shape());
        if (existing.isPresent()) {
            NdArray old = decode(existing.get(), decoded);
            NdArray.copy(old, new long[decoded.rank()], chunk, new long[decoded.rank()], decoded.shape());
        }
        NdArray.copy(region, new long[region.rank()], chunk, offset, region.shape());
        if (chunk.isAll(decoded.fillValue())) {
            return Optional.empty();
        }
        return Optional.of(encode(chunk, decoded));
    }
}
