package dev.zarrj.core;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.internal.format.MetadataIo;
import dev.zarrj.core.internal.format.StoredNode;
import dev.zarrj.core.internal.format.ZarrV3Format;
import dev.zarrj.core.internal.hierarchy.ConsolidatedView;
import dev.zarrj.core.internal.hierarchy.NodePath;
import dev.zarrj.core.internal.metadata.GroupMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A Zarr group: a node with attributes whose children are arrays and groups.
 *
 * <p>Children are discovered with {@code list_dir} (core.rst "Discover children of a group"), so
 * the store must be listable. Thread-safe.
 *
 * <p><b>Consolidated metadata.</b> When the group's {@code zarr.json} holds consolidated metadata
 * (the {@code consolidated_metadata} member zarr-python 3 writes, or {@link Zarr#consolidate}'s),
 * the nodes below it are opened, listed and looked up from them: {@link #open}, {@link #openArray},
 * {@link #openGroup}, {@link #children}, {@link #childNames} and {@link #exists}, here and on every
 * group opened through this one, make no metadata request (a node whose entry is malformed is
 * read from its own document, with a logged warning), and the store need not be listable. They
 * are a snapshot taken when this group was opened, plus the writes made through these handles;
 * see {@link Zarr.Builder#useConsolidatedMetadata(boolean)} to read every node from the store
 * instead.
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
    /** The consolidated metadata this group reads its descendants from, or null. */
    private final ConsolidatedView view;
    private final MetadataFormat format;
    private volatile GroupMetadata meta;
    /** The group's documents as last read or written; null when opened from consolidated metadata. */
    private volatile StoredDocuments stored;

    ZarrGroup(Zarr zarr, Store store, String path, GroupMetadata meta, StoreOwner owner, ConsolidatedView view,
              MetadataFormat format, StoredDocuments stored) {
        this.zarr = zarr;
        this.owner = owner;
        this.store = store;
        this.path = path;
        this.meta = meta;
        this.view = view;
        this.format = format;
        this.stored = stored;
    }

    MetadataFormat format() {
        return format;
    }

    @Override
    public int zarrFormat() {
        return format.zarrFormat();
    }

    @Override
    public Map<String, ObjectNode> storedMetadata() {
        if (format == ZarrV3Format.INSTANCE) {
            return Map.of(ZarrV3Format.DOCUMENT, metadata());
        }
        StoredDocuments s = stored;
        if (s == null) {
            s = MetadataIo.read(store, path, format, true).map(StoredNode::documents)
                    .orElse(StoredDocuments.none(NodePath.prefix(path)));
            stored = s;
        }
        return copies(s);
    }

    /** Copies of the JSON-object documents, by name, in name order. */
    static Map<String, ObjectNode> copies(StoredDocuments s) {
        Map<String, ObjectNode> out = new java.util.TreeMap<>();
        s.documents().forEach((n, d) -> {
            if (d instanceof ObjectNode o) {
                out.put(n, o.deepCopy());
            }
        });
        return java.util.Collections.unmodifiableMap(out);
    }

    ConsolidatedView view() {
        return view;
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
        ObjectNode attrs = attributes.deepCopy();
        writeAttributes("set", current -> attrs);
    }

    @Override
    public synchronized Attributes updateAttributes(Map<String, ?> changes) {
        Map<String, Object> c = new java.util.LinkedHashMap<>(changes);
        Attributes.empty().withAll(c); // every value can be written, before anything is
        return Attributes.of(writeAttributes("update", current -> Attributes.of(current).withAll(c).toJson()));
    }

    /**
     * Replaces the attributes as stored now with {@code change} of them and rewrites the group's
     * metadata; returns the attributes written.
     */
    private ObjectNode writeAttributes(String what, java.util.function.UnaryOperator<ObjectNode> change) {
        if (!store.capabilities().writable()) {
            throw new ReadOnlyException("cannot " + what + " attributes of group '" + path() + "': " + store.describe()
                    + " is read-only");
        }
        // Read, change and write back (conditionally where the store can), so that members written
        // since this group was opened, such as consolidated metadata, are kept.
        Zarr.Ancestors ancestors = zarr.ancestors(store, path, format);
        Optional<StoredNode> rewritten = MetadataIo.rewrite(store, path, format, doc -> {
            JsonNode current = doc.get("attributes");
            doc.set("attributes", change.apply(current instanceof ObjectNode o ? o.deepCopy()
                    : JsonNodeFactory.instance.objectNode()));
            return doc;
        });
        ObjectNode written;
        if (rewritten.isPresent()) {
            written = rewritten.get().document();
            stored = rewritten.get().documents();
        } else {
            written = meta.withAttributes(change.apply(meta.attributes())).document();
            stored = MetadataIo.write(store, path, format, written, StoredDocuments.none(NodePath.prefix(path)), false)
                    .orElseThrow();
        }
        GroupMetadata m = GroupMetadata.parse(written);
        zarr.metadataWritten(store, ancestors, path, m.document(), view);
        meta = m;
        return m.attributes();
    }

    /**
     * Whether a child or deeper descendant ({@code "a/b"}) exists: answered from the consolidated
     * metadata when this group reads through them, else by the store.
     */
    public boolean exists(String relativePath) {
        String p = NodePath.child(path, relativePath);
        if (view != null) {
            Optional<String> rel = view.relative(p);
            if (rel.isPresent()) {
                return view.current().lists(rel.get());
            }
        }
        return zarr.presentFormat(store, p).isPresent();
    }

    /**
     * The paths, relative to this group, of the nodes below it that its consolidated metadata
     * list (its own or those of the group it was opened through), by depth then name; empty when
     * this group reads its nodes from the store.
     */
    @API(status = org.apiguardian.api.API.Status.EXPERIMENTAL, since = "0.1")
    public Optional<List<String>> consolidatedPaths() {
        if (view == null) {
            return Optional.empty();
        }
        List<String> out = new ArrayList<>();
        for (String p : view.current().paths()) {
            String abs = view.root().isEmpty() ? p : view.root() + "/" + p;
            ConsolidatedView.relative(path, abs).ifPresent(out::add);
        }
        return Optional.of(List.copyOf(out));
    }

    /**
     * The names of the child nodes (prefixes under this group that hold a node's metadata in the
     * group's format: a {@code zarr.json}, or Zarr v2's {@code .zarray} or {@code .zgroup}), sorted. Prefixes starting with {@code __} are not nodes.
     */
    public List<String> childNames() {
        if (view != null) {
            return view.current().childNames(viewRelative());
        }
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
        if (view != null) {
            List<ZarrNode> out = new ArrayList<>();
            for (String name : view.current().childNames(viewRelative())) {
                out.add(zarr.openThrough(store, view, NodePath.child(path, name)));
            }
            return out;
        }
        List<ZarrNode> out = new ArrayList<>();
        for (Child c : listChildren()) {
            out.add(zarr.node(store, c.path(), c.metadata(), StoreOwner.NONE));
        }
        return out;
    }

    /** A child: its documents as read, or the error they raised, which opening it throws. */
    private record Child(String name, String path, Zarr.NodeRead read) {
        StoredNode metadata() {
            if (read.error() != null) {
                throw read.error();
            }
            return read.node().orElseThrow();
        }
    }

    /** The prefixes under this group that hold a node in its format, with it, in name order. */
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
        List<Zarr.NodeRead> docs = zarr.nodeReads(store, paths, format, false);
        List<Child> out = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (docs.get(i).present()) {
                out.add(new Child(names.get(i), paths.get(i), docs.get(i)));
            }
        }
        return out;
    }

    /** The path of this group relative to its view's root. */
    private String viewRelative() {
        return view.relative(path).orElse("");
    }

    /**
     * Opens a child (or deeper descendant, {@code "a/b"}) array or group.
     *
     * @throws dev.zarrj.api.NodeNotFoundException when there is none (or the consolidated metadata
     *                                             this group reads through list none)
     */
    public ZarrNode open(String relativePath) {
        String p = NodePath.child(path, relativePath);
        if (view != null) {
            return zarr.openThrough(store, view, p);
        }
        StoredNode n = MetadataIo.read(store, p, format, zarr.useConsolidatedMetadata())
                .orElseThrow(() -> zarr.notFound(store, p, format));
        return zarr.node(store, p, n, StoreOwner.NONE);
    }

    /** Opens a child (or deeper descendant) array; see {@link #open(String)}. */
    public ZarrArray openArray(String relativePath) {
        ZarrNode n = open(relativePath);
        if (n instanceof ZarrArray a) {
            return a;
        }
        throw new dev.zarrj.api.NodeNotFoundException("'" + n.path() + "' in " + store.describe() + " is a group, not an array");
    }

    /** Opens a child (or deeper descendant) group; see {@link #open(String)}. */
    public ZarrGroup openGroup(String relativePath) {
        ZarrNode n = open(relativePath);
        if (n instanceof ZarrGroup g) {
            return g;
        }
        throw new dev.zarrj.api.NodeNotFoundException("'" + n.path() + "' in " + store.describe() + " is an array, not a group");
    }

    /** Creates a child group. */
    public ZarrGroup createGroup(String relativePath) {
        return zarr.createGroup(store, NodePath.child(path, relativePath), null, StoreOwner.NONE, view, format);
    }

    /**
     * Starts building a child array; finish with {@link ArrayBuilder#create(ZarrGroup, String)},
     * which stores it in this group's metadata format unless {@link ArrayBuilder#zarrFormat(int)}
     * says otherwise.
     */
    public ArrayBuilder array(DataType dataType, long... shape) {
        return zarr.array(dataType, shape);
    }

    /** Erases a child and everything under it. */
    public void erase(String relativePath) {
        zarr.erase(store, NodePath.child(path, relativePath), view, format);
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
