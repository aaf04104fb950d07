package dev.zarrj.api.codec;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ByteSource;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A codec that turns bytes into bytes (compressors, checksums).
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public non-sealed interface BytesToBytesCodec extends Codec {
    /** The spec's {@code compute_encoded_size}, from what is known of the decoded size. */
    EncodedSize encodedSize(EncodedSize decoded);

    /**
     * Encodes bytes (position to limit); the result is owned by the caller and shares no memory
     * with {@code decoded}.
     */
    ByteBuffer encode(ByteBuffer decoded);

    /**
     * Encodes bytes into memory the caller lends ({@link BufferLender} states the contract): the
     * result decodes as what {@link #encode(ByteBuffer)} gives does, which is what the default
     * returns.
     */
    default ByteBuffer encode(ByteBuffer decoded, BufferLender lender) {
        return encode(decoded);
    }

    /**
     * Decodes bytes (position to limit).
     *
     * @param decodedSize what the decoded size must be: exactly, at most, or unknown. A
     *                    decompressor stops and fails as soon as its output exceeds it, so that a
     *                    corrupt or hostile chunk cannot exhaust memory.
     * @throws CorruptDataException when the bytes are corrupt, fail a checksum, or decode to a
     *                              size that {@code decodedSize} does not allow
     */
    ByteBuffer decode(ByteBuffer encoded, EncodedSize decodedSize);

    /**
     * What the encoded bytes (position to limit) themselves say about their decoded size, read
     * from headers without decoding: exactly (a size field, as zstd's frame content size or
     * blosc's header), at most (a bound the format implies, as deflate's 1032:1), or unknown.
     *
     * <p>The pipeline asks before it allocates memory for the decoded bytes, and refuses a chunk
     * whose bytes cannot decode to the size its metadata promises, so that a few stored bytes
     * under metadata that promises gigabytes cost nothing. It must cost far less than decoding,
     * change neither the buffer's content, position nor limit, and hold for every encoding that
     * {@link #decode} accepts: the decoded size is then exactly a {@link EncodedSize.Fixed} answer
     * and at most a {@link EncodedSize.Bounded} one. The default is
     * {@link EncodedSize#unbounded()}, which checks nothing.
     *
     * @throws CorruptDataException when the headers already show that the bytes cannot be decoded
     */
    default EncodedSize decodedSize(ByteBuffer encoded) {
        return EncodedSize.unbounded();
    }

    /**
     * Decodes bytes (position to limit) into {@code destination}, whose remaining bytes are
     * exactly the decoded size. The pipeline hands in memory it reuses from chunk to chunk, or the
     * destination array's own memory, so that reading a chunk allocates no buffer for it. Neither
     * buffer's position or limit changes, nothing outside the destination's position to limit is
     * written, and on failure the destination's content is unspecified.
     *
     * <p>The default decodes with {@link #decode} and copies; codecs whose library can write into
     * a given heap or direct buffer override it.
     *
     * @throws CorruptDataException as {@link #decode} does, the decoded size being fixed at
     *                              {@code destination.remaining()}
     */
    default void decodeInto(ByteBuffer encoded, ByteBuffer destination) {
        int size = destination.remaining();
        ByteBuffer decoded = decode(encoded, EncodedSize.fixed(size));
        checkDecodedSize(name(), decoded.remaining(), EncodedSize.fixed(size));
        destination.put(destination.position(), decoded, decoded.position(), size);
    }

    /**
     * Decodes only the first {@code destination.remaining()} bytes of the value into
     * {@code destination}, when a read needs no more of the chunk (a region of a compressed chunk's
     * first planes stops decompressing where the region ends). Returns false when this codec cannot
     * stop early, or not for these bytes (a checksum that only the whole value can verify), as the
     * default does: the caller then decodes the whole value with {@link #decodeInto}, and what was
     * written meanwhile does not matter. As with {@link #decodeInto}, neither buffer's position or
     * limit changes and nothing outside the destination's position to limit is written.
     *
     * @param decodedSize the whole value's decoded size, at least {@code destination.remaining()}
     * @return true when the destination holds the value's first bytes
     * @throws CorruptDataException when the bytes cannot be decoded that far
     * @since 0.1
     */
    default boolean decodePrefixInto(ByteBuffer encoded, ByteBuffer destination, int decodedSize) {
        return false;
    }

    /**
     * A source of the decoded bytes that reads only the ranges of the encoded value behind
     * {@code input} that each read needs (a checksum or an uncompressed framing can; a stream
     * compressor cannot). Creating it reads nothing; reads return empty when the value is absent.
     * Empty (the default) when this codec cannot; the pipeline then reads and decodes whole values.
     */
    default Optional<ByteSource> partialDecoder(ByteSource input, EncodedSize decodedSize) {
        return Optional.empty();
    }

    /**
     * Fails unless {@code actual} bytes are allowed by {@code expected}.
     *
     * @throws CorruptDataException naming both sizes
     */
    static void checkDecodedSize(String codec, long actual, EncodedSize expected) {
        if (expected instanceof EncodedSize.Fixed f && actual != f.bytes()) {
            throw new CorruptDataException(codec + ": decoded " + actual + " bytes, expected " + f.bytes());
        }
        if (actual > expected.max()) {
            throw new CorruptDataException(codec + ": decoded more than the " + expected.max() + " bytes allowed");
        }
    }
}
