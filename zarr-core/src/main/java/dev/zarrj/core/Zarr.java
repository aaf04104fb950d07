package dev.zarrj.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NodeNotFoundException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.core.internal.format.Formats;
import dev.zarrj.core.internal.format.MetadataIo;
import dev.zarrj.core.internal.format.StoredNode;
import dev.zarrj.core.internal.format.ZarrV3Format;
import dev.zarrj.core.internal.hierarchy.ConsolidatedMetadata;
import dev.zarrj.core.internal.hierarchy.ConsolidatedView;
import dev.zarrj.core.internal.hierarchy.NodePath;
import dev.zarrj.core.internal.metadata.ExtensionResolver;
import dev.zarrj.core.internal.metadata.GroupMetadata;
import dev.zarrj.core.internal.metadata.NodeDocuments;
import dev.zarrj.core.internal.pipeline.Cancellation;
import dev.zarrj.core.internal.pipeline.ChunkCache;
import dev.zarrj.core.internal.pipeline.ParallelTasks;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.apiguardian.api.API;

/**
 * The entry point: opens stores, creates and opens arrays and groups.
 *
 * <p>A {@code Zarr} holds the extension registry and the bounded executor on which chunks are
 * encoded and decoded; the thread that reads or writes takes part. {@link #defaults()} discovers
 * extensions on the module path and class path and uses one thread per processor;
 * {@link #builder()} configures another. Thread-safe; close a {@code Zarr} you built to stop its
 * threads.
 *
 * <pre>{@code
 * Zarr zarr = Zarr.defaults();
 * try (ZarrArray a = zarr.array(DataTypes.FLOAT32, 1000, 1000).chunks(100, 100)
 *         .codec(GzipConfiguration.level(1))                  // zarr-codec-gzip
 *         .create("data/example.zarr", "/temperature")) {     // opens the store; closed with the array
 *     a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.FLOAT32, data, 1000, 1000));
 * }
 * try (ZarrArray a = zarr.openArray("data/example.zarr", "/temperature", true)) {   // read-only
 *     NdArray part = a.read(new long[] {10, 10}, new long[] {5, 5});
 * }
 * }</pre>
 *
 * <p>To work on several nodes of one store, open the store with {@link #openStore(String)}, use
 * the methods that take a {@link Store}, and close the store when done; nodes opened that way do
 * not own it. A zip archive opened for writing is written only when its store is closed.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public final class Zarr implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Zarr.class.getName());
    private static volatile Zarr defaults;
    /** {@link Builder#coalesceGap(long)}'s default: 64 KiB. */
    static final long DEFAULT_COALESCE_GAP = 64 << 10;

    private final ExtensionRegistry registry;
    private final ExtensionResolver resolver;
    private final ExecutorService executor;
    private final boolean ownsExecutor;
    private final ParallelTasks chunkTasks;
    private final int ioConcurrency;
    private final long coalesceGap;
    private final WriteEmptyChunks writeEmptyChunks;
    private final boolean allowWritesWithSkippedExtensions;
    private final boolean useConsolidatedMetadata;
    private final Formats formats;
    /** Decoded chunks kept between reads ({@link Builder#chunkCache}), or null. */
    private final ChunkCache chunkCache;

    private Zarr(Builder b) {
        this.registry = b.registry != null ? b.registry : ExtensionRegistry.discover();
        this.formats = new Formats(registry);
        int threads = b.threads > 0 ? b.threads : Runtime.getRuntime().availableProcessors();
        if (b.executor != null) {
            this.executor = b.executor;
            this.ownsExecutor = false;
        } else {
            // The calling thread is the first of the threads; the pool supplies the others.
            this.executor = Executors.newFixedThreadPool(Math.max(1, threads - 1), daemonThreads());
            this.ownsExecutor = true;
        }
        ParallelTasks tasks = new ParallelTasks(executor, threads);
        this.resolver = new ExtensionResolver(registry, tasks);
        int inFlight = b.maxChunksInFlight > 0 ? b.maxChunksInFlight : threads;
        this.chunkTasks = tasks.limit(inFlight);
        this.ioConcurrency = b.ioConcurrency;
        this.coalesceGap = b.coalesceGap;
        this.writeEmptyChunks = b.writeEmptyChunks;
        this.allowWritesWithSkippedExtensions = b.allowWritesWithSkippedExtensions;
        this.useConsolidatedMetadata = b.useConsolidatedMetadata;
        this.chunkCache = b.chunkCacheBytes > 0 ? new ChunkCache(b.chunkCacheBytes) : null;
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "zarrj-chunks-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** The shared instance: discovered extensions, one thread per processor, empty chunks skipped. */
    public static Zarr defaults() {
        Zarr z = defaults;
        if (z == null) {
            synchronized (Zarr.class) {
                z = defaults;
                if (z == null) {
                    z = builder().build();
                    defaults = z;
                }
            }
        }
        return z;
    }

    /** A builder for a configured instance. */
    public static Builder builder() {
        return new Builder();
    }

    /** The extension registry in use. */
    public ExtensionRegistry registry() {
        return registry;
    }

    ExtensionResolver resolver() {
        return resolver;
    }

    /**
     * What providers of this instance's registry are handed when they create instances: builds
     * codec chains (for codecs that nest others, such as sharding) with the same rules as an
     * array's {@code codecs}. For creating extensions in code and in the conformance kit.
     */
    public ProviderContext providerContext() {
        return resolver;
    }

    /** Where arrays encode and decode chunks: as many at once as {@link Builder#maxChunksInFlight(int)} allows. */
    /** The decoded chunks kept between reads, or null when {@link Builder#chunkCache} is off. */
    ChunkCache chunkCache() {
        return chunkCache;
    }

    /** The chunks under {@code prefix} of {@code store} may have changed otherwise than by a chunk write. */
    void chunksChanged(Store store, String prefix) {
        if (chunkCache != null) {
            chunkCache.invalidatePrefix(store, prefix);
        }
    }

    /**
     * The decoded bytes the chunk cache holds now ({@link Builder#chunkCache}); 0 when it is off.
     * For watching the budget at work.
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public long chunkCacheBytes() {
        return chunkCache == null ? 0 : chunkCache.bytes();
    }

    ParallelTasks chunkTasks() {
        return chunkTasks;
    }

    /**
     * How many store requests one read keeps outstanding on {@code store}: the builder's
     * {@link Builder#ioConcurrency(int)}, else the larger of the chunks in flight and the store's
     * own {@link Store#ioConcurrency() suggestion}.
     */
    int ioConcurrency(Store store) {
        return ioConcurrency > 0 ? ioConcurrency : Math.max(chunkTasks.parallelism(), store.ioConcurrency());
    }

    /**
     * How many store requests one write keeps outstanding on {@code store}: the builder's
     * {@link Builder#ioConcurrency(int)}, else the largest of the chunks in flight and the store's
     * {@link Store#ioConcurrency() read} and {@link Store#writeConcurrency() write} suggestions.
     */
    int writeConcurrency(Store store) {
        return ioConcurrency > 0 ? ioConcurrency
                : Math.max(ioConcurrency(store), store.writeConcurrency());
    }

    /**
     * The nodes at these normalized paths in one format, empty where there is none, read with up
     * to {@link #ioConcurrency(Store)} nodes in flight: discovering a group's children costs
     * about one request's latency on an object store, not one per child.
     *
     * @param withConsolidated whether to read the format's consolidated documents too
     */
    List<Optional<StoredNode>> nodes(Store store, List<String> paths, MetadataFormat format, boolean withConsolidated) {
        List<Optional<StoredNode>> out = new ArrayList<>(paths.size());
        for (NodeRead r : nodeReads(store, paths, format, withConsolidated)) {
            if (r.error() != null) {
                throw r.error();
            }
            out.add(r.node());
        }
        return out;
    }

    /**
     * What reading one node gave: the node (empty when there is none), or the error its documents
     * raised (they are there but cannot be read: a node all the same, for listing).
     */
    record NodeRead(Optional<StoredNode> node, RuntimeException error) {
        /** Whether documents of a node are there, readable or not. */
        boolean present() {
            return error != null || node.isPresent();
        }
    }

    /** {@link #nodes}, each node's error kept rather than thrown. */
    List<NodeRead> nodeReads(Store store, List<String> paths, MetadataFormat format, boolean withConsolidated) {
        int window = ioConcurrency(store);
        List<NodeRead> out = new ArrayList<>(paths.size());
        for (int from = 0; from < paths.size(); from += window) {
            List<CompletableFuture<Optional<StoredNode>>> batch = new ArrayList<>();
            for (String p : paths.subList(from, Math.min(paths.size(), from + window))) {
                batch.add(MetadataIo.readAsync(store, p, format, withConsolidated));
            }
            for (CompletableFuture<Optional<StoredNode>> f : batch) {
                try {
                    out.add(new NodeRead(MetadataIo.join(f), null));
                } catch (InvalidMetadataException e) {
                    out.add(new NodeRead(Optional.empty(), e));
                }
            }
        }
        return out;
    }

    /**
     * The format of the node whose documents are at normalized path {@code p}, found by their
     * presence only (Zarr v3's first): a node whose documents cannot be read is still found, so
     * that it can be overwritten or erased.
     */
    Optional<MetadataFormat> presentFormat(Store store, String p) {
        String prefix = NodePath.prefix(p);
        if (store.exists(StoreKey.of(prefix + ZarrV3Format.DOCUMENT))) {
            return Optional.of(ZarrV3Format.INSTANCE);
        }
        for (MetadataFormat f : formats.installed()) {
            for (String n : f.documentNames()) {
                if (store.exists(StoreKey.of(prefix + n))) {
                    return Optional.of(f);
                }
            }
        }
        return Optional.empty();
    }

    /** The metadata formats this instance reads and writes. */
    Formats formats() {
        return formats;
    }

    /**
     * The node at normalized path {@code p} in whichever format it is stored: Zarr v3 first, then
     * the installed formats (newest first), all of them at once.
     */
    Optional<StoredNode> find(Store store, String p) {
        Optional<StoredNode> v3 = MetadataIo.read(store, p, ZarrV3Format.INSTANCE, false);
        if (v3.isPresent() || formats.installed().isEmpty()) {
            return v3;
        }
        List<CompletableFuture<Optional<StoredNode>>> reads = new ArrayList<>();
        for (MetadataFormat f : formats.installed()) {
            reads.add(MetadataIo.readAsync(store, p, f, useConsolidatedMetadata));
        }
        Optional<StoredNode> found = Optional.empty();
        for (CompletableFuture<Optional<StoredNode>> r : reads) {
            Optional<StoredNode> n = MetadataIo.join(r);
            if (found.isEmpty()) {
                found = n;
            }
        }
        return found;
    }

    /** The error for a path where {@link #find} found no node. */
    NodeNotFoundException notFound(Store store, String p, MetadataFormat only) {
        StringBuilder keys = new StringBuilder();
        List<MetadataFormat> tried = new ArrayList<>();
        if (only != null) {
            tried.add(only);
        } else {
            tried.add(ZarrV3Format.INSTANCE);
            tried.addAll(formats.installed());
        }
        for (MetadataFormat f : tried) {
            for (String n : f.documentNames()) {
                keys.append(keys.length() == 0 ? "" : ", ").append('\'').append(NodePath.prefix(p)).append(n).append('\'');
            }
        }
        String hint = only == null && formats.installed().isEmpty()
                ? "; no other metadata format is installed (Zarr v2 needs zarr-format-v2)" : "";
        return new NodeNotFoundException("no array or group at '" + NodePath.display(p) + "' in " + store.describe()
                + " (none of " + keys + ")" + hint);
    }

    /** {@link Builder#coalesceGap(long)}. */
    long coalesceGap() {
        return coalesceGap;
    }

    boolean useConsolidatedMetadata() {
        return useConsolidatedMetadata;
    }

    WriteEmptyChunks writeEmptyChunks() {
        return writeEmptyChunks;
    }

    boolean allowWritesWithSkippedExtensions() {
        return allowWritesWithSkippedExtensions;
    }

    // ---- stores ----

    /** Opens a store for reading and writing; see {@link #openStore(String, boolean)}. */
    public Store openStore(String location) {
        return openStore(location, false);
    }

    /**
     * Opens a store named by a URI ({@code file:}, {@code memory:}, or any installed scheme) or a
     * plain path (a file system directory). The caller owns the store: close it when done, best
     * with try-with-resources; a zip archive opened for writing is written then, and only then.
     * To work on one array or group, {@link #openArray(String, String)} and its siblings open
     * and close the store for you.
     *
     * @throws StoreException when no installed provider handles the scheme, naming the module to add,
     *                        or the location is not one its provider understands (a relative path in
     *                        a URI, a remote host, an unknown query, a NUL in a path...), naming it
     */
    public Store openStore(String location, boolean readOnly) {
        try {
            return openStoreAt(location, readOnly);
        } catch (IllegalArgumentException e) {
            // Providers refuse a URI they do not understand with IllegalArgumentException (the SPI
            // says so); a user gets a ZarrException naming it, as for every other bad input.
            String m = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new StoreException(m.contains(location) ? m : "invalid store location '" + location + "': " + m, e);
        }
    }

    private Store openStoreAt(String location, boolean readOnly) {
        URI uri = toUri(location);
        String scheme = uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        Optional<StoreProvider> p = registry.find(ExtensionPoint.STORE, scheme, StoreProvider.class);
        if (p.isEmpty()) {
            String hint = ExtensionRegistry.knownModule(scheme).map(m -> "; add " + m).orElse("");
            throw new StoreException("no store provider for '" + scheme + ":' URIs (" + location + ")" + hint
                    + "; installed schemes: " + registry.names(ExtensionPoint.STORE), null);
        }
        return p.get().open(uri, readOnly);
    }

    private URI toUri(String location) {
        if (location.matches("^[a-zA-Z][a-zA-Z0-9+.-]+:.*") && !location.matches("^[a-zA-Z]:[\\\\/].*")) {
            try {
                if (location.endsWith(":")) {
                    // A bare scheme ("memory:") has no scheme-specific part; give it the root.
                    return new URI(location + "/");
                }
                return new URI(location);
            } catch (URISyntaxException e) {
                throw new StoreException("invalid store URI '" + location + "': " + e.getMessage(), e);
            }
        }
        Path path = Path.of(location).toAbsolutePath().normalize();
        if (path.getFileName() != null && path.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".zip")
                && registry.find(ExtensionPoint.STORE, "zip", StoreProvider.class).isPresent()) {
            return URI.create("zip:" + path.toUri().getRawPath());
        }
        return path.toUri();
    }

    // ---- nodes ----

    /** Starts building a new array of this data type and shape. */
    public ArrayBuilder array(DataType dataType, long... shape) {
        return new ArrayBuilder(this, dataType, shape);
    }

    /**
     * Creates an array from a complete metadata document, written as given after validation (and
     * any missing ancestor groups).
     *
     * <p>Without {@code overwrite}, on a store that offers conditional writes the document is
     * written only if absent, so that of several processes creating one array exactly one
     * succeeds.
     *
     * @throws InvalidMetadataException when the document is invalid, or a node exists there and
     *                                  {@code overwrite} is false
     */
    public ZarrArray createArray(Store store, String path, ObjectNode metadata, boolean overwrite) {
        return createArray(store, path, metadata, overwrite, 3);
    }

    /**
     * Creates an array from a complete Zarr v3 metadata document, stored in the metadata format
     * of this {@code zarr_format} (3, or 2 with zarr-format-v2 installed); see
     * {@link #createArray(Store, String, ObjectNode, boolean)}.
     *
     * @throws UnsupportedFormatException when no such format is installed, or it cannot express
     *                                    the document (Zarr v2 has no sharding, say), naming what
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public ZarrArray createArray(Store store, String path, ObjectNode metadata, boolean overwrite, int zarrFormat) {
        return createArray(store, NodePath.normalize(path), metadata.deepCopy(), overwrite, formats.of(zarrFormat),
                StoreOwner.NONE, null);
    }

    /**
     * Creates an array at normalized path {@code p} from its v3 document, in a format; {@code view},
     * when not null, is the consolidated view of the handle it is created through.
     */
    ZarrArray createArray(Store store, String p, ObjectNode doc, boolean overwrite, MetadataFormat format,
                          StoreOwner owner, ConsolidatedView view) {
        String prefix = NodePath.prefix(p);
        NodeDocuments.Node node = NodeDocuments.parse(doc, prefix + format.documentNames().get(0), resolver);
        if (node.array() == null) {
            throw new InvalidMetadataException("/node_type", "createArray needs an array document, found a group");
        }
        format.write(doc, StoredDocuments.none(prefix)); // refuses what the format cannot express, before any write
        Optional<MetadataFormat> existing = presentFormat(store, p);
        if (existing.isPresent() && !overwrite) {
            throw alreadyExists(store, p);
        }
        Ancestors ancestors = ensureAncestors(store, p, format); // may refuse: before anything is erased
        if (existing.isPresent()) {
            erase(store, p, view, existing.get());
        }
        Optional<StoredDocuments> written = MetadataIo.write(store, p, format, doc, StoredDocuments.none(prefix),
                !overwrite);
        if (written.isEmpty()) {
            throw alreadyExists(store, p);
        }
        metadataWritten(store, ancestors, p, node.array().document(), view);
        return new ZarrArray(this, store, p, node.array(), owner, view, format, written.get(), false);
    }

    /**
     * A handle on an array that a metadata document describes but that is not stored: its chunks
     * are read and written under {@code path} as the document says, and no metadata is written
     * until the caller stores the document ({@link #createArray(Store, String, ObjectNode, boolean, int)}).
     * For writers that store the metadata last, so that a job that fails half-way leaves no array
     * behind: zarr-spark's executors write chunks through such handles, and its job commit creates
     * the array.
     *
     * @throws InvalidMetadataException  when the document is not a valid array document
     * @throws UnsupportedFormatException when no such format is installed, or it cannot express the
     *                                    document
     * @since 0.17
     */
    @API(status = EXPERIMENTAL, since = "0.17")
    public ZarrArray unstoredArray(Store store, String path, ObjectNode metadata, int zarrFormat) {
        String p = NodePath.normalize(path);
        String prefix = NodePath.prefix(p);
        MetadataFormat format = formats.of(zarrFormat);
        ObjectNode doc = metadata.deepCopy();
        NodeDocuments.Node node = NodeDocuments.parse(doc, prefix + format.documentNames().get(0), resolver);
        if (node.array() == null) {
            throw new InvalidMetadataException("/node_type", "unstoredArray needs an array document, found a group");
        }
        // As stored, the format may define no fill value: then every chunk must be stored.
        Map<String, JsonNode> documents = format.write(doc, StoredDocuments.none(prefix));
        boolean storesEveryChunk = format.read(new StoredDocuments(prefix, documents))
                .map(dev.zarrj.api.format.TranslatedNode::storesEveryChunk).orElse(false);
        return new ZarrArray(this, store, p, node.array(), StoreOwner.NONE, null, format, StoredDocuments.none(prefix),
                storesEveryChunk);
    }

    private static InvalidMetadataException alreadyExists(Store store, String p) {
        return new InvalidMetadataException("", "a node already exists at '" + NodePath.display(p) + "' in "
                + store.describe() + "; pass overwrite to replace it");
    }

    /**
     * Opens the array or group at a path.
     *
     * @throws NodeNotFoundException    when there is none
     * @throws InvalidMetadataException when its metadata is invalid, naming the key and field
     */
    public ZarrNode open(Store store, String path) {
        return open(store, path, StoreOwner.NONE);
    }

    private ZarrNode open(Store store, String path, StoreOwner owner) {
        String p = NodePath.normalize(path);
        StoredNode stored = find(store, p).orElseThrow(() -> notFound(store, p, null));
        return node(store, p, stored, owner, null);
    }

    /**
     * Opens the array or group at a path, stored in the metadata format of this
     * {@code zarr_format} only (where a node has both, say, Zarr v3's {@code zarr.json} and Zarr
     * v2's {@code .zarray}, {@link #open(Store, String)} reads v3).
     *
     * @throws NodeNotFoundException      when there is none in that format
     * @throws UnsupportedFormatException when no such format is installed
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public ZarrNode open(Store store, String path, int zarrFormat) {
        String p = NodePath.normalize(path);
        MetadataFormat format = formats.of(zarrFormat);
        StoredNode stored = MetadataIo.read(store, p, format, useConsolidatedMetadata)
                .orElseThrow(() -> notFound(store, p, format));
        return node(store, p, stored, StoreOwner.NONE, null);
    }

    /** Opens the array at a path in one metadata format; see {@link #open(Store, String, int)}. */
    @API(status = EXPERIMENTAL, since = "0.1")
    public ZarrArray openArray(Store store, String path, int zarrFormat) {
        return asArray(open(store, path, zarrFormat), store);
    }

    /** Opens the group at a path in one metadata format; see {@link #open(Store, String, int)}. */
    @API(status = EXPERIMENTAL, since = "0.1")
    public ZarrGroup openGroup(Store store, String path, int zarrFormat) {
        return asGroup(open(store, path, zarrFormat), store);
    }

    /** The node read from {@code store} at normalized path {@code p}. */
    ZarrNode node(Store store, String p, StoredNode stored, StoreOwner owner) {
        return node(store, p, stored, owner, null);
    }

    /**
     * A node handle. A group gets {@code view} when it was opened through one, else the
     * consolidated metadata of its own document, when it has some and they are in use.
     */
    private ZarrNode node(Store store, String p, StoredNode stored, StoreOwner owner, ConsolidatedView view) {
        NodeDocuments.Node node = NodeDocuments.parse(stored, resolver);
        MetadataFormat format = stored.format();
        if (node.array() != null) {
            return new ZarrArray(this, store, p, node.array(), owner, view, format, stored.documents(),
                    stored.translated().storesEveryChunk());
        }
        ConsolidatedView v = view;
        if (v == null && useConsolidatedMetadata) {
            String where = format.consolidatedDocumentName().map(n -> NodePath.prefix(p) + n).orElse(stored.key());
            v = ConsolidatedMetadata.read(node.group().document(), where)
                    .map(c -> new ConsolidatedView(p, c, format)).orElse(null);
        }
        return new ZarrGroup(this, store, p, node.group(), owner, v, format, stored.documents());
    }

    /**
     * Opens the node at normalized path {@code p} through a group's consolidated metadata: from
     * its entry, without a store request, when it has one; from the store when its entry is
     * malformed (with a logged warning).
     *
     * @throws NodeNotFoundException when the consolidated metadata list no node there
     */
    ZarrNode openThrough(Store store, ConsolidatedView view, String p) {
        Optional<String> rel = view.relative(p);
        if (rel.isEmpty()) {
            return open(store, p);
        }
        MetadataFormat format = view.format();
        ConsolidatedMetadata c = view.current();
        Optional<ObjectNode> entry = c.get(rel.get());
        String where = NodePath.prefix(view.root()) + view.documentName() + "#/" + ConsolidatedMetadata.MEMBER
                + "/metadata/" + rel.get();
        if (entry.isPresent()) {
            try {
                NodeDocuments.Node node = NodeDocuments.parse(entry.get(), where, resolver);
                if (node.array() != null) {
                    // The stored documents are read when the array is first written (null: not known yet).
                    return new ZarrArray(this, store, p, node.array(), StoreOwner.NONE, view, format,
                            format == ZarrV3Format.INSTANCE ? StoredDocuments.none(NodePath.prefix(p)) : null, false);
                }
                return new ZarrGroup(this, store, p, node.group(), StoreOwner.NONE, view, format, null);
            } catch (UnknownExtensionException | UnsupportedFormatException e) {
                throw e; // the node's own document would say the same
            } catch (InvalidMetadataException e) {
                LOG.log(System.Logger.Level.WARNING, "the consolidated metadata of '" + NodePath.display(view.root())
                        + "' hold an invalid document for '" + NodePath.display(p) + "' (" + e.getMessage()
                        + "); reading its own document instead");
            }
        } else if (!c.untrusted(rel.get())) {
            throw new NodeNotFoundException("no array or group at '" + NodePath.display(p) + "' in " + store.describe()
                    + " according to the consolidated metadata of '" + NodePath.display(view.root())
                    + "' (as read when that group was opened; Zarr.builder().useConsolidatedMetadata(false) reads "
                    + "every node from the store)");
        }
        StoredNode stored = MetadataIo.read(store, p, format, false).orElseThrow(() -> notFound(store, p, format));
        return node(store, p, stored, StoreOwner.NONE, view);
    }

    /**
     * Opens the array at a path.
     *
     * @throws NodeNotFoundException when there is no array there (or a group is)
     */
    public ZarrArray openArray(Store store, String path) {
        return asArray(open(store, path), store);
    }

    private static ZarrArray asArray(ZarrNode n, Store store) {
        if (n instanceof ZarrArray a) {
            return a;
        }
        throw new NodeNotFoundException("'" + n.path() + "' in " + store.describe() + " is a group, not an array");
    }

    /**
     * Opens the group at a path.
     *
     * @throws NodeNotFoundException when there is no group there (or an array is)
     */
    public ZarrGroup openGroup(Store store, String path) {
        return asGroup(open(store, path), store);
    }

    private static ZarrGroup asGroup(ZarrNode n, Store store) {
        if (n instanceof ZarrGroup g) {
            return g;
        }
        throw new NodeNotFoundException("'" + n.path() + "' in " + store.describe() + " is an array, not a group");
    }

    // ---- asynchronous ----

    /**
     * Runs {@code work} as one task on this instance's executor ({@link Builder#executor}, else
     * its own pool), never on the caller's thread; see {@link ZarrArray#readAsync(Selection)}.
     */
    <T> CompletableFuture<T> async(java.util.function.Supplier<T> work) {
        return Cancellation.submit(executor, work, null);
    }

    /**
     * {@link #open(Store, String)} on this instance's executor: the future completes there with
     * the node, or exceptionally with the exception {@code open} throws (not wrapped).
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public CompletableFuture<ZarrNode> openAsync(Store store, String path) {
        return async(() -> open(store, path));
    }

    /** {@link #openArray(Store, String)} on this instance's executor, as {@link #openAsync}. */
    @API(status = EXPERIMENTAL, since = "0.1")
    public CompletableFuture<ZarrArray> openArrayAsync(Store store, String path) {
        return async(() -> openArray(store, path));
    }

    /**
     * {@link #openArray(String, String, boolean)} on this instance's executor, as
     * {@link #openAsync}; the array owns the store. An array opened after the future was
     * cancelled is closed again.
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public CompletableFuture<ZarrArray> openArrayAsync(String location, String path, boolean readOnly) {
        return Cancellation.submit(executor, () -> openArray(location, path, readOnly), ZarrArray::close);
    }

    /** {@link #openGroup(Store, String)} on this instance's executor, as {@link #openAsync}. */
    @API(status = EXPERIMENTAL, since = "0.1")
    public CompletableFuture<ZarrGroup> openGroupAsync(Store store, String path) {
        return async(() -> openGroup(store, path));
    }

    // ---- nodes that own their store ----

    /**
     * Opens the array at a path of the store at a location (as {@link #openStore(String)} names
     * it), for reading and writing. The array owns the store: close the array to close it, best
     * with try-with-resources. A zip archive is written when the array is closed, and only then.
     *
     * <pre>{@code
     * try (ZarrArray a = zarr.openArray("data/set.zip", "/temperature")) {
     *     a.write(new long[] {0, 0}, values);
     * }   // the archive is written here
     * }</pre>
     *
     * @throws StoreException        when the store cannot be opened; see {@link #openStore(String, boolean)}
     * @throws NodeNotFoundException when there is no array at the path (the store is closed again)
     */
    public ZarrArray openArray(String location, String path) {
        return openArray(location, path, false);
    }

    /**
     * Opens the array at a path of the store at a location, read-only or for reading and writing;
     * the array owns the store (see {@link #openArray(String, String)}). Read-only is cheaper for
     * some stores: a zip archive opened read-only is read in place and takes no lock.
     *
     * @throws StoreException        when the store cannot be opened
     * @throws NodeNotFoundException when there is no array at the path (the store is closed again)
     */
    public ZarrArray openArray(String location, String path, boolean readOnly) {
        return withOwnedStore(location, readOnly, (store, owner) -> asArray(open(store, path, owner), store));
    }

    /**
     * Opens the group at a path of the store at a location, for reading and writing; the group
     * owns the store and closes it when closed, and the nodes opened through it share the store.
     *
     * @throws StoreException        when the store cannot be opened
     * @throws NodeNotFoundException when there is no group at the path (the store is closed again)
     */
    public ZarrGroup openGroup(String location, String path) {
        return openGroup(location, path, false);
    }

    /**
     * Opens the group at a path of the store at a location, read-only or for reading and writing;
     * the group owns the store (see {@link #openGroup(String, String)}).
     */
    public ZarrGroup openGroup(String location, String path, boolean readOnly) {
        return withOwnedStore(location, readOnly, (store, owner) -> asGroup(open(store, path, owner), store));
    }

    /**
     * Creates a group, and any missing ancestor groups, in the store at a location; the group owns
     * the store and closes it when closed (see {@link #openGroup(String, String)}).
     */
    public ZarrGroup createGroup(String location, String path) {
        return withOwnedStore(location, false, (store, owner) -> createGroup(store, path, null, owner));
    }

    /**
     * Opens the store at a location and hands it to {@code open} with its owner; when
     * {@code open} fails, closes the store again.
     */
    <T> T withOwnedStore(String location, boolean readOnly, BiFunction<Store, StoreOwner, T> open) {
        Store store = openStore(location, readOnly);
        StoreOwner owner = StoreOwner.of(store);
        try {
            return open.apply(store, owner);
        } catch (RuntimeException | Error e) {
            try {
                owner.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Whether an array or group exists at a path: always asks the store (see
     * {@link ZarrGroup#exists(String)} to ask a group's consolidated metadata).
     */
    public boolean exists(Store store, String path) {
        return presentFormat(store, NodePath.normalize(path)).isPresent();
    }

    /** Creates a group without attributes (and any missing ancestor groups). */
    public ZarrGroup createGroup(Store store, String path) {
        return createGroup(store, path, null);
    }

    /**
     * Creates a group (and any missing ancestor groups). An existing group is replaced by an empty
     * one with these attributes; its children are kept.
     *
     * @throws InvalidMetadataException when an ancestor is an array
     */
    public ZarrGroup createGroup(Store store, String path, ObjectNode attributes) {
        return createGroup(store, path, attributes, StoreOwner.NONE);
    }

    /**
     * Creates a group (and any missing ancestor groups) stored in the metadata format of this
     * {@code zarr_format} (3, or 2 with zarr-format-v2 installed); see
     * {@link #createGroup(Store, String, ObjectNode)}.
     *
     * @throws UnsupportedFormatException when no such format is installed
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public ZarrGroup createGroup(Store store, String path, ObjectNode attributes, int zarrFormat) {
        return createGroup(store, path, attributes, StoreOwner.NONE, null, formats.of(zarrFormat));
    }

    ZarrGroup createGroup(Store store, String path, ObjectNode attributes, StoreOwner owner) {
        return createGroup(store, path, attributes, owner, null, ZarrV3Format.INSTANCE);
    }

    /**
     * Creates a group in a format; {@code view}, when not null, is the consolidated view of the
     * handle it is created through.
     */
    ZarrGroup createGroup(Store store, String path, ObjectNode attributes, StoreOwner owner, ConsolidatedView view,
                          MetadataFormat format) {
        String p = NodePath.normalize(path);
        Optional<MetadataFormat> there = presentFormat(store, p);
        if (there.isPresent() && there.get() != format) {
            throw new UnsupportedFormatException("", "cannot create the group '" + NodePath.display(p) + "' with zarr_format "
                    + format.zarrFormat() + ": a node stored with zarr_format " + there.get().zarrFormat()
                    + " is there (erase it first)");
        }
        Ancestors ancestors = ensureAncestors(store, p, format);
        GroupMetadata meta = GroupMetadata.create(attributes);
        // What is there now is replaced: documents the new group does not have are erased.
        StoredDocuments previous = format == ZarrV3Format.INSTANCE ? StoredDocuments.none(NodePath.prefix(p))
                : MetadataIo.read(store, p, format, true).map(StoredNode::documents)
                        .orElse(StoredDocuments.none(NodePath.prefix(p)));
        StoredDocuments written = MetadataIo.write(store, p, format, meta.document(), previous, false).orElseThrow();
        metadataWritten(store, ancestors, p, meta.document(), view);
        return new ZarrGroup(this, store, p, meta, owner, view, format, written);
    }

    /**
     * The ancestors of a node, parent first up to the root, as read (in the node's format, with
     * their consolidated documents) before a write, and those created as empty groups.
     */
    record Ancestors(List<String> paths, List<NodeRead> nodes, List<String> created, MetadataFormat format) {}

    /** Reads every ancestor of a node at once (about one request's latency). */
    Ancestors ancestors(Store store, String path, MetadataFormat format) {
        List<String> paths = new ArrayList<>();
        for (String a = NodePath.parent(path); a != null; a = NodePath.parent(a)) {
            paths.add(a);
        }
        return new Ancestors(paths, nodeReads(store, paths, format, true), List.of(), format);
    }

    /** Creates groups, in the node's format, at every ancestor of a path that has no node yet. */
    Ancestors ensureAncestors(Store store, String path, MetadataFormat format) {
        Ancestors all = ancestors(store, path, format);
        java.util.ArrayDeque<String> missing = new java.util.ArrayDeque<>();
        for (int i = 0; i < all.paths().size(); i++) {
            String parent = all.paths().get(i);
            NodeRead read = all.nodes().get(i);
            if (read.error() != null) {
                throw read.error();
            }
            Optional<StoredNode> existing = read.node();
            if (existing.isPresent()) {
                NodeDocuments.Node n = NodeDocuments.parse(existing.get(), resolver);
                if (n.array() != null) {
                    throw new InvalidMetadataException("", "cannot create '" + NodePath.display(path) + "': its ancestor '"
                            + NodePath.display(parent) + "' is an array");
                }
                break;
            }
            if (format != ZarrV3Format.INSTANCE || !formats.installed().isEmpty()) {
                Optional<MetadataFormat> other = presentFormat(store, parent);
                if (other.isPresent()) {
                    throw new UnsupportedFormatException("", "cannot create '" + NodePath.display(path) + "' with zarr_format "
                            + format.zarrFormat() + ": its ancestor '" + NodePath.display(parent) + "' is stored with zarr_format "
                            + other.get().zarrFormat() + ", and a hierarchy has one format");
                }
            }
            missing.push(parent);
        }
        List<String> created = new ArrayList<>();
        while (!missing.isEmpty()) {
            String p = missing.pop();
            // Only if still absent: a group another process created meanwhile keeps its attributes.
            if (MetadataIo.write(store, p, format, GroupMetadata.create(null).document(),
                    StoredDocuments.none(NodePath.prefix(p)), true).isPresent()) {
                created.add(p);
            }
        }
        return new Ancestors(all.paths(), all.nodes(), created, format);
    }

    /**
     * After the document of the node at {@code p} was written ({@code document}, or null when the
     * node and everything below it was erased), brings the consolidated metadata of its ancestors
     * up to date (see {@link ConsolidatedMetadataWrites}) and records the change in {@code view},
     * the consolidated view of the handle the write was made through, when not null.
     */
    void metadataWritten(Store store, Ancestors ancestors, String p, ObjectNode document, ConsolidatedView view) {
        java.util.Map<String, ObjectNode> changes = new java.util.LinkedHashMap<>();
        for (String c : ancestors.created()) {
            changes.put(c, GroupMetadata.create(null).document());
        }
        changes.put(p, document);
        ConsolidatedMetadataWrites.update(store, ancestors, changes);
        if (view != null) {
            view.apply(changes);
        }
    }

    /**
     * Erases a node and everything under it ({@code erase_prefix}); the root erases the whole store.
     *
     * @throws ReadOnlyException when the store is read-only
     */
    public void erase(Store store, String path) {
        erase(store, path, null);
    }

    /** Erases a node; {@code view}, when not null, is the consolidated view of the handle it is erased through. */
    void erase(Store store, String path, ConsolidatedView view) {
        erase(store, path, view, view != null ? view.format() : null);
    }

    /**
     * Erases a node of a format (which the node's ancestors share; null: the node's own, found by
     * reading it, Zarr v3 when there is none).
     */
    void erase(Store store, String path, ConsolidatedView view, MetadataFormat nodeFormat) {
        String p = NodePath.normalize(path);
        if (p.isEmpty()) {
            chunksChanged(store, "");
            store.erasePrefix("");
            chunksChanged(store, "");
            if (view != null) {
                view.apply(java.util.Collections.singletonMap("", null));
            }
            return;
        }
        MetadataFormat format = nodeFormat != null ? nodeFormat : presentFormat(store, p).orElse(ZarrV3Format.INSTANCE);
        Ancestors ancestors = ancestors(store, p, format);
        // The node's documents first, in every format, so that it is gone before its chunks go.
        List<StoreKey> documents = new ArrayList<>();
        List<MetadataFormat> all = new ArrayList<>(formats.installed());
        all.add(0, ZarrV3Format.INSTANCE);
        for (MetadataFormat f : all) {
            for (String n : f.documentNames()) {
                documents.add(StoreKey.of(NodePath.prefix(p) + n));
            }
            f.consolidatedDocumentName().ifPresent(n -> documents.add(StoreKey.of(NodePath.prefix(p) + n)));
        }
        store.eraseValues(documents);
        try {
            store.erasePrefix(NodePath.prefix(p));
        } finally {
            chunksChanged(store, NodePath.prefix(p));
        }
        metadataWritten(store, ancestors, p, null, view);
    }

    /**
     * Writes consolidated metadata into the {@code zarr.json} of the group at {@code path} (for a
     * group in another metadata format, into its consolidated document: Zarr v2's
     * {@code .zmetadata}): the document of every array and group below it, found by listing the store
     * ({@code list_dir} from group to group), in the {@code consolidated_metadata} member that
     * zarr-python 3 writes and reads ({@code {"kind": "inline", "must_understand": false,
     * "metadata": {"a": ..., "a/b": ...}}}, entries by depth, then path). The group's other
     * members and attributes are kept; on a store with {@linkplain Store#conditionalWrites()
     * conditional writes} the group's document is replaced only if unchanged since it was read
     * (else read again), so a concurrent change to it is not lost.
     *
     * <p>Afterwards, a group opened there lists and opens every node below it without further
     * metadata requests. Documents with extensions zarrj does not know are consolidated as they
     * are.
     *
     * @return the group, reading through the new consolidated metadata (unless
     *         {@link Builder#useConsolidatedMetadata(boolean) turned off})
     * @throws NodeNotFoundException    when there is no group at the path
     * @throws InvalidMetadataException when a document below it is not valid, naming its key
     * @throws StoreException           when the store cannot be listed
     * @throws ReadOnlyException        when the store is read-only
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public ZarrGroup consolidate(Store store, String path) {
        String p = NodePath.normalize(path);
        if (!store.capabilities().writable()) {
            throw new ReadOnlyException("cannot consolidate the metadata of '" + NodePath.display(p) + "': "
                    + store.describe() + " is read-only");
        }
        if (!store.capabilities().listable()) {
            throw new StoreException("cannot consolidate the metadata of '" + NodePath.display(p) + "': "
                    + store.describe() + " cannot be listed", null);
        }
        MetadataFormat format = asGroup(open(store, p), store).format();
        ConsolidatedMetadata c = ConsolidatedMetadata.of(ConsolidatedMetadataWrites.collect(this, store, p, format));
        StoredNode written = ConsolidatedMetadataWrites.writeMember(store, p, c.toJson(), resolver, format);
        return new ZarrGroup(this, store, p, GroupMetadata.parse(written.document()), StoreOwner.NONE,
                useConsolidatedMetadata ? new ConsolidatedView(p, c, format) : null, format, written.documents());
    }

    /** Stops this instance's threads, unless the executor was handed in. */
    @Override
    public void close() {
        if (ownsExecutor && this != defaults) {
            executor.shutdown();
        }
    }

    /** Configures a {@link Zarr}. */
    public static final class Builder {
        private ExtensionRegistry registry;
        private ExecutorService executor;
        private int threads;
        private int maxChunksInFlight;
        private int ioConcurrency;
        private long chunkCacheBytes;
        private long coalesceGap = DEFAULT_COALESCE_GAP;
        private WriteEmptyChunks writeEmptyChunks = WriteEmptyChunks.SKIP;
        private boolean allowWritesWithSkippedExtensions;
        private boolean useConsolidatedMetadata = true;

        private Builder() {}

        /** The registry to resolve extensions with (default: {@link ExtensionRegistry#discover()}). */
        public Builder registry(ExtensionRegistry registry) {
            this.registry = registry;
            return this;
        }

        /**
         * How many threads work on one read or write at once, the calling thread included
         * (default: the number of processors). Codecs that split a chunk into pieces (sharding)
         * run them within the same budget, so {@code threads(1)} does all the encoding and
         * decoding in the caller. Store requests are a budget of their own ({@link #ioConcurrency}):
         * a store may complete them on threads of its own (the file store's writes do).
         */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1, got " + threads);
            }
            this.threads = threads;
            return this;
        }

        /**
         * An executor to use instead of an own thread pool; not shut down by {@link Zarr#close()}.
         * {@link #threads} still bounds the threads of one read or write. Reads and writes may be
         * called from the executor's own threads: the caller takes part in the work and never
         * waits for a task the executor has not started.
         */
        public Builder executor(ExecutorService executor) {
            this.executor = executor;
            return this;
        }

        /**
         * How many chunks one read or write keeps in progress at most, which bounds the decoded
         * chunks it holds (default, and most: {@link #threads}).
         */
        public Builder maxChunksInFlight(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxChunksInFlight must be at least 1, got " + n);
            }
            this.maxChunksInFlight = n;
            return this;
        }

        /**
         * How many store requests one read or write keeps outstanding, independently of
         * {@link #threads}: above the chunks in flight, whole chunks are fetched ahead of their
         * decoding through the store's asynchronous operations ({@link Store#getAsync(StoreKey)}),
         * while decoding stays on the threads; bytes fetched and not yet decoded are bounded, so
         * fetching waits when decoding falls behind. Writes likewise hand encoded chunks to
         * {@link Store#setAsync} and encode on, their encoded bytes awaiting completion bounded
         * the same way; a write returns once every request has completed. Worth raising for stores where each request
         * waits on a network and that implement the asynchronous operations; a store's own
         * {@link Store#ioConcurrency()} suggestion applies when this is not set (for writes, also
         * its {@link Store#writeConcurrency()}, when larger). Default: the larger of
         * {@link #maxChunksInFlight} and the store's suggestion, which for local files means each
         * chunk task reads its own chunk, while a write keeps a few more files being replaced
         * than it has threads encoding.
         */
        @API(status = EXPERIMENTAL, since = "0.1")
        public Builder ioConcurrency(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("ioConcurrency must be at least 1, got " + n);
            }
            this.ioConcurrency = n;
            return this;
        }

        /**
         * How far apart, in bytes, two ranges of one stored value may be and still be read in one
         * request, the bytes between them read and dropped; 0 merges only ranges that touch or
         * overlap. Applies where a partial decoder reads several ranges of a chunk or shard (the
         * strided rows of a region of an uncompressed chunk, say). A request that merges ranges
         * reads at most 16 MiB, so coalescing never reads a huge stretch for a few bytes.
         *
         * <p>Default: 64 KiB. Reading that many unwanted bytes costs well under a millisecond on
         * a network link of 100 MB/s, far less than another request to an object store (tens of
         * milliseconds, and a charge per request), and tens of microseconds from a local file,
         * about what a second read costs there. Object-store clients merge up to about 1 MiB
         * (the Rust {@code object_store} crate, zarrs); raise this towards that for remote data
         * read with few requests in flight. This is also how far apart the inner chunks of a shard
         * that one read needs may lie and still be read in one request.
         */
        @API(status = EXPERIMENTAL, since = "0.1")
        public Builder coalesceGap(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("coalesceGap must be at least 0, got " + bytes);
            }
            this.coalesceGap = bytes;
            return this;
        }

        /** What writes do with chunks that are entirely fill value (default: {@link WriteEmptyChunks#SKIP}). */
        public Builder writeEmptyChunks(WriteEmptyChunks mode) {
            this.writeEmptyChunks = mode;
            return this;
        }

        /**
         * Allows writing arrays opened with a codec or storage transformer skipped because of
         * {@code "must_understand": false}. Off by default: readers that understand the skipped
         * extension would misread the data written without it.
         */
        public Builder allowWritesWithSkippedExtensions(boolean allow) {
            this.allowWritesWithSkippedExtensions = allow;
            return this;
        }

        /**
         * Whether a group whose {@code zarr.json} holds consolidated metadata (zarr-python's
         * {@code consolidated_metadata}, or {@link Zarr#consolidate}'s) opens the nodes below it
         * and lists its children from them, without further metadata requests (default: true).
         * Consolidated metadata are a snapshot: a node another writer changed, created or erased
         * since they were written is seen as it was then (until {@link Zarr#consolidate} runs
         * again). Turn this off for stores known to change underneath; every node is then read
         * from its own {@code zarr.json} and children are found by listing. Writes keep existing
         * consolidated metadata current either way.
         */
        @API(status = EXPERIMENTAL, since = "0.1")
        public Builder useConsolidatedMetadata(boolean use) {
            this.useConsolidatedMetadata = use;
            return this;
        }

        /**
         * Keeps decoded chunks, up to this many decoded bytes in all (for strings and byte
         * strings, their content), for reads to reuse: a
         * region read, {@link ZarrArray#readChunk} or a selection that needs a chunk kept makes no
         * store request and decodes nothing. Off (0) by default, holding no memory. The least
         * recently used chunks are dropped first; a chunk larger than a quarter of the budget is
         * never kept. With the cache on, a chunk read in part (a few elements of a shard) is
         * fetched and decoded whole, so that the next read of it finds it, unless it is too large
         * to keep. Writes through any handle of this instance on the same {@link Store} object
         * drop the chunks they wrote, and erasing, overwriting or resizing an array drops all of
         * its chunks; changes made by another process, another {@code Zarr} or another
         * {@code Store} object over the same location are not seen while a chunk stays cached, so
         * use the cache for data that such writers do not change meanwhile. Readers always get
         * copies.
         */
        @API(status = EXPERIMENTAL, since = "0.1")
        public Builder chunkCache(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("the chunk cache's budget must not be negative, got " + bytes);
            }
            this.chunkCacheBytes = bytes;
            return this;
        }

        /** The configured instance. */
        public Zarr build() {
            return new Zarr(this);
        }
    }
}
