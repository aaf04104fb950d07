package dev.zarrj.api.codec;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import java.nio.ByteBuffer;
import java.util.function.IntFunction;

/**
 * A codec that turns bytes into bytes (compressors, checksums).
 */
public non-sealed interface BytesToBytesCodec extends Codec {
    /** The spec's {@code compute_encoded_size}, from what is known of the decoded size. */
    EncodedSize encodedSize(EncodedSize decoded);

    /**
     * Encodes bytes (position to limit); the result is owned by the caller and shares no memory
     * with {@code decoded}.
     */
    ByteBuffer encode(ByteBuffer decoded);

    /**
     * Encodes bytes into memory the caller lends, so that a write that encodes many chunks reuses
     * its output buffers instead of allocating (and zeroing) one per chunk.
     *
     * <p>{@code allocate} gives a buffer with position 0 and at least the given number of bytes
     * remaining, heap or direct, with unspecified content; a codec may call it any number of
     * times. The caller takes every buffer it gave back once it is done with the result, so the
     * codec keeps no reference to them. The result (position to limit) may lie in such a buffer or
     * in memory of the codec's own, never in {@code decoded}'s, and decodes as what
     * {@link #encode(ByteBuffer)} gives does. The default ignores {@code allocate} and calls
     * {@link #encode(ByteBuffer)}.
     */
    default ByteBuffer encode(ByteBuffer decoded, IntFunction<ByteBuffer> allocate) {
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

    /** Whether {@link #partialDecoder} reads less than the whole value. False by default. */
    default boolean supportsPartialDecode() {
        return false;
    }

    /**
     * A source of the decoded bytes that reads ranges of the encoded value behind {@code input}.
     * The default reads and decodes the whole value once, on first use.
     */
    default ByteSource partialDecoder(ByteSource input, EncodedSize decodedSize) {
        return new ByteSource() {
            private volatile ByteSource decoded;

            private ByteSource decoded() {
                ByteSource d = decoded;
                if (d == null) {
                    synchronized (this) {
                        d = decoded;
                        if (d == null) {
                            d = ByteSource.of(decode(input.read(ByteRange.all()), decodedSize));
                            decoded = d;
                        }
                    }
                }
                return d;
            }

            @Override
            public ByteBuffer read(ByteRange range) {
                return decoded().read(range);
            }

            @Override
            public java.util.OptionalLong size() {
                return decoded().size();
            }
        };
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
