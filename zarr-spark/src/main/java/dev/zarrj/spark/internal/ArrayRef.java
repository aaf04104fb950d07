package dev.zarrj.spark.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.core.ZarrArray;
import java.io.Serializable;

/**
 * An array as the driver sends it to executors: where it is and its metadata (the v3 document,
 * as JSON text; Jackson nodes are not serializable).
 *
 * @param storeLocation the store URI, store options included
 * @param path          the array's path in the store
 * @param metadataJson  its Zarr v3 metadata document
 * @param zarrFormat    the format it is stored in
 */
public record ArrayRef(String storeLocation, String path, String metadataJson, int zarrFormat) implements Serializable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The reference to an open array. */
    public static ArrayRef of(String storeLocation, ZarrArray array) {
        try {
            return new ArrayRef(storeLocation, array.path(), JSON.writeValueAsString(array.metadata()),
                    array.zarrFormat());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The metadata document. */
    public ObjectNode metadata() {
        try {
            return (ObjectNode) JSON.readTree(metadataJson);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("metadata of '" + path + "' do not parse", e);
        }
    }
}
