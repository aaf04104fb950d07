package dev.zarrj.api.codec;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.NdArray;
import java.util.Arrays;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A validated chain of codecs (array→array*, one array→bytes, bytes→bytes*) that encodes an array
 * chunk to bytes and back: itself an {@link ArrayToBytesCodec}, so that whatever takes one codec
 * (a shard's inner chunks, the pipeline) takes a chain, and each capability of the chain is what
 * its codecs' capabilities allow together. Built by the registry for an array's {@code codecs},
 * and handed to codecs that nest chains (sharding) through {@link dev.zarrj.api.ProviderContext}.
 * Immutable and thread-safe.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface CodecChain extends ArrayToBytesCodec {
    /** What {@link #name()} returns: a chain is written as the {@code codecs} array, not by name. */
    String NAME = "codecs";

    /** The codecs in metadata order. */
    List<Codec> codecs();

    /** The chain as its metadata JSON array, including codecs skipped as not understood. */
    @Override
    JsonNode toJson();

    /** {@value #NAME}, for messages. */
    @Override
    default String name() {
        return NAME;
    }

    /** Empty: a chain's codecs carry the configuration. */
    @Override
    default ObjectNode configuration() {
        return JsonNodeFactory.instance.objectNode();
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
}
