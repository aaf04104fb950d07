package dev.zarrj.core.internal.format;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.format.TranslatedNode;
import java.util.Map;

/**
 * A node's metadata as read from a store: its format, its documents (with their versions when
 * read for a conditional write), and the v3 document they translate to.
 *
 * @param versions the documents' versions by name, for conditional writes; empty when not asked for
 */
public record StoredNode(MetadataFormat format, StoredDocuments documents, Map<String, String> versions,
                         TranslatedNode translated) {
    public StoredNode {
        versions = Map.copyOf(versions);
    }

    /** The v3 document (a copy). */
    public ObjectNode document() {
        return translated.document().deepCopy();
    }

    /** The key that names this node's metadata in messages: its first document present. */
    public String key() {
        for (String n : format.documentNames()) {
            if (documents.documents().containsKey(n)) {
                return documents.key(n);
            }
        }
        return documents.key(format.documentNames().get(0));
    }
}
