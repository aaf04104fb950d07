package dev.zarrj.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NodeNotFoundException;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.internal.format.MetadataIo;
import dev.zarrj.core.internal.format.StoredNode;
import dev.zarrj.core.internal.hierarchy.ConsolidatedMetadata;
import dev.zarrj.core.internal.hierarchy.ConsolidatedView;
import dev.zarrj.core.internal.hierarchy.NodePath;
import dev.zarrj.core.internal.metadata.ExtensionResolver;
import dev.zarrj.core.internal.metadata.NodeDocuments;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
    private ConsolidatedMetadataWrites() {}

    /**
     * Brings the consolidated metadata of these ancestors up to date with changes below them:
     * normalized paths mapped to new documents, or to null for erased subtrees.
     */
    static void update(Store store, Zarr.Ancestors ancestors, Map<String, ObjectNode> changes) {
        MetadataFormat format = ancestors.format();
        for (int i = 0; i < ancestors.paths().size(); i++) {
            // An ancestor whose documents cannot be read is not this write's to fix; opening it reports it.
            Optional<StoredNode> read = ancestors.nodes().get(i).node();
            if (read.isEmpty() || !ConsolidatedMetadata.isInline(read.get().translated().document()
                    .get(ConsolidatedMetadata.MEMBER))) {
                continue;
            }
            String group = ancestors.paths().get(i);
            Map<String, String> changed = new LinkedHashMap<>(); // relative path -> normalized path
            changes.forEach((p, d) -> ConsolidatedView.relative(group, p).ifPresent(r -> changed.put(r, p)));
            if (changed.isEmpty()) {
                continue;
            }
            String key = read.get().key();
            boolean conditional = store.conditionalWrites().isPresent();
            MetadataIo.rewrite(store, group, format, doc -> {
                JsonNode member = doc.get(ConsolidatedMetadata.MEMBER);
                if (!"group".equals(doc.path("node_type").asText()) || !ConsolidatedMetadata.isInline(member)) {
                    return null;
                }
                Optional<ConsolidatedMetadata> c = conditional ? ConsolidatedMetadata.read(doc, key) : Optional.empty();
                // The entries are the nodes' documents as they are now, read after the group's: of two
                // writers changing one node, the one whose group write lands last has read the later
                // document, so the entry cannot be left at the one that lost.
                Optional<Map<String, ObjectNode>> now = c.isEmpty() || c.get().hasUntrusted() ? Optional.empty()
                        : currentDocuments(store, changed, format);
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
     * when one is not valid, which no consolidated entry may then claim to be.
     */
    private static Optional<Map<String, ObjectNode>> currentDocuments(Store store, Map<String, String> changed,
                                                                      MetadataFormat format) {
        Map<String, ObjectNode> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : changed.entrySet()) {
            Optional<StoredNode> node;
            try {
                node = MetadataIo.read(store, e.getValue(), format, false);
            } catch (InvalidMetadataException ex) {
                return Optional.empty();
            }
            out.put(e.getKey(), node.map(StoredNode::document).orElse(null));
        }
        return Optional.of(out);
    }

    /**
     * The documents of every node below the group at normalized path {@code group}, by path
     * relative to it, found by listing from group to group (each level's documents read at once).
     */
    static Map<String, ObjectNode> collect(Zarr zarr, Store store, String group, MetadataFormat format) {
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
            List<Optional<StoredNode>> nodes = zarr.nodes(store, paths, format, false);
            for (int i = 0; i < paths.size(); i++) {
                if (nodes.get(i).isEmpty()) {
                    continue;
                }
                StoredNode n = nodes.get(i).get();
                try {
                    NodeDocuments.parse(n, resolver);
                } catch (UnknownExtensionException e) {
                    // A well-formed document with an extension zarrj lacks: other readers may have it.
                }
                ObjectNode doc = n.document();
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
     * @return the group as written
     * @throws NodeNotFoundException when there is no group there
     */
    static StoredNode writeMember(Store store, String group, ObjectNode member, ExtensionResolver resolver,
                                  MetadataFormat format) {
        String prefix = NodePath.prefix(group);
        Optional<StoredNode> written = MetadataIo.rewrite(store, group, format, doc -> {
            NodeDocuments.Node node = NodeDocuments.parse(doc, prefix + format.documentNames().get(0), resolver);
            if (node.group() == null) {
                throw new NodeNotFoundException("'" + NodePath.display(group) + "' in " + store.describe()
                        + " is an array, not a group");
            }
            doc.set(ConsolidatedMetadata.MEMBER, member);
            return doc;
        });
        return written.orElseThrow(() -> new NodeNotFoundException("no group at '" + NodePath.display(group) + "' in "
                + store.describe()));
    }
}
