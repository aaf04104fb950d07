package dev.zarrj.core.internal.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.format.StoredDocuments;
import dev.zarrj.api.format.TranslatedNode;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.internal.hierarchy.NodePath;
import dev.zarrj.core.internal.metadata.Json;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.UnaryOperator;

/**
 * Where a node's metadata documents are read from and written to a store, in any
 * {@link MetadataFormat}: the documents of one node are read concurrently (one request's
 * latency), translated to and from the v3 document core works on, and only the documents that
 * changed are written.
 */
public final class MetadataIo {
    /** How often a conditional rewrite is tried before giving up on documents that keep changing. */
    private static final int ATTEMPTS = 64;

    private MetadataIo() {}

    /** The names of the documents read for a node: the format's, and its consolidated document when asked for. */
    static List<String> names(MetadataFormat format, boolean withConsolidated) {
        List<String> names = new ArrayList<>(format.documentNames());
        if (withConsolidated) {
            format.consolidatedDocumentName().ifPresent(names::add);
        }
        return names;
    }

    /**
     * Reads the node at normalized path {@code p} in one format, its documents concurrently.
     *
     * @param withConsolidated whether to read the format's consolidated document too
     * @return the node, or empty when the format finds none there
     */
    public static CompletableFuture<Optional<StoredNode>> readAsync(Store store, String p, MetadataFormat format,
                                                                    boolean withConsolidated) {
        String prefix = NodePath.prefix(p);
        List<String> names = names(format, withConsolidated);
        List<CompletableFuture<Optional<ByteBuffer>>> gets = new ArrayList<>(names.size());
        for (String n : names) {
            CompletableFuture<Optional<ByteBuffer>> f;
            try {
                f = store.getAsync(StoreKey.of(prefix + n));
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            gets.add(f);
        }
        return CompletableFuture.allOf(gets.toArray(CompletableFuture[]::new)).thenApply(ignored -> {
            Map<String, JsonNode> docs = new HashMap<>();
            for (int i = 0; i < names.size(); i++) {
                Optional<ByteBuffer> b = gets.get(i).join();
                if (b.isPresent()) {
                    docs.put(names.get(i), Json.parse(b.get(), prefix + names.get(i)));
                }
            }
            return translate(format, new StoredDocuments(prefix, docs), Map.of());
        });
    }

    /** {@link #readAsync}, waited for; a failure is rethrown as it was thrown. */
    public static Optional<StoredNode> read(Store store, String p, MetadataFormat format, boolean withConsolidated) {
        List<String> names = names(format, withConsolidated);
        if (names.size() > 1) {
            return join(readAsync(store, p, format, withConsolidated));
        }
        String key = NodePath.prefix(p) + names.get(0);
        Optional<ByteBuffer> b = store.get(StoreKey.of(key));
        if (b.isEmpty()) {
            return Optional.empty();
        }
        return translate(format, new StoredDocuments(NodePath.prefix(p), Map.of(names.get(0), Json.parse(b.get(), key))),
                Map.of());
    }

    /** Waits for a future, rethrowing a runtime failure as it was thrown. */
    public static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private static Optional<StoredNode> translate(MetadataFormat format, StoredDocuments docs,
                                                  Map<String, String> versions) {
        if (docs.documents().isEmpty()) {
            return Optional.empty();
        }
        Optional<TranslatedNode> t = format.read(docs);
        return t.map(n -> new StoredNode(format, docs, versions, n));
    }

    /** Reads a node with the versions of its documents, for a conditional write. */
    private static Optional<StoredNode> readVersioned(Store store, String p, MetadataFormat format,
                                                      ConditionalWrites cw) {
        String prefix = NodePath.prefix(p);
        Map<String, JsonNode> docs = new HashMap<>();
        Map<String, String> versions = new HashMap<>();
        for (String n : names(format, true)) {
            Optional<ConditionalWrites.VersionedValue> v = cw.getVersioned(StoreKey.of(prefix + n));
            if (v.isPresent()) {
                docs.put(n, Json.parse(v.get().value(), prefix + n));
                versions.put(n, v.get().version());
            }
        }
        return translate(format, new StoredDocuments(prefix, docs), versions);
    }

    /**
     * Writes the documents of the node at normalized path {@code p} for a v3 document: those that
     * differ from {@code previous}, in the format's order; documents the format no longer returns
     * are erased.
     *
     * @param ifAbsent whether the first document is written only if absent (on a store with
     *                 conditional writes; the caller checked the node is absent otherwise)
     * @return the documents written, or empty when {@code ifAbsent} found the first one present
     */
    public static Optional<StoredDocuments> write(Store store, String p, MetadataFormat format, ObjectNode document,
                                                  StoredDocuments previous, boolean ifAbsent) {
        Map<String, JsonNode> next = format.write(document, previous);
        Optional<ConditionalWrites> cw = ifAbsent ? store.conditionalWrites() : Optional.empty();
        boolean first = true;
        for (String n : names(format, true)) {
            JsonNode doc = next.get(n);
            StoreKey key = StoreKey.of(previous.key(n));
            if (doc == null) {
                if (previous.documents().containsKey(n)) {
                    store.erase(key);
                }
                continue;
            }
            boolean conditional = first && cw.isPresent();
            first = false;
            if (!conditional && doc.equals(previous.documents().get(n))) {
                continue;
            }
            if (conditional) {
                if (!cw.get().setIfAbsent(key, encode(format, doc))) {
                    return Optional.empty();
                }
            } else {
                store.set(key, encode(format, doc));
            }
        }
        return Optional.of(new StoredDocuments(previous.prefix(), only(next, format)));
    }

    private static Map<String, JsonNode> only(Map<String, JsonNode> docs, MetadataFormat format) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (String n : names(format, true)) {
            if (docs.get(n) != null) {
                out.put(n, docs.get(n));
            }
        }
        return out;
    }

    /**
     * Reads the node at normalized path {@code p}, changes its v3 document and writes it back;
     * with conditional writes each changed document only if unchanged since it was read (else all
     * again), so that a concurrent change is never lost.
     *
     * @param change the new document (it may change and return its argument), or null to write nothing
     * @return the node afterwards (as read when nothing was written); empty when there is none
     */
    public static Optional<StoredNode> rewrite(Store store, String p, MetadataFormat format,
                                               UnaryOperator<ObjectNode> change) {
        Optional<ConditionalWrites> cw = store.conditionalWrites();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Optional<StoredNode> read = cw.isPresent() ? readVersioned(store, p, format, cw.get())
                    : read(store, p, format, true);
            if (read.isEmpty()) {
                return Optional.empty();
            }
            StoredNode node = read.get();
            ObjectNode next = change.apply(node.document());
            if (next == null) {
                return read;
            }
            Map<String, JsonNode> docs = format.write(next, node.documents());
            if (writeChanged(store, format, node, docs, cw)) {
                StoredDocuments written = new StoredDocuments(node.documents().prefix(), only(docs, format));
                return Optional.of(new StoredNode(format, written, Map.of(),
                        new TranslatedNode(next, node.translated().origins(), node.translated().storesEveryChunk())));
            }
        }
        throw new StoreException("the metadata of '" + NodePath.display(p) + "' in " + store.describe()
                + " changed under each of " + ATTEMPTS + " attempts to update it; giving up", null);
    }

    /**
     * The bytes of a document: UTF-8 JSON for Zarr v3; for the formats before it, ASCII JSON
     * (non-ASCII characters escaped), which their readers need (zarr-python 2 decodes metadata
     * as ASCII) and every JSON reader reads the same.
     */
    static ByteBuffer encode(MetadataFormat format, JsonNode doc) {
        return format == ZarrV3Format.INSTANCE ? Json.write(doc) : Json.writeAscii(doc);
    }

    /** Writes the documents that changed, each conditionally when {@code cw} is present; false when one had changed meanwhile. */
    private static boolean writeChanged(Store store, MetadataFormat format, StoredNode read, Map<String, JsonNode> docs,
                                        Optional<ConditionalWrites> cw) {
        StoredDocuments before = read.documents();
        for (String n : names(format, true)) {
            JsonNode doc = docs.get(n);
            JsonNode old = before.documents().get(n);
            StoreKey key = StoreKey.of(before.key(n));
            if (doc == null) {
                if (old != null) {
                    store.erase(key); // a removal cannot be conditional; it is an invalidation at worst
                }
                continue;
            }
            if (doc.equals(old)) {
                continue;
            }
            ByteBuffer bytes = encode(format, doc);
            if (cw.isEmpty()) {
                store.set(key, bytes);
            } else if (old == null ? !cw.get().setIfAbsent(key, bytes)
                    : !cw.get().setIfMatch(key, bytes, read.versions().get(n))) {
                return false;
            }
        }
        return true;
    }
}
