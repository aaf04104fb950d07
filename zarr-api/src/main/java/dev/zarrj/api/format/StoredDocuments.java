package dev.zarrj.api.format;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The documents one node has in a store, as a {@link MetadataFormat} stores them.
 *
 * @param prefix    the node's key prefix ({@code ""} for the root, else ending in {@code /}), for messages
 * @param documents the documents present, by name relative to the prefix; immutable
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record StoredDocuments(String prefix, Map<String, JsonNode> documents) {
    /** Copies the map. */
    public StoredDocuments {
        if (prefix == null) {
            throw new NullPointerException("prefix");
        }
        documents = Map.copyOf(documents);
    }

    /** No documents: a node that does not exist yet. */
    public static StoredDocuments none(String prefix) {
        return new StoredDocuments(prefix, Map.of());
    }

    /** The document of this name, if present. */
    public Optional<JsonNode> get(String name) {
        return Optional.ofNullable(documents.get(name));
    }

    /** The store key of the document of this name: {@code prefix + name}, what messages name. */
    public String key(String name) {
        return prefix + name;
    }
}
