package dev.zarrj.core;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.store.Store;
import org.apiguardian.api.API;

/**
 * An array or a group of a Zarr hierarchy.
 *
 * <p>A node opened or created from a location ({@link Zarr#openArray(String, String)},
 * {@link Zarr#openGroup(String, String)}, {@link ArrayBuilder#create(String, String)},
 * {@link Zarr#createGroup(String, String)}) owns the store it opened, and {@link #close()} closes
 * that store; use it with try-with-resources. A node opened from a {@link Store} you hold does not
 * own it, and closing the node leaves the store open.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public sealed interface ZarrNode extends AutoCloseable permits ZarrArray, ZarrGroup {
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

    /**
     * The node's attributes as a typed value ({@link Attributes#get(String, Class)},
     * {@link Attributes#asMap()}); the same content as {@link #attributes()}, which stays the raw
     * JSON. Named after zarr-python's {@code .attrs}, which users look for.
     */
    @API(status = org.apiguardian.api.API.Status.EXPERIMENTAL, since = "0.1")
    default Attributes attrs() {
        return Attributes.of(attributes());
    }

    /**
     * Merges changes into the node's attributes as stored now and rewrites its metadata: a value
     * sets the attribute (written as {@link Attributes#of(java.util.Map)} writes it), a null value
     * removes it; other attributes are kept, including ones another handle or process wrote since
     * this node was opened (read, changed and written back, conditionally where the store can,
     * as {@link #setAttributes}). Consolidated metadata above the node are kept current.
     *
     * @return the attributes written
     * @throws dev.zarrj.api.ReadOnlyException when the node or store is read-only
     * @throws IllegalArgumentException         naming the attribute whose value cannot be written as JSON
     */
    @API(status = org.apiguardian.api.API.Status.EXPERIMENTAL, since = "0.1")
    Attributes updateAttributes(java.util.Map<String, ?> changes);

    /**
     * A copy of the node's Zarr v3 metadata document: the {@code zarr.json} as stored, or for a
     * node stored in another metadata format (Zarr v2), its equivalent v3 document (what
     * {@link Zarr#createArray(Store, String, ObjectNode, boolean)} would store as v3).
     */
    ObjectNode metadata();

    /**
     * The {@code zarr_format} of the metadata format the node is stored in: 3, or 2 for a Zarr v2
     * node ({@code .zarray}/{@code .zgroup}, read with zarr-format-v2).
     */
    @API(status = org.apiguardian.api.API.Status.EXPERIMENTAL, since = "0.1")
    int zarrFormat();

    /**
     * Copies of the node's metadata documents as stored, by name relative to the node's prefix
     * ({@code zarr.json}; {@code .zarray} and {@code .zattrs} for a Zarr v2 array), read from the
     * store when the node was opened from consolidated metadata.
     */
    @API(status = org.apiguardian.api.API.Status.EXPERIMENTAL, since = "0.1")
    java.util.Map<String, ObjectNode> storedMetadata();

    /**
     * Whether this node owns its store: it opened the store from a location, and
     * {@link #close()} closes it. Nodes opened through an owning node (its children) do not.
     */
    boolean ownsStore();

    /**
     * Closes the store when this node {@linkplain #ownsStore() owns} it (a zip store opened for
     * writing writes its archive then); otherwise does nothing. After the store is closed, reads
     * and writes through this node, and through nodes opened from it, fail as the closed store
     * does. A second call does nothing.
     *
     * @throws dev.zarrj.api.StoreException when closing the store fails (for a zip store, when the
     *                                      archive cannot be written)
     */
    @Override
    void close();
}
