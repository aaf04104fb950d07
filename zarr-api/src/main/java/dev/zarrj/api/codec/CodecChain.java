package dev.zarrj.api.codec;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.NdArray;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A validated chain of codecs (array→array*, one array→bytes, bytes→bytes*) that encodes an
 * array chunk to bytes and back. Built by the registry for an array's {@code codecs}, and handed
 * to codecs that nest chains (sharding) through {@link dev.zarrj.api.ProviderContext}.
 * Immutable and thread-safe.
 */
public interface CodecChain {
    /** The codecs in metadata order. */
    List<Codec> codecs();

    /** The chain as its metadata JSON array. */
    JsonNode toJson();

    /**
     * Checks that every codec can handle the representation it would receive.
     *
     * @throws dev.zarrj.api.InvalidMetadataException naming the codec that cannot
     */
    void validate(ChunkSpec decoded);

    /** The encoded size for a decoded representation. */
    EncodedSize encodedSize(ChunkSpec decoded);

    /** Encodes a chunk; the returned bytes are owned by the caller. */
    ByteBuffer encode(NdArray chunk, ChunkSpec decoded);

    /**
     * Encodes a chunk into memory the caller lends, as
     * {@link BytesToBytesCodec#encode(ByteBuffer, IntFunction)} describes: the result may lie in
     * buffers from {@code allocate}, which the caller takes back once done with it. The default
     * ignores {@code allocate}.
     */
    default ByteBuffer encode(NdArray chunk, ChunkSpec decoded, IntFunction<ByteBuffer> allocate) {
        return encode(chunk, decoded);
    }

    /**
     * Decodes a chunk.
     *
     * @throws CorruptDataException when the bytes cannot be decoded to {@code decoded}
     */
    NdArray decode(ByteBuffer encoded, ChunkSpec decoded);

    /**
     * Decodes the region {@code [chunkOffset, chunkOffset + region)} of a chunk into
     * {@code destination} at {@code destinationOffset}, the way a read uses a chunk: a chain
     * decodes straight into the destination's memory where the layout allows it, or else into
     * memory it reuses, instead of allocating a new array per chunk. The default decodes the
     * whole chunk and copies the region.
     *
     * @throws CorruptDataException when the bytes cannot be decoded to {@code decoded}
     */
    default void decodeInto(ByteBuffer encoded, ChunkSpec decoded, long[] chunkOffset, NdArray destination,
                            long[] destinationOffset, long[] region) {
        NdArray chunk = decode(encoded, decoded);
        checkDecodedShape("codecs", chunk, decoded);
        NdArray.copy(chunk, chunkOffset, destination, destinationOffset, region);
    }

    /**
     * Fails unless a decoded array has the shape and element size of {@code decoded}.
     *
     * @throws CorruptDataException naming {@code what} and both representations
     */
    static void checkDecodedShape(String what, NdArray chunk, ChunkSpec decoded) {
        if (!Arrays.equals(chunk.shape(), decoded.shape())
                || chunk.dataType().size() != decoded.dataType().size()) {
            throw new CorruptDataException(what + ": decoded " + chunk + ", expected " + decoded);
        }
    }

    /**
     * A partial decoder over an encoded value; reads only what the codecs need when every
     * bytes→bytes codec and the array→bytes codec support partial decoding.
     */
    ArrayPartialDecoder partialDecoder(ByteSource input, ChunkSpec decoded);
}
