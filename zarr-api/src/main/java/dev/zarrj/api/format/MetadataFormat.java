package dev.zarrj.api.format;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NamedProvider;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A metadata format: how the metadata of arrays and groups are stored when they are not Zarr
 * v3's {@code zarr.json} (Zarr v2's {@code .zarray}, {@code .zgroup} and {@code .zattrs}, say).
 * A {@link java.util.ServiceLoader} service; zarrj's core reads and writes Zarr v3 itself.
 *
 * <p>Inside, zarrj works on Zarr v3 documents only. A format translates: {@link #read} turns the
 * documents it stores for one node into the equivalent {@code zarr.json} document (its data type,
 * chunk grid, chunk key encoding and codecs named as registered v3 extensions), and
 * {@link #write} turns such a document back into its own. Everything else (opening, listing,
 * chunks, codecs, conditional writes) is core's and the same for every format. A group's
 * consolidated metadata, when the format has them ({@link #consolidatedDocumentName()}), appear
 * in the translated group document as the {@code consolidated_metadata} member zarr-python 3
 * writes ({@code {"kind": "inline", "must_understand": false, "metadata": {...}}}, entries
 * translated too), and are written back from it.
 *
 * <p>Implementations are stateless and thread-safe; {@link #name()} is the format's name
 * ({@code "v2"}), which users do not write in metadata.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface MetadataFormat extends NamedProvider {
    /** The {@code zarr_format} number of this format ({@code 2}); never 3, which core provides. */
    int zarrFormat();

    /**
     * The names, relative to a node's key prefix, of the documents a node of this format may have,
     * in the order they are written: the first of them that {@link #write} returns for a new node
     * is written only if absent (when the store can), so that of two processes creating one node
     * one wins. A node exists where {@link #read} finds one among them.
     */
    List<String> documentNames();

    /**
     * The name, relative to a group's key prefix, of the document holding consolidated metadata
     * ({@code ".zmetadata"}), read with the group's own documents when a group is opened; empty
     * (the default) when the format has none.
     */
    default Optional<String> consolidatedDocumentName() {
        return Optional.empty();
    }

    /**
     * Translates the stored documents of one node into the equivalent Zarr v3 document.
     *
     * @param node the documents found for the node, by name; each already parsed as JSON
     * @return empty when these documents hold no node (none of the names that mark one is present)
     * @throws InvalidMetadataException when a document is malformed or uses what the format cannot
     *                                  express as v3, already {@linkplain InvalidMetadataException#inDocument(String) naming}
     *                                  the document's key ({@link StoredDocuments#key(String)}) and
     *                                  the field
     */
    Optional<TranslatedNode> read(StoredDocuments node);

    /**
     * Translates a Zarr v3 document back into this format's documents.
     *
     * @param document the node's v3 document (valid: core has parsed it)
     * @param previous the node's documents as last read, to keep what v3 cannot say (an empty set
     *                 for a new node)
     * @return every document the node has afterwards, by name; a name of {@link #documentNames()}
     *         or {@link #consolidatedDocumentName()} missing here is erased if it was present
     * @throws dev.zarrj.api.UnsupportedFormatException when this format cannot express the
     *                                                  document (a chunk grid, codec or data type
     *                                                  it has no counterpart for), naming it
     */
    Map<String, JsonNode> write(ObjectNode document, StoredDocuments previous);
}
