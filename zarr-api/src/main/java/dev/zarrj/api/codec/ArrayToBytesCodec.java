package dev.zarrj.api.codec;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.RegionCopy;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The one codec of a chain that turns an array into bytes (for example {@code bytes},
 * {@code sharding_indexed}); a whole {@link CodecChain} is one too.
 *
 * <p>A codec implements {@link #encodedSize}, {@link #encode(NdArray, ChunkSpec)} and
 * {@link #decode}. Everything else has a default that is correct and that a codec overrides only
 * to be faster. Each optional capability is one method returning {@link Optional}: empty (the
 * default) means the codec does not have it, and the pipeline falls back to whole chunks.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
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
     * Encodes an array into memory the caller lends ({@link BufferLender} states the contract):
     * the same bytes as {@link #encode(NdArray, ChunkSpec)}, which is what the default returns.
     */
    default ByteBuffer encode(NdArray array, ChunkSpec decoded, BufferLender lender) {
        return encode(array, decoded);
    }

    /**
     * Decodes bytes (position to limit) into an array of {@code decoded}'s representation.
     *
     * @throws CorruptDataException when the bytes are not a valid encoding of that representation
     */
    NdArray decode(ByteBuffer encoded, ChunkSpec decoded);

    /**
     * Decodes {@code region} of a chunk into {@code destination} at {@code destinationOffset}: what
     * a read needs when it wants a chunk, or part of one, inside a larger array, without an
     * intermediate array per chunk (sharding decodes each inner chunk straight into the
     * destination). The default decodes the whole chunk with {@link #decode} and copies the region.
     *
     * @throws CorruptDataException when the bytes are not a valid encoding of {@code decoded}
     */
    default void decodeInto(ByteBuffer encoded, ChunkSpec decoded, Region region, NdArray destination,
                            long[] destinationOffset) {
        NdArray chunk = decode(encoded, decoded);
        CodecChain.checkDecodedShape(name(), chunk, decoded);
        RegionCopy.copy(chunk, region, destination, destinationOffset);
    }

    /**
     * Whether the encoding of a chunk of this representation is its elements exactly as an
     * {@link NdArray} holds them (native byte order, C order), so that the pipeline may decode the
     * bytes→bytes codecs before it straight into a destination array's memory. False by default;
     * {@code bytes} says true when its endianness is the platform's.
     */
    default boolean encodesAsInMemory(ChunkSpec decoded) {
        return false;
    }

    /**
     * A decoder of regions of the encoded value behind {@code input} that reads less than the
     * whole value: the spec's {@code partial_decode}. Creating it reads nothing. Empty (the
     * default) when this codec cannot; the pipeline then reads and decodes whole values.
     */
    default Optional<ArrayPartialDecoder> partialDecoder(ByteSource input, ChunkSpec decoded) {
        return Optional.empty();
    }

    /**
     * An encoder of chunks gathered straight out of a larger array (see
     * {@link ArrayRegionEncoder}). Empty (the default) when this codec cannot; the pipeline then
     * copies the region into a chunk of its own and calls {@link #encode(NdArray, ChunkSpec, BufferLender)}.
     */
    default Optional<ArrayRegionEncoder> regionEncoder(ChunkSpec decoded) {
        return Optional.empty();
    }

    /**
     * An updater of part of an encoded value that keeps the rest of it as it is (see
     * {@link ArrayPartialEncoder}). Empty (the default) when this codec cannot; the pipeline then
     * decodes the whole value, copies the new elements in and encodes it all again.
     */
    default Optional<ArrayPartialEncoder> partialEncoder(ChunkSpec decoded) {
        return Optional.empty();
    }
}
