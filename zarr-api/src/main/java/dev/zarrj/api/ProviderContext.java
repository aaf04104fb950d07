package dev.zarrj.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.datatype.DataType;
import org.apiguardian.api.API;

/**
 * What a provider may ask of the registry that is creating it. A codec that nests other codecs
 * (sharding) builds its inner chains here, and a data type that wraps another ({@code optional})
 * its inner type; neither reaches into the implementation.
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

    /**
     * Creates a data type from its metadata form (a name such as {@code "uint8"}, or
     * {@code {"name": ..., "configuration": {...}}}) through the registry, with the same rules as
     * an array's {@code data_type}: for a data type whose configuration names another one (zarrs'
     * {@code optional}). The default, for a context that has no registry, refuses.
     *
     * @param dataType the metadata form
     * @param pointer  its JSON pointer, for error messages
     * @throws InvalidMetadataException when the form is invalid, the type unknown (then an
     *                                  {@link UnknownExtensionException}) or its configuration invalid
     * @since 0.1
     */
    default DataType dataType(JsonNode dataType, String pointer) {
        throw new InvalidMetadataException(pointer, "this provider context creates no nested data types (found "
                + dataType + ")");
    }
}
