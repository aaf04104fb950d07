package dev.zarrj.core;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.internal.hierarchy.NodePath;
import dev.zarrj.core.internal.metadata.GroupMetadata;
import dev.zarrj.core.internal.metadata.Json;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A Zarr group: a node with attributes whose children are arrays and groups.
 *
 * <p>Children are discovered with {@code list_dir} (core.rst "Discover children of a group"), so
 * the store must be listable. Thread-safe.
 *
 * <p>A group opened or created from a location ({@link Zarr#openGroup(String, String)},
 * {@link Zarr#createGroup(String, String)}) owns its store: close it, best with
 * try-with-resources, to close the store (a zip archive opened for writing is written then); the
 * arrays and groups opened through it share the store and do not own it. Closing a group opened
 * from a {@link Store} you hold does nothing.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public final class ZarrGroup implements ZarrNode {
    private final Zarr zarr;
    private final Store store;
    private final String path;
    private final StoreOwner owner;
    private volatile GroupMetadata meta;

    ZarrGroup(Zarr zarr, Store store, String path, GroupMetadata meta) {
        this(zarr, store, path, meta, StoreOwner.NONE);
    }

    ZarrGroup(Zarr zarr, Store store, String path, GroupMetadata meta, StoreOwner owner) {
        this.zarr = zarr;
        this.owner = owner;
        this.store = store;
        this.path = path;
        this.meta = meta;
    }

    @Override
    public String path() {
        return NodePath.display(path);
    }

    @Override
    public Store store() {
        return store;
    }

    @Override
    public ObjectNode attributes() {
        return meta.attributes();
    }

    @Override
    public ObjectNode metadata() {
        return meta.document().deepCopy();
    }

    @Override
    public synchronized void setAttributes(ObjectNode attributes) {
        if (!store.capabilities().writable()) {
            throw new ReadOnlyException("cannot set attributes of group '" + path() + "': " + store.describe() + " is read-only");
        }
        GroupMetadata m = meta.withAttributes(attributes);
        store.set(NodePath.metadataKey(path), Json.write(m.document()));
        meta = m;
    }

    /**
     * The names of the child nodes (prefixes under this group that hold a {@code zarr.json}),
     * sorted. Prefixes starting with {@code __} are not nodes.
     */
    public List<String> childNames() {
        List<String> names = new ArrayList<>();
        for (Child c : listChildren()) {
            names.add(c.name());
        }
        return names;
    }

    /**
     * The child nodes, opened, in name order. Their metadata documents are read concurrently
     * (up to {@link Zarr.Builder#ioConcurrency(int) ioConcurrency} at once), so that on an object
     * store this costs one listing and about one request's latency.
     */
    public List<ZarrNode> children() {
        List<ZarrNode> out = new ArrayList<>();
        for (Child c : listChildren()) {
            out.add(zarr.node(store, c.path(), c.metadata(), StoreOwner.NONE));
        }
        return out;
    }

    private record Child(String name, String path, ByteBuffer metadata) {}

    /** The prefixes under this group that hold a {@code zarr.json}, with it, in name order. */
    private List<Child> listChildren() {
        String prefix = NodePath.prefix(path);
        ListDirResult dir = store.listDir(prefix);
        List<String> names = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (String p : dir.prefixes()) {
            String name = p.substring(prefix.length(), p.length() - 1);
            if (!name.startsWith("__")) {
                names.add(name);
                paths.add(NodePath.child(path, name));
            }
        }
        List<Optional<ByteBuffer>> docs = zarr.metadataDocuments(store, paths);
        List<Child> out = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (docs.get(i).isPresent()) {
                out.add(new Child(names.get(i), paths.get(i), docs.get(i).get()));
            }
        }
        return out;
    }

    /** Opens a child (or deeper descendant, {@code "a/b"}) array or group. */
    public ZarrNode open(String relativePath) {
        return zarr.open(store, NodePath.child(path, relativePath));
    }

    /** Opens a child array. */
    public ZarrArray openArray(String relativePath) {
        return zarr.openArray(store, NodePath.child(path, relativePath));
    }

    /** Opens a child group. */
    public ZarrGroup openGroup(String relativePath) {
        return zarr.openGroup(store, NodePath.child(path, relativePath));
    }

    /** Creates a child group. */
    public ZarrGroup createGroup(String relativePath) {
        return zarr.createGroup(store, NodePath.child(path, relativePath));
    }

    /** Starts building a child array; finish with {@link ArrayBuilder#create(ZarrGroup, String)}. */
    public ArrayBuilder array(DataType dataType, long... shape) {
        return zarr.array(dataType, shape);
    }

    /** Erases a child and everything under it. */
    public void erase(String relativePath) {
        zarr.erase(store, NodePath.child(path, relativePath));
    }

    @Override
    public boolean ownsStore() {
        return owner.owns();
    }

    @Override
    public void close() {
        owner.close();
    }

    @Override
    public String toString() {
        return "ZarrGroup[" + path() + "]";
    }
}
