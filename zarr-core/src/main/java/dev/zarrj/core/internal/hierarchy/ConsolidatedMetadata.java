package dev.zarrj.core.internal.hierarchy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.UnknownExtensionException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The {@code consolidated_metadata} member zarr-python 3 writes into a group's {@code zarr.json}:
 * {@code {"kind": "inline", "must_understand": false, "metadata": {path: document, ...}}}, the
 * paths relative to that group, nested ones included ({@code "a/b"}). Immutable.
 *
 * <p>zarr-python writes the flat form, every descendant under its full relative path, and gives
 * each nested group an empty member of its own; a nested group's member may also hold its
 * children itself (the nested form, relative to that group). Both are read into one flat map.
 */
public final class ConsolidatedMetadata {
    private static final System.Logger LOG = System.getLogger(ConsolidatedMetadata.class.getName());

    /** The group member's name. */
    public static final String MEMBER = "consolidated_metadata";

    /** zarr-python 3.1.1's order: by depth, then by path. */
    private static final Comparator<String> ORDER = Comparator.<String>comparingInt(
            p -> (int) p.chars().filter(c -> c == '/').count()).thenComparing(Comparator.naturalOrder());

    private final TreeMap<String, ObjectNode> entries;
    private final Set<String> untrusted;

    private ConsolidatedMetadata(TreeMap<String, ObjectNode> entries, Set<String> untrusted) {
        this.entries = entries;
        this.untrusted = untrusted;
    }

    /** Consolidated metadata listing no node. */
    public static ConsolidatedMetadata empty() {
        return new ConsolidatedMetadata(new TreeMap<>(ORDER), Set.of());
    }

    /**
     * Reads a group document's member, or empty when it has none ({@code null}, as zarr-python up
     * to 3.1.3 wrote, or absent). A member of another {@code kind}, or one that is not the shape
     * above, is ignored with a logged warning: zarr-python marks it {@code "must_understand":
     * false}, so the group opens and its nodes are read from their own documents. Entries that are
     * not node documents, or whose path is not a valid node path, are left out with a warning, and
     * those nodes too are read from their own documents.
     *
     * @param where the group's key, for messages
     * @throws UnknownExtensionException when the member is of an unknown kind and says
     *                                   {@code "must_understand": true}
     */
    public static Optional<ConsolidatedMetadata> read(ObjectNode groupDocument, String where) {
        JsonNode m = groupDocument.get(MEMBER);
        if (m == null || m.isNull()) {
            return Optional.empty();
        }
        checkUnderstood(groupDocument, where);
        String problem = problem(m);
        if (problem != null) {
            LOG.log(Level.WARNING, "ignoring the " + MEMBER + " of '" + where + "': " + problem
                    + "; its nodes are read from their own documents");
            return Optional.empty();
        }
        TreeMap<String, ObjectNode> entries = new TreeMap<>(ORDER);
        Set<String> untrusted = new TreeSet<>();
        collect("", (ObjectNode) m.get("metadata"), where, entries, untrusted);
        return Optional.of(new ConsolidatedMetadata(entries, Collections.unmodifiableSet(untrusted)));
    }

    /**
     * Fails when a group document's member is one zarrj cannot use and says it must be understood;
     * checked whether or not consolidated metadata is used.
     *
     * @throws UnknownExtensionException naming the member and what is wrong with it
     */
    public static void checkUnderstood(ObjectNode groupDocument, String where) {
        JsonNode m = groupDocument.get(MEMBER);
        if (m == null || m.isNull()) {
            return;
        }
        String problem = problem(m);
        JsonNode mu = m.get("must_understand");
        if (problem != null && mu != null && mu.isBoolean() && mu.booleanValue()) {
            String in = where.isEmpty() ? "" : "in '" + where + "': ";
            throw new UnknownExtensionException("/" + MEMBER, MEMBER, in + "the " + MEMBER + " member cannot be used: "
                    + problem + ", and it is marked \"must_understand\": true");
        }
    }

    /** Whether a member is of the kind zarrj reads and writes ({@code "inline"}), well formed or not. */
    public static boolean isInline(JsonNode member) {
        return member != null && member.isObject() && "inline".equals(member.path("kind").asText(null));
    }

    /** What is wrong with a member zarrj cannot use, or null. */
    private static String problem(JsonNode m) {
        if (!m.isObject()) {
            return "it is not a JSON object but " + abbreviate(m);
        }
        JsonNode kind = m.get("kind");
        if (kind == null || !kind.isTextual() || !kind.textValue().equals("inline")) {
            return "its kind is " + (kind == null ? "missing" : abbreviate(kind)) + ", and zarrj reads only \"inline\"";
        }
        JsonNode md = m.get("metadata");
        if (md == null || !md.isObject()) {
            return "its 'metadata' is " + (md == null ? "missing" : "not a JSON object but " + abbreviate(md));
        }
        return null;
    }

    private static void collect(String base, ObjectNode metadata, String where, Map<String, ObjectNode> out,
            Set<String> untrusted) {
        for (Iterator<Map.Entry<String, JsonNode>> it = metadata.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String path;
            try {
                path = NodePath.normalize(base.isEmpty() ? e.getKey() : base + "/" + e.getKey());
            } catch (InvalidKeyException ex) {
                LOG.log(Level.WARNING, "ignoring entry '" + e.getKey() + "' of the " + MEMBER + " of '" + where
                        + "': " + ex.getMessage());
                continue;
            }
            if (path.isEmpty()) {
                LOG.log(Level.WARNING, "ignoring an entry for the group itself in the " + MEMBER + " of '" + where + "'");
                continue;
            }
            JsonNode doc = e.getValue();
            JsonNode type = doc.get("node_type");
            if (!doc.isObject() || type == null || !type.isTextual()
                    || !(type.textValue().equals("array") || type.textValue().equals("group"))) {
                LOG.log(Level.WARNING, "entry '" + path + "' of the " + MEMBER + " of '" + where
                        + "' is not an array or group document (" + abbreviate(doc) + "); that node is read from the store");
                untrusted.add(path);
                continue;
            }
            if (out.containsKey(path)) {
                // The flat form's entry and a nested group's own listing of the same node.
                if (!out.get(path).equals(doc)) {
                    LOG.log(Level.WARNING, "the " + MEMBER + " of '" + where + "' lists '" + path
                            + "' twice, differently; that node is read from the store");
                    untrusted.add(path);
                }
                continue;
            }
            out.put(path, (ObjectNode) doc);
            JsonNode nested = doc.get(MEMBER);
            if (type.textValue().equals("group") && nested != null && problem(nested) == null) {
                collect(path, (ObjectNode) nested.get("metadata"), where, out, untrusted);
            }
        }
        for (String p : untrusted) {
            out.remove(p);
        }
    }

    private static String abbreviate(JsonNode n) {
        String s = n.toString();
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }

    /** The document of the node at this relative path, as listed (not a copy: do not change it). */
    public Optional<ObjectNode> get(String relativePath) {
        return Optional.ofNullable(entries.get(relativePath));
    }

    /** Whether some entries were left out as malformed. */
    public boolean hasUntrusted() {
        return !untrusted.isEmpty();
    }

    /** Whether the entry for this path was left out as malformed: read that node from the store. */
    public boolean untrusted(String relativePath) {
        return untrusted.contains(relativePath);
    }

    /** Whether the node at this relative path is listed, or is to be read from the store. */
    public boolean lists(String relativePath) {
        return entries.containsKey(relativePath) || untrusted.contains(relativePath);
    }

    /** The relative paths listed, by depth then name. */
    public List<String> paths() {
        return List.copyOf(entries.keySet());
    }

    /** How many nodes are listed. */
    public int size() {
        return entries.size();
    }

    /**
     * The names of the listed children of the node at this relative path ({@code ""} for the
     * group itself), sorted; malformed entries included, as they name nodes.
     */
    public List<String> childNames(String relativePath) {
        String prefix = relativePath.isEmpty() ? "" : relativePath + "/";
        TreeSet<String> names = new TreeSet<>();
        for (String p : entries.keySet()) {
            childName(p, prefix, names);
        }
        for (String p : untrusted) {
            childName(p, prefix, names);
        }
        return List.copyOf(names);
    }

    private static void childName(String p, String prefix, Set<String> names) {
        if (p.startsWith(prefix) && p.length() > prefix.length() && p.indexOf('/', prefix.length()) < 0) {
            names.add(p.substring(prefix.length()));
        }
    }

    /**
     * These consolidated metadata after changes below the group: each path mapped to its node's
     * new document, or to null when that node and everything below it was erased. A new array
     * document also drops what was listed below it.
     */
    public ConsolidatedMetadata with(Map<String, ObjectNode> changes) {
        TreeMap<String, ObjectNode> next = new TreeMap<>(entries);
        Set<String> nextUntrusted = new TreeSet<>(untrusted);
        for (Map.Entry<String, ObjectNode> c : changes.entrySet()) {
            String p = c.getKey();
            ObjectNode doc = c.getValue();
            if (doc == null || "array".equals(doc.path("node_type").asText())) {
                String below = p + "/";
                next.keySet().removeIf(k -> k.equals(p) || k.startsWith(below));
                nextUntrusted.removeIf(k -> k.equals(p) || k.startsWith(below));
            }
            if (doc != null) {
                next.put(p, entry(doc));
                nextUntrusted.remove(p);
            }
        }
        return new ConsolidatedMetadata(next, Collections.unmodifiableSet(nextUntrusted));
    }

    /**
     * A node's document as an entry: as stored, except that a group gets an empty member of its
     * own (zarr-python's flat form, which reads its children from the enclosing listing).
     */
    public static ObjectNode entry(ObjectNode document) {
        ObjectNode e = document.deepCopy();
        if ("group".equals(e.path("node_type").asText())) {
            ObjectNode own = JsonNodeFactory.instance.objectNode();
            own.put("kind", "inline");
            own.put("must_understand", false);
            own.putObject("metadata");
            e.set(MEMBER, own);
        }
        return e;
    }

    /** Consolidated metadata listing these documents by relative path (made entries with {@link #entry}). */
    public static ConsolidatedMetadata of(Map<String, ObjectNode> documents) {
        TreeMap<String, ObjectNode> entries = new TreeMap<>(ORDER);
        documents.forEach((p, d) -> entries.put(p, entry(d)));
        return new ConsolidatedMetadata(entries, Set.of());
    }

    /** The member as written: kind, must_understand, and the entries by depth, then path. */
    public ObjectNode toJson() {
        ObjectNode m = JsonNodeFactory.instance.objectNode();
        m.put("kind", "inline");
        m.put("must_understand", false);
        ObjectNode md = m.putObject("metadata");
        Map<String, ObjectNode> ordered = new LinkedHashMap<>(entries);
        ordered.forEach((p, d) -> md.set(p, d.deepCopy()));
        return m;
    }

    /** Relative paths of the listed arrays, for callers that walk them. */
    public List<String> arrays() {
        List<String> out = new ArrayList<>();
        entries.forEach((p, d) -> {
            if ("array".equals(d.path("node_type").asText())) {
                out.add(p);
            }
        });
        return out;
    }
}
