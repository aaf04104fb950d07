package dev.zarrj.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.codec.CodecChain;
import org.apiguardian.api.API;

/**
 * What a provider may ask of the registry that is creating it. A codec that nests other codecs
 * (sharding) builds its inner chains here; it never reaches into the implementation.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface ProviderContext {
    /**
     * Builds a codec chain from a JSON array of codec metadata, with the same rules as an array's
     * {@code codecs} (array→array*, exactly one array→bytes, bytes→bytes*; unknown codecs fail).
     *
     * @param codecs  the JSON array
     * @param pointer the JSON pointer of that array, for error messages
     * @throws InvalidMetadataException when the chain is invalid
     */
    CodecChain codecChain(JsonNode codecs, String pointer);

    /**
     * Where a codec runs the independent pieces of one chunk in parallel (sharding decodes and
     * encodes its inner chunks here): on the threads of the zarrj instance creating the codec,
     * within its thread budget, so that {@code Zarr.builder().threads(1)} means one thread. Safe to
     * call from inside a chunk task. The default runs every piece in the calling thread.
     */
    default TaskRunner tasks() {
        return TaskRunner.sequential();
    }
}
