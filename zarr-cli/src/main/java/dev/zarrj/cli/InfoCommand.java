package dev.zarrj.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code zarr info}: the hierarchy as a compact tree (one line a node), in detail ({@code --long},
 * and always for a single array), or as one JSON document.
 */
@Command(name = "info", mixinStandardHelpOptions = true,
        footerHeading = "%nExamples:%n",
        footer = {"  zarr info data.zarr                  # the tree, with sizes",
                "  zarr info data.zarr --depth 1        # the root and its children",
                "  zarr info data.zarr --path /g -l     # every node below /g in detail",
                "  zarr info s3://bucket/data.zarr --json"},
        description = "Show the hierarchy. Below a group: a tree, one line a node with its type, shape, data type, "
                + "stored chunks and stored size (a group: the total of the arrays shown below it). With --long, "
                + "or for a single array: each node's path and type; for arrays shape, chunk (and shard) shape, "
                + "data type, codecs, fill value, stored chunks, stored bytes and compression ratio; attributes. "
                + "Below a group with consolidated metadata the nodes are read from them, with no request of their own "
                + "(zarr --no-consolidated info reads each node's zarr.json). Each node's Zarr format (3, or 2 for "
                + ".zarray/.zgroup/.zattrs) and the names of its stored documents; with --stored the documents themselves.")
final class InfoCommand implements Callable<Integer> {
    @ParentCommand
    ZarrCli root;

    @Parameters(index = "0", paramLabel = "STORE", description = "A directory, file:/zip:/memory:/http(s): URI, or .zip path.")
    String store;

    @Option(names = "--path", defaultValue = "/", description = "The node to start from (default: the root).")
    String path;

    @Option(names = "--json", description = "Print one JSON document instead of a tree.")
    boolean json;

    @Option(names = "--stored", description = "Also print each node's metadata documents as stored (a Zarr v2 "
            + "array's .zarray and .zattrs, a v3 node's zarr.json); below consolidated metadata this reads each "
            + "v2 node's documents.")
    boolean stored;

    @Option(names = "--depth", paramLabel = "N", description = "Descend at most N levels below the starting node "
            + "(0: the node alone; default: the whole hierarchy).")
    Integer depth;

    @Option(names = {"-l", "--long"}, description = "Every node in detail (as for a single array), not one line each "
            + "(--stored implies it).")
    boolean longForm;

    /** Per node: its level below the starting node. */
    private final Map<JsonNode, Integer> levels = new IdentityHashMap<>();

    /** Per array node: its data type and fill value as the tree prints them. */
    private final Map<JsonNode, String[]> text = new IdentityHashMap<>();

    @Override
    public Integer call() throws Exception {
        if (depth != null && depth < 0) {
            throw new UserError("--depth must be 0 or more, not " + depth);
        }
        Store s = root.openStore(store, true);
        ZarrNode node = root.zarr().open(s, path);
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.put("store", s.describe());
        ArrayNode nodes = doc.putArray("nodes");
        collect(node, s, nodes, false, 0);
        if (node instanceof ZarrGroup g && g.consolidatedPaths().isPresent()) {
            ((ObjectNode) nodes.get(0)).put("consolidated_nodes", g.consolidatedPaths().get().size());
            ((ObjectNode) nodes.get(0)).put("consolidated_document", ConsolidateCommand.consolidatedDocument(g));
        }
        if (json) {
            root.out().println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));
        } else {
            root.out().println("store: " + s.describe());
            if (longForm || stored || node instanceof ZarrArray) {
                for (JsonNode n : nodes) {
                    printTree(n);
                }
            } else {
                printCompact(nodes);
            }
        }
        return 0;
    }

    /**
     * Adds the node and those below it. {@code consolidated}: the node was opened from a group's
     * consolidated metadata, and a node stored in a format other than v3 would read its documents
     * again to name them.
     */
    private void collect(ZarrNode node, Store store, ArrayNode out, boolean consolidated, int level)
            throws InterruptedException, ExecutionException {
        ObjectNode n = out.addObject();
        levels.put(n, level);
        n.put("path", node.path());
        if (node instanceof ZarrArray a) {
            n.put("node_type", "array");
        } else {
            n.put("node_type", "group");
        }
        n.put("zarr_format", node.zarrFormat());
        if (stored || !consolidated || node.zarrFormat() == 3) {
            Map<String, ObjectNode> documents = node.storedMetadata();
            ArrayNode names = n.putArray("stored_documents");
            documents.keySet().stream().sorted(InfoCommand::documentOrder).forEach(names::add);
            if (stored) {
                ObjectNode docs = n.putObject("stored_metadata");
                names.forEach(name -> docs.set(name.asText(), documents.get(name.asText())));
            }
        }
        if (node instanceof ZarrArray a) {
            describeArray(a, store, n);
        }
        if (!node.attributes().isEmpty()) {
            n.set("attributes", node.attributes());
        }
        if (node instanceof ZarrGroup g) {
            if (!store.capabilities().listable() && g.consolidatedPaths().isEmpty()) {
                // An unlisted store (HTTP) cannot name a group's children, unless consolidated
                // metadata do; they open by path.
                n.put("children_listed", false);
                return;
            }
            if (depth != null && level >= depth) {
                int hidden = g.childNames().size();
                if (hidden > 0) {
                    n.put("children_not_shown", hidden);
                }
                return;
            }
            boolean below = consolidated || g.consolidatedPaths().isPresent();
            for (ZarrNode child : g.children()) {
                collect(child, store, out, below, level + 1);
            }
        }
    }

    private void describeArray(ZarrArray a, Store store, ObjectNode n) throws InterruptedException, ExecutionException {
        ObjectNode meta = a.metadata();
        n.set("shape", longs(a.shape()));
        JsonNode codecs = a.codecs();
        JsonNode first = codecs.size() > 0 ? codecs.get(0) : null;
        boolean sharded = first != null && first.isObject() && "sharding_indexed".equals(first.path("name").asText());
        if (sharded) {
            n.set("shard_shape", longs(a.chunkShape()));
            n.set("chunk_shape", first.path("configuration").path("chunk_shape"));
        } else {
            n.set("chunk_shape", longs(a.chunkShape()));
        }
        n.set("data_type", meta.get("data_type"));
        n.set("codecs", codecs);
        n.set("fill_value", meta.get("fill_value"));
        text.put(n, new String[] {ElementFormats.typeText(a.dataType()), ElementFormats.fillText(a.dataType(), a.fillValue())});
        a.dimensionNames().ifPresent(names -> {
            ArrayNode dn = n.putArray("dimension_names");
            names.forEach(dn::add);
        });
        if (!store.capabilities().listable()) {
            n.put("stored_chunks_listed", false);
            return;
        }
        StoredChunks chunks = StoredChunks.of(store, a);
        long stored = chunks.count();
        long bytes = chunks.bytes();
        double decoded = chunks.decoded();
        long[] grid = a.chunkGridShape();
        long total = 1;
        for (long g : grid) {
            total *= g;
        }
        n.put(sharded ? "stored_shards" : "stored_chunks", stored);
        n.put(sharded ? "grid_shards" : "grid_chunks", total);
        n.put("stored_bytes", bytes);
        // Variable-length elements have no decoded size to compare with, only an estimate.
        if (bytes > 0 && !a.dataType().kind().isVariableLength()) {
            n.put("compression_ratio", Math.round(100.0 * decoded / bytes) / 100.0);
        }
    }

    /** The node's own document first ({@code zarr.json}, {@code .zarray}, {@code .zgroup}), then by name. */
    private static int documentOrder(String a, String b) {
        boolean attrsA = a.equals(".zattrs");
        boolean attrsB = b.equals(".zattrs");
        return attrsA != attrsB ? (attrsA ? 1 : -1) : a.compareTo(b);
    }

    private static ArrayNode longs(long[] v) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        Arrays.stream(v).forEach(a::add);
        return a;
    }

    private void printTree(JsonNode n) {
        String path = n.get("path").asText();
        int depth = path.equals("/") ? 0 : (int) path.chars().filter(c -> c == '/').count();
        String indent = "  ".repeat(depth);
        StringBuilder sb = new StringBuilder(indent).append(path).append("  ").append(n.get("node_type").asText());
        if (n.get("node_type").asText().equals("array")) {
            String[] text = this.text.get(n);
            sb.append(' ').append(text != null ? text[0] : n.get("data_type").toString())
                    .append(" shape ").append(n.get("shape"));
            if (n.has("shard_shape")) {
                sb.append(" shards ").append(n.get("shard_shape")).append(" chunks ").append(n.get("chunk_shape"));
            } else {
                sb.append(" chunks ").append(n.get("chunk_shape"));
            }
            sb.append("\n").append(indent).append("    codecs ").append(n.get("codecs"));
            sb.append("\n").append(indent).append("    fill ").append(text != null ? text[1] : n.get("fill_value"));
            String unit = n.has("shard_shape") ? "shards" : "chunks";
            if (n.has("stored_chunks_listed")) {
                sb.append(", stored " + unit + " not listed (the store is not listable)");
            } else {
                sb.append(String.format(Locale.ROOT, ", stored %d of %d %s, %d bytes", n.path("stored_" + unit).asLong(),
                    n.path("grid_" + unit).asLong(), unit, n.path("stored_bytes").asLong()));
            }
            if (n.has("compression_ratio")) {
                sb.append(String.format(Locale.ROOT, ", ratio %.2f", n.get("compression_ratio").asDouble()));
            }
        }
        sb.append("\n").append(indent).append("    zarr format ").append(n.get("zarr_format").asInt());
        if (n.has("stored_documents")) {
            List<String> names = new ArrayList<>();
            n.get("stored_documents").forEach(d -> names.add(d.asText()));
            sb.append(" (").append(String.join(", ", names)).append(')');
        }
        if (n.has("attributes")) {
            sb.append("\n").append(indent).append("    attributes ").append(n.get("attributes"));
        }
        if (n.has("stored_metadata")) {
            n.get("stored_metadata").fields().forEachRemaining(d ->
                    sb.append("\n").append(indent).append("    stored ").append(d.getKey()).append(' ').append(d.getValue()));
        }
        if (n.has("consolidated_nodes")) {
            sb.append("\n").append(indent).append("    consolidated metadata: ").append(n.get("consolidated_nodes").asInt())
                    .append(" node(s) below, read with this group's ").append(n.path("consolidated_document").asText());
        }
        if (n.has("children_listed")) {
            sb.append("\n").append(indent).append("    children not listed (the store is not listable;"
                    + " name a child with --path)");
        }
        root.out().println(sb);
    }

    /**
     * One line a node, drawn as a tree ({@code ├──}, {@code └──}) with aligned columns: kind,
     * shape, data type, stored chunks of the grid, stored size. A group's size is the total of
     * the arrays listed below it.
     */
    private void printCompact(ArrayNode nodes) {
        int count = nodes.size();
        long[] totals = new long[count];
        boolean[] known = new boolean[count];
        int[] level = new int[count];
        for (int i = 0; i < count; i++) {
            level[i] = levels.getOrDefault(nodes.get(i), 0);
        }
        // Each array's bytes count for every group above it in the list.
        for (int i = count - 1; i >= 0; i--) {
            JsonNode n = nodes.get(i);
            if (n.has("stored_bytes")) {
                totals[i] = n.get("stored_bytes").asLong();
                known[i] = true;
            } else if (n.get("node_type").asText().equals("group")) {
                known[i] = !n.has("children_listed") && !n.has("children_not_shown");
                for (int j = i + 1; j < count && level[j] > level[i]; j++) {
                    if (level[j] == level[i] + 1) {
                        totals[i] += totals[j];
                        known[i] &= known[j];
                    }
                }
            }
        }
        List<String[]> rows = new ArrayList<>();
        boolean[] lastAt = new boolean[64];
        long arrays = 0;
        long groups = 0;
        for (int i = 0; i < count; i++) {
            JsonNode n = nodes.get(i);
            String path = n.get("path").asText();
            StringBuilder name = new StringBuilder();
            if (i == 0) {
                name.append(path);
            } else {
                boolean last = true;
                for (int j = i + 1; j < count && level[j] >= level[i]; j++) {
                    if (level[j] == level[i]) {
                        last = false;
                        break;
                    }
                }
                if (level[i] < lastAt.length) {
                    lastAt[level[i]] = last;
                }
                for (int d = 1; d < level[i]; d++) {
                    name.append(d < lastAt.length && lastAt[d] ? "    " : "│   ");
                }
                name.append(last ? "└── " : "├── ").append(path.substring(path.lastIndexOf('/') + 1));
            }
            boolean array = n.get("node_type").asText().equals("array");
            String[] row = new String[6];
            row[0] = name.toString();
            row[1] = array ? "array" : "group";
            if (array) {
                arrays++;
                String[] t = text.get(n);
                row[2] = LsCommand.shape(n.get("shape"));
                row[3] = t != null ? t[0] : n.get("data_type").toString();
                String unit = n.has("shard_shape") ? "shards" : "chunks";
                row[4] = n.has("stored_" + unit) ? n.get("stored_" + unit).asLong() + "/" + n.get("grid_" + unit).asLong()
                        + " " + unit : "";
            } else {
                groups++;
                row[2] = "";
                row[3] = "";
                row[4] = n.has("children_not_shown") ? "(" + n.get("children_not_shown").asInt() + " below)"
                        : n.has("children_listed") ? "(children not listed)" : "";
            }
            row[5] = known[i] ? humanBytes(totals[i]) : "";
            rows.add(row);
        }
        LsCommand.printColumns(root.out(), rows, true);
        root.out().printf("%d group(s), %d array(s)%s%n", groups, arrays,
                known[0] ? ", " + humanBytes(totals[0]) + " stored" : "");
    }

    /** Bytes for people: 1023 B, 1.0 KiB, 12.3 MiB, up to EiB. */
    static String humanBytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String units = "KMGTPE";
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length() - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, v < 10 ? "%.1f %siB" : "%.0f %siB", v, units.charAt(u));
    }
}
