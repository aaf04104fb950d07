package dev.zarrj.api.format;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A node read through a {@link MetadataFormat}: its equivalent Zarr v3 document, and what core
 * needs to know beyond it.
 *
 * @param document          the equivalent {@code zarr.json} document (owned by the caller from now on)
 * @param origins           where parts of the document came from, for messages: a JSON pointer into
 *                          {@code document} ({@code "/codecs/2"}) mapped to the stored field it was
 *                          translated from ({@code a/.zarray}, {@code /compressor}); when core finds
 *                          the document invalid (a codec not installed, say), the message names the
 *                          origin of the longest pointer that is the offending one or a parent of it
 * @param storesEveryChunk  whether every chunk must be stored, even one that holds only the fill
 *                          value: true where the stored metadata define no fill value (Zarr v2's
 *                          {@code "fill_value": null}), so that a missing chunk would mean
 *                          undefined data to other readers
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TranslatedNode(ObjectNode document, Map<String, Origin> origins, boolean storesEveryChunk) {
    /** Copies the map. */
    public TranslatedNode {
        if (document == null) {
            throw new NullPointerException("document");
        }
        origins = Map.copyOf(origins);
    }

    /**
     * A stored field.
     *
     * @param key     the stored document's key ({@link StoredDocuments#key(String)})
     * @param pointer the field's JSON pointer in it ({@code ""} for the whole document)
     */
    public record Origin(String key, String pointer) {}
}
