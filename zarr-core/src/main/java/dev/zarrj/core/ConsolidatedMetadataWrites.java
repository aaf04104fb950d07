package dev.zarrj.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NodeNotFoundException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.internal.hierarchy.ConsolidatedMetadata;
import dev.zarrj.core.internal.hierarchy.ConsolidatedView;
import dev.zarrj.core.internal.hierarchy.NodePath;
import dev.zarrj.core.internal.metadata.ExtensionResolver;
import dev.zarrj.core.internal.metadata.GroupMetadata;
import dev.zarrj.core.internal.metadata.Json;
import dev.zarrj.core.internal.metadata.NodeDocuments;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Writing consolidated metadata, and keeping it current when nodes below a consolidated group
 * change.
 *
 * <p>The policy: after a node's document is written or the node erased, every ancestor group
 * whose document holds {@code "inline"} consolidated metadata is rewritten. On a store with
 * conditional writes its entries are updated (the node's new document, or the node and
 * everything below it removed), and the group's document is replaced only if unchanged since it
 * was read, else read and changed again: two writers below one group never lose each other's
 * entries. On a store without them the member is removed instead (invalidated): a writer that
 * raced with another can then lose nothing that readers would trust, since whichever document
 * lands last has no consolidated metadata at all; that removal is a plain write of the group's
 * document, though, which can undo another process's concurrent change of the group's own
 * attributes, as any two metadata writes to one document can on such a store. Entries are the
 * nodes' documents read after the group's, never the documents this writer wrote: of two writers
 * of one node, the one whose group write lands last has read the later document. Malformed
 * consolidated metadata is removed as well; members of other kinds, which zarrj does not read, are
 * left alone.
 */
final class ConsolidatedMetadataWrites {
    /** How often a conditional rewrite is tried before giving up on a document that keeps changing. */
    private static final int ATTEMPTS = 64;

    private ConsolidatedMetadataWrites() {}

    /**
     * Brings the consolidated metadata of these ancestors up to date with changes below them:
     * normalized paths mapped to new documents, or to null for erased subtrees.
     */
    static void update(Store store, Zarr.Ancestors ancestors, Map<String, ObjectNode> changes) {
        for (int i = 0; i < ancestors.paths().size(); i++) {
            Optional<ByteBuffer> bytes = ancestors.documents().get(i);
            if (bytes.isEmpty() || !consolidated(bytes.get())) {
                continue;
            }
            String group = ancestors.paths().get(i);
            Map<String, String> changed = new LinkedHashMap<>(); // relative path -> normalized path
            changes.forEach((p, d) -> ConsolidatedView.relative(group, p).ifPresent(r -> changed.put(r, p)));
            if (changed.isEmpty()) {
                continue;
            }
            String key = NodePath.metadataKey(group).value();
            boolean conditional = store.conditionalWrites().isPresent();
            rewrite(store, group, doc -> {
                JsonNode member = doc.get(ConsolidatedMetadata.MEMBER);
                if (!"group".equals(doc.path("node_type").asText()) || !ConsolidatedMetadata.isInline(member)) {
                    return null;
                }
                Optional<ConsolidatedMetadata> c = conditional ? ConsolidatedMetadata.read(doc, key) : Optional.empty();
                // The entries are the nodes' documents as they are now, read after the group's: of two
                // writers changing one node, the one whose group write lands last has read the later
                // document, so the entry cannot be left at the one that lost.
                Optional<Map<String, ObjectNode>> now = c.isEmpty() || c.get().hasUntrusted() ? Optional.empty()
                        : currentDocuments(store, changed);
                if (now.isEmpty()) {
                    doc.remove(ConsolidatedMetadata.MEMBER);
                } else {
                    doc.set(ConsolidatedMetadata.MEMBER, c.get().with(now.get()).toJson());
                }
                return doc;
            });
        }
    }

    /**
     * The current document of each changed node, by relative path (null where there is none); empty
     * when one is not a JSON object, which no consolidated entry may then claim to be.
     */
    private static Optional<Map<String, ObjectNode>> currentDocuments(Store store, Map<String, String> changed) {
        Map<String, ObjectNode> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : changed.entrySet()) {
            StoreKey nodeKey = NodePath.metadataKey(e.getValue());
            Optional<ByteBuffer> bytes = store.get(nodeKey);
            if (bytes.isEmpty()) {
                out.put(e.getKey(), null);
                continue;
            }
            JsonNode n;
            try {
                n = Json.parse(bytes.get(), nodeKey.value());
            } catch (InvalidMetadataException ex) {
                return Optional.empty();
            }
            if (!n.isObject()) {
                return Optional.empty();
            }
            out.put(e.getKey(), (ObjectNode) n);
        }
        return Optional.of(out);
    }

    /** Whether a document, as read, is a JSON object with an {@code "inline"} consolidated member. */
    private static boolean consolidated(ByteBuffer bytes) {
        try {
            JsonNode n = Json.parse(bytes, "zarr.json");
            return n.isObject() && ConsolidatedMetadata.isInline(n.get(ConsolidatedMetadata.MEMBER));
        } catch (InvalidMetadataException e) {
            return false; // not this write's to fix; opening that group reports it
        }
    }

    /**
     * Reads the document of the node at {@code path}, changes it and writes it back; with
     * conditional writes only if unchanged since it was read (else again).
     *
     * @param change the new document (it may change and return its argument), or null to write nothing
     * @return the document written, or the one read when nothing was written; empty when there is none
     */
    static Optional<ObjectNode> rewrite(Store store, String path, UnaryOperator<ObjectNode> change) {
        StoreKey key = NodePath.metadataKey(path);
        Optional<ConditionalWrites> cw = store.conditionalWrites();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            ByteBuffer bytes;
            String version = null;
            if (cw.isPresent()) {
                Optional<ConditionalWrites.VersionedValue> v = cw.get().getVersioned(key);
                if (v.isEmpty()) {
                    return Optional.empty();
                }
                bytes = v.get().value();
                version = v.get().version();
            } else {
                Optional<ByteBuffer> b = store.get(key);
                if (b.isEmpty()) {
                    return Optional.empty();
                }
                bytes = b.get();
            }
            JsonNode n = Json.parse(bytes, key.value());
            if (!n.isObject()) {
                throw new InvalidMetadataException("", "a metadata document must be a JSON object").inDocument(key.value());
            }
            ObjectNode read = (ObjectNode) n;
            ObjectNode next = change.apply(read.deepCopy());
            if (next == null) {
                return Optional.of(read);
            }
            ByteBuffer out = Json.write(next);
            if (cw.isEmpty()) {
                store.set(key, out);
                return Optional.of(next);
            }
            if (cw.get().setIfMatch(key, out, version)) {
                return Optional.of(next);
            }
        }
        throw new StoreException("'" + key + "' in " + store.describe() + " changed under each of " + ATTEMPTS
                + " attempts to update it; giving up", null);
    }

    /**
     * The documents of every node below the group at normalized path {@code group}, by path
     * relative to it, found by listing from group to group (each level's documents read at once).
     */
    static Map<String, ObjectNode> collect(Zarr zarr, Store store, String group) {
        Map<String, ObjectNode> out = new LinkedHashMap<>();
        ArrayDeque<String> groups = new ArrayDeque<>();
        groups.add(group);
        ExtensionResolver resolver = zarr.resolver();
        while (!groups.isEmpty()) {
            String g = groups.poll();
            String prefix = NodePath.prefix(g);
            ListDirResult dir = store.listDir(prefix);
            List<String> paths = new ArrayList<>();
            for (String p : dir.prefixes()) {
                String name = p.substring(prefix.length(), p.length() - 1);
                if (!name.startsWith("__")) {
                    paths.add(NodePath.child(g, name));
                }
            }
            List<Optional<ByteBuffer>> docs = zarr.metadataDocuments(store, paths);
            for (int i = 0; i < paths.size(); i++) {
                if (docs.get(i).isEmpty()) {
                    continue;
                }
                String key = NodePath.metadataKey(paths.get(i)).value();
                JsonNode n = Json.parse(docs.get(i).get(), key);
                try {
                    NodeDocuments.parse(n, key, resolver);
                } catch (UnknownExtensionException e) {
                    // A well-formed document with an extension zarrj lacks: other readers may have it.
                }
                ObjectNode doc = (ObjectNode) n;
                out.put(ConsolidatedView.relative(group, paths.get(i)).orElseThrow(), doc);
                if ("group".equals(doc.path("node_type").asText())) {
                    groups.add(paths.get(i));
                }
            }
        }
        return out;
    }

    /**
     * Sets the consolidated member of the group at normalized path {@code group}, keeping its other
     * members.
     *
     * @throws NodeNotFoundException when there is no group there
     */
    static GroupMetadata writeMember(Store store, String group, ObjectNode member, ExtensionResolver resolver) {
        StoreKey key = NodePath.metadataKey(group);
        Optional<ObjectNode> written = rewrite(store, group, doc -> {
            NodeDocuments.Node node = NodeDocuments.parse(doc, key.value(), resolver);
            if (node.group() == null) {
                throw new NodeNotFoundException("'" + NodePath.display(group) + "' in " + store.describe()
                        + " is an array, not a group");
            }
            doc.set(ConsolidatedMetadata.MEMBER, member);
            return doc;
        });
        return GroupMetadata.parse(written.orElseThrow(() -> new NodeNotFoundException("no group at '"
                + NodePath.display(group) + "' in " + store.describe() + " (no '" + key + "')")));
    }
}
