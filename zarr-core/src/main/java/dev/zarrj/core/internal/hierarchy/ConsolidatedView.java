package dev.zarrj.core.internal.hierarchy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.format.MetadataFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The consolidated metadata a group handle, and the nodes opened through it, read instead of the
 * store: what the group's {@code zarr.json} (or its format's consolidated document) held when the
 * group was opened, changed by the writes made through these handles since. Thread-safe.
 */
public final class ConsolidatedView {
    private final String root;
    private final AtomicReference<ConsolidatedMetadata> current;
    private final MetadataFormat format;

    /**
     * @param root     the normalized path of the group whose document holds the metadata
     * @param metadata what it holds
     * @param format   the metadata format of the group, and so of every node below it
     */
    public ConsolidatedView(String root, ConsolidatedMetadata metadata, MetadataFormat format) {
        this.root = root;
        this.current = new AtomicReference<>(metadata);
        this.format = format;
    }

    /** The metadata format of the nodes the view lists. */
    public MetadataFormat format() {
        return format;
    }

    /** The name of the document that holds the metadata, relative to the root's prefix, for messages. */
    public String documentName() {
        return format.consolidatedDocumentName().orElse(format.documentNames().get(0));
    }

    /** The normalized path of the group whose document holds the metadata. */
    public String root() {
        return root;
    }

    /** The metadata now. */
    public ConsolidatedMetadata current() {
        return current.get();
    }

    /** The path relative to the root of a normalized path strictly below it, else empty. */
    public Optional<String> relative(String path) {
        return relative(root, path);
    }

    /** The path relative to {@code group} of a normalized path strictly below it, else empty. */
    public static Optional<String> relative(String group, String path) {
        if (group.isEmpty()) {
            return path.isEmpty() ? Optional.empty() : Optional.of(path);
        }
        return path.startsWith(group + "/") ? Optional.of(path.substring(group.length() + 1)) : Optional.empty();
    }

    /**
     * Records metadata writes: each normalized path mapped to its node's new document, or to null
     * when the node and everything below it was erased. Paths not below the root are ignored;
     * erasing the root or an ancestor of it empties the view.
     */
    public void apply(Map<String, ObjectNode> changes) {
        Map<String, ObjectNode> below = new LinkedHashMap<>();
        boolean rootErased = false;
        for (Map.Entry<String, ObjectNode> c : changes.entrySet()) {
            if (c.getValue() == null && (c.getKey().equals(root) || relative(c.getKey(), root).isPresent())) {
                rootErased = true;
            }
            relative(c.getKey()).ifPresent(r -> below.put(r, c.getValue()));
        }
        if (rootErased) {
            current.set(ConsolidatedMetadata.empty());
        } else if (!below.isEmpty()) {
            current.updateAndGet(m -> m.with(below));
        }
    }
}
