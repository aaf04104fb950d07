package dev.zarrj.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.store.Store;

/** An array or a group of a Zarr hierarchy. */
public sealed interface ZarrNode permits ZarrArray, ZarrGroup {
    /** The hierarchy path, {@code "/"} for the root or {@code "/foo/bar"}. */
    String path();

    /** The node's name: the last segment of its path, {@code ""} for the root. */
    default String name() {
        String p = path();
        return p.substring(p.lastIndexOf('/') + 1);
    }

    /** The store the node lives in. */
    Store store();

    /** A copy of the node's {@code attributes}, an empty object when it has none. */
    ObjectNode attributes();

    /**
     * Replaces the node's attributes and rewrites its {@code zarr.json}.
     *
     * @throws dev.zarrj.api.ReadOnlyException when the node or store is read-only
     */
    void setAttributes(ObjectNode attributes);

    /** A copy of the node's metadata document as stored. */
    ObjectNode metadata();
}
