package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.NodeNotFoundException;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Consolidated metadata: reading zarr-python's {@code consolidated_metadata} member, opening and
 * listing through it with no further metadata request, writing it, and keeping it current (or
 * removing it) when nodes below change.
 */
class ConsolidatedMetadataTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Zarr zarr = Zarr.builder().threads(2).build();
    private final Zarr direct = Zarr.builder().threads(2).useConsolidatedMetadata(false).build();

    @AfterEach
    void close() {
        zarr.close();
        direct.close();
    }

    /**
     * 100 arrays: 20 at the root, 10 in each of g0..g3 and 10 in each of g0/s..g3/s; each array
     * holds its number in every element.
     */
    private void hierarchy(Store store) {
        zarr.createGroup(store, "/");
        int n = 0;
        for (int i = 0; i < 20; i++) {
            array(store, "r" + i, n++);
        }
        for (int g = 0; g < 4; g++) {
            for (int i = 0; i < 10; i++) {
                array(store, "g" + g + "/a" + i, n++);
                array(store, "g" + g + "/s/b" + i, n++);
            }
        }
        assertEquals(100, n);
    }

    private void array(Store store, String path, int value) {
        try (ZarrArray a = zarr.array(DataTypes.INT32, 4).chunks(2).create(store, path)) {
            a.write(new long[] {0}, new long[] {4}, new int[] {value, value, value, value});
        }
    }

    private static ObjectNode document(Store store, String key) {
        try {
            ByteBuffer b = store.get(StoreKey.of(key)).orElseThrow();
            byte[] a = new byte[b.remaining()];
            b.get(a);
            return (ObjectNode) JSON.readTree(a);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void put(Store store, String key, String json) {
        store.set(StoreKey.of(key), ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)));
    }

    /** Every node below a group, by relative path, found by listing (no consolidated metadata). */
    private List<String> walk(Store store) {
        List<String> out = new ArrayList<>();
        walk(direct.openGroup(store, "/"), "", out);
        return out;
    }

    private static void walk(ZarrGroup g, String base, List<String> out) {
        for (ZarrNode c : g.children()) {
            String rel = base.isEmpty() ? c.name() : base + "/" + c.name();
            out.add(rel);
            if (c instanceof ZarrGroup cg) {
                walk(cg, rel, out);
            }
        }
    }

    /**
     * The root's consolidated metadata list exactly the nodes the store holds, each with its own
     * document (a group's with zarr-python's empty member of its own).
     */
    private void assertCurrent(Store store) {
        ObjectNode root = document(store, "zarr.json");
        JsonNode md = root.path("consolidated_metadata").path("metadata");
        assertTrue(md.isObject(), "consolidated metadata present: " + root);
        List<String> nodes = walk(store);
        assertEquals(new TreeSet<>(nodes), fieldNames(md), "nodes listed");
        for (String p : nodes) {
            ObjectNode own = document(store, p + "/zarr.json");
            ObjectNode entry = (ObjectNode) md.get(p).deepCopy();
            if ("group".equals(own.path("node_type").asText())) {
                ObjectNode empty = JSON.createObjectNode().put("kind", "inline").put("must_understand", false);
                empty.putObject("metadata");
                assertEquals(empty, entry.remove("consolidated_metadata"), p);
                own.remove("consolidated_metadata");
            }
            assertEquals(own, entry, "entry of " + p);
        }
    }

    private static TreeSet<String> fieldNames(JsonNode n) {
        TreeSet<String> out = new TreeSet<>();
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }

    // ---- reading ----

    @Test
    void openingAnyNodeOfAHundredArrayHierarchyCostsOneRequest() {
        CountingStore store = new CountingStore(zarr.openStore("memory:"), true);
        hierarchy(store);
        ZarrGroup consolidated = zarr.consolidate(store, "/");
        List<String> paths = consolidated.consolidatedPaths().orElseThrow();
        assertEquals(108, paths.size(), "100 arrays and 8 groups");
        int arrays = 0;
        for (String p : paths) {
            store.reset();
            ZarrGroup root = zarr.openGroup(store, "/");
            ZarrNode n = root.open(p);
            assertEquals(List.of("get zarr.json"), store.requests, "opening " + p + " from the root");
            assertEquals("/" + p, n.path());
            if (n instanceof ZarrArray a) {
                arrays++;
                assertEquals(4, a.shape()[0]);
            }
        }
        assertEquals(100, arrays);
        // Array data still comes from the store: the metadata were the only thing saved.
        store.reset();
        int[] values = zarr.openGroup(store, "/").openArray("g3/s/b9").read().toIntArray();
        assertEquals(99, values[0]);
    }

    @Test
    void listingChildrenAndWalkingTheTreeCostNothingBeyondTheRootDocument() {
        CountingStore store = new CountingStore(zarr.openStore("memory:"), true);
        hierarchy(store);
        zarr.consolidate(store, "/");
        List<String> expected = walk(store);
        store.reset();

        ZarrGroup root = zarr.openGroup(store, "/");
        List<String> walked = new ArrayList<>();
        walk(root, "", walked);
        List<String> names = root.childNames();
        List<String> subNames = root.openGroup("g2").openGroup("s").childNames();
        boolean there = root.exists("g1/s/b3");
        boolean absent = root.exists("g1/s/nothing");

        assertEquals(List.of("get zarr.json"), store.requests, "one request for the whole walk");
        assertEquals(expected, walked, "the same tree, in the same order, as listing finds");
        assertEquals(24, names.size(), names.toString());
        assertEquals(10, subNames.size());
        assertTrue(there);
        assertFalse(absent);
    }

    @Test
    void aStoreThatCannotBeListedListsChildrenFromConsolidatedMetadata() {
        CountingStore store = new CountingStore(zarr.openStore("memory:"), true);
        hierarchy(store);
        zarr.consolidate(store, "/");
        store.listable = false;
        store.reset();

        List<String> walked = new ArrayList<>();
        walk(zarr.openGroup(store, "/"), "", walked);

        assertEquals(108, walked.size());
        assertEquals(List.of("get zarr.json"), store.requests);
        assertThrows(UnsupportedOperationException.class, () -> direct.openGroup(store, "/").childNames(),
                "without them, children need a listing");
    }

    @Test
    void withConsolidatedMetadataTurnedOffEveryNodeIsReadFromItsOwnDocument() {
        CountingStore store = new CountingStore(zarr.openStore("memory:"), true);
        hierarchy(store);
        zarr.consolidate(store, "/");
        store.reset();

        ZarrGroup root = direct.openGroup(store, "/");
        ZarrArray a = root.openArray("g1/s/b2");
        assertEquals(List.of("get zarr.json", "get g1/s/b2/zarr.json"), store.requests);
        assertTrue(root.consolidatedPaths().isEmpty());
        store.reset();
        assertEquals(24, root.childNames().size());
        assertEquals("list_dir ", store.requests.get(0), "children found by listing");
        assertEquals(4, a.shape()[0]);
    }

    @Test
    void aNodeMissingFromTheConsolidatedMetadataIsNotFoundWithoutARequest() {
        CountingStore store = new CountingStore(zarr.openStore("memory:"), true);
        hierarchy(store);
        zarr.consolidate(store, "/");
        ZarrGroup root = zarr.openGroup(store, "/");
        store.reset();

        NodeNotFoundException e = assertThrows(NodeNotFoundException.class, () -> root.open("g0/nothing"));
        assertTrue(e.getMessage().contains("consolidated metadata of '/'") && e.getMessage().contains("useConsolidatedMetadata"),
                e.getMessage());
        assertEquals(List.of(), store.requests);
        assertThrows(NodeNotFoundException.class, () -> root.openGroup("r3"), "an array is not a group");
    }

    @Test
    void consolidatedMetadataAreASnapshotThatAnotherWritersChangesDoNotReach() {
        Store memory = zarr.openStore("memory:");
        hierarchy(memory);
        zarr.consolidate(memory, "/");
        // Another writer, not keeping the consolidated metadata current, adds an array.
        put(memory, "late/zarr.json", document(memory, "r0/zarr.json").toString());

        assertFalse(zarr.openGroup(memory, "/").exists("late"), "the snapshot does not know it");
        assertThrows(NodeNotFoundException.class, () -> zarr.openGroup(memory, "/").open("late"));
        assertTrue(direct.openGroup(memory, "/").exists("late"), "the store does");
        assertInstanceOf(ZarrArray.class, direct.openGroup(memory, "/").open("late"));
        // Opening the node itself, without going through the group, reads its own document.
        assertInstanceOf(ZarrArray.class, zarr.open(memory, "/late"));
    }

    @Test
    void readsZarrPythonsFlatFormAndTheNestedForm() throws IOException {
        CountingStore store = new CountingStore(zarr.openStore("memory:"), true);
        hierarchy(store);
        ObjectNode arrayDoc = document(store, "r0/zarr.json");
        // The nested form: group "n" lists its own children, relative to itself; "m" is flat.
        ObjectNode root = document(store, "zarr.json");
        ObjectNode member = root.putObject("consolidated_metadata");
        member.put("kind", "inline").put("must_understand", false);
        ObjectNode md = member.putObject("metadata");
        ObjectNode n = md.putObject("n");
        n.put("zarr_format", 3).put("node_type", "group");
        ObjectNode nm = n.putObject("consolidated_metadata");
        nm.put("kind", "inline").put("must_understand", false);
        nm.putObject("metadata").set("x", arrayDoc);
        ObjectNode m = md.putObject("m");
        m.put("zarr_format", 3).put("node_type", "group").putNull("consolidated_metadata");
        md.set("m/y", arrayDoc);
        put(store, "zarr.json", root.toString());
        store.reset();

        ZarrGroup g = zarr.openGroup(store, "/");
        assertEquals(List.of("m", "n"), g.childNames());
        assertEquals(List.of("x"), g.openGroup("n").childNames());
        assertInstanceOf(ZarrArray.class, g.open("n/x"));
        assertInstanceOf(ZarrArray.class, g.open("m/y"));
        assertEquals(List.of("get zarr.json"), store.requests);
    }

    @Test
    void anUnknownKindIsIgnoredWithAWarningUnlessItMustBeUnderstood() {
        CountingStore store = new CountingStore(zarr.openStore("memory:"), true);
        hierarchy(store);
        ObjectNode root = document(store, "zarr.json");
        root.putObject("consolidated_metadata").put("kind", "sidecar").put("must_understand", false);
        put(store, "zarr.json", root.toString());

        ZarrGroup g = zarr.openGroup(store, "/");
        assertTrue(g.consolidatedPaths().isEmpty(), "not used");
        store.reset();
        assertInstanceOf(ZarrArray.class, g.open("g0/a0"));
        assertEquals(List.of("get g0/a0/zarr.json"), store.requests, "nodes read from the store");

        root.putObject("consolidated_metadata").put("kind", "sidecar").put("must_understand", true);
        put(store, "zarr.json", root.toString());
        UnknownExtensionException e = assertThrows(UnknownExtensionException.class, () -> zarr.openGroup(store, "/"));
        assertTrue(e.getMessage().contains("consolidated_metadata") && e.getMessage().contains("sidecar"), e.getMessage());
        assertThrows(UnknownExtensionException.class, () -> direct.openGroup(store, "/"), "also when not used");

        // Malformed: 'metadata' is not an object. Ignored, never failing the open.
        root.putObject("consolidated_metadata").put("kind", "inline").put("must_understand", false).put("metadata", 3);
        put(store, "zarr.json", root.toString());
        assertTrue(zarr.openGroup(store, "/").consolidatedPaths().isEmpty());
        assertEquals(24, zarr.openGroup(store, "/").childNames().size(), "listed from the store");
    }

    @Test
    void aMalformedEntryIsNotTrustedAndItsNodeIsReadFromTheStore() {
        CountingStore store = new CountingStore(zarr.openStore("memory:"), true);
        hierarchy(store);
        zarr.consolidate(store, "/");
        ObjectNode root = document(store, "zarr.json");
        ObjectNode md = (ObjectNode) root.get("consolidated_metadata").get("metadata");
        ((ObjectNode) md.get("r1")).put("shape", "not a shape");   // a document, but invalid
        md.put("r2", "not a document");
        put(store, "zarr.json", root.toString());
        ZarrGroup g = zarr.openGroup(store, "/");
        store.reset();

        ZarrArray r1 = g.openArray("r1");
        ZarrArray r2 = g.openArray("r2");

        assertEquals(List.of("get r1/zarr.json", "get r2/zarr.json"), store.requests);
        assertEquals(4, r1.shape()[0]);
        assertEquals(4, r2.shape()[0]);
        assertTrue(g.childNames().contains("r1") && g.childNames().contains("r2"), "still listed as children");
    }

    // ---- writing ----

    @Test
    void consolidateWritesZarrPythonsFormKeepingTheGroupsOtherMembers() throws IOException {
        Store store = zarr.openStore("memory:");
        hierarchy(store);
        ObjectNode attrs = JSON.createObjectNode().put("answer", 42);
        zarr.openGroup(store, "/").setAttributes(attrs);
        ObjectNode root = document(store, "zarr.json");
        root.putObject("other_member").put("must_understand", false);
        put(store, "zarr.json", root.toString());

        ZarrGroup g = zarr.consolidate(store, "/");

        ObjectNode after = document(store, "zarr.json");
        assertEquals(attrs, after.get("attributes"));
        assertEquals(root.get("other_member"), after.get("other_member"));
        JsonNode member = after.get("consolidated_metadata");
        assertEquals("inline", member.get("kind").asText());
        assertFalse(member.get("must_understand").asBoolean(true));
        List<String> keys = new ArrayList<>();
        member.get("metadata").fieldNames().forEachRemaining(keys::add);
        // By depth, then name: zarr-python 3.1.1's order.
        assertEquals("g0", keys.get(0));
        assertEquals("r9", keys.get(23));
        assertEquals("g0/a0", keys.get(24));
        assertEquals("g3/s/b9", keys.get(keys.size() - 1));
        assertEquals(108, g.consolidatedPaths().orElseThrow().size());
        assertCurrent(store);
        // A nested group's own document is not touched.
        assertFalse(document(store, "g0/zarr.json").has("consolidated_metadata"));
    }

    @Test
    void consolidatingASubgroupListsOnlyWhatIsBelowIt() {
        CountingStore store = new CountingStore(zarr.openStore("memory:"), true);
        hierarchy(store);
        ZarrGroup g = zarr.consolidate(store, "/g1");
        assertEquals(21, g.consolidatedPaths().orElseThrow().size(), "10 arrays, s and its 10");
        assertFalse(document(store, "zarr.json").has("consolidated_metadata"));
        store.reset();
        assertInstanceOf(ZarrArray.class, zarr.openGroup(store, "/g1").open("s/b4"));
        assertEquals(List.of("get g1/zarr.json"), store.requests);
        assertThrows(NodeNotFoundException.class, () -> zarr.consolidate(store, "/r0"), "an array");
        assertThrows(NodeNotFoundException.class, () -> zarr.consolidate(store, "/nothing"));
    }

    @Test
    void creatingAnArrayBelowAConsolidatedGroupAddsItsEntry() {
        Store store = zarr.openStore("memory:");
        hierarchy(store);
        ZarrGroup root = zarr.consolidate(store, "/");

        zarr.array(DataTypes.INT8, 3).create(store, "/g2/s/new/deep");      // and the missing group 'new'
        root.array(DataTypes.INT8, 5).create(root, "direct");

        assertCurrent(store);
        assertTrue(zarr.openGroup(store, "/").exists("g2/s/new/deep"));
        assertTrue(root.childNames().contains("direct"), "the handle's own view knows its write");
        assertEquals(5, root.openArray("direct").shape()[0]);
    }

    @Test
    void creatingAGroupBelowAConsolidatedGroupAddsItsEntry() {
        Store store = zarr.openStore("memory:");
        hierarchy(store);
        ZarrGroup root = zarr.consolidate(store, "/");

        root.createGroup("h/i");
        zarr.createGroup(store, "/g0/s/t");

        assertCurrent(store);
        assertEquals(List.of("i"), root.openGroup("h").childNames());
        assertTrue(zarr.openGroup(store, "/").exists("g0/s/t"));
    }

    @Test
    void erasingANodeBelowAConsolidatedGroupRemovesItAndEverythingBelowIt() {
        Store store = zarr.openStore("memory:");
        hierarchy(store);
        ZarrGroup root = zarr.consolidate(store, "/");

        root.erase("g1");
        zarr.erase(store, "/r5");

        assertCurrent(store);
        assertEquals(108 - 22 - 1, zarr.openGroup(store, "/").consolidatedPaths().orElseThrow().size());
        assertFalse(root.exists("g1/s/b0"), "the handle's own view knows its write");
        assertThrows(NodeNotFoundException.class, () -> zarr.openGroup(store, "/").open("g1"));
    }

    @Test
    void settingAttributesBelowAConsolidatedGroupUpdatesTheEntry() {
        Store store = zarr.openStore("memory:");
        hierarchy(store);
        ZarrGroup root = zarr.consolidate(store, "/");
        ObjectNode attrs = JSON.createObjectNode().put("units", "K");

        root.openArray("g0/s/b1").setAttributes(attrs);
        zarr.openGroup(store, "/g3").setAttributes(attrs);
        zarr.openGroup(store, "/").setAttributes(attrs);   // the consolidated group itself keeps its member

        assertCurrent(store);
        assertEquals(attrs, zarr.openGroup(store, "/").openArray("g0/s/b1").attributes());
        assertEquals(attrs, zarr.openGroup(store, "/").openGroup("g3").attributes());
        assertEquals(attrs, root.openArray("g0/s/b1").attributes(), "the handle's own view knows its write");
    }

    @Test
    void settingTheConsolidatedGroupsAttributesKeepsEntriesWrittenSinceItWasOpened() {
        Store store = zarr.openStore("memory:");
        hierarchy(store);
        zarr.consolidate(store, "/");
        ZarrGroup root = zarr.openGroup(store, "/");
        zarr.array(DataTypes.INT8, 2).create(store, "/later");     // another handle's write

        root.setAttributes(JSON.createObjectNode().put("units", "K"));

        assertCurrent(store);
        assertTrue(zarr.openGroup(store, "/").exists("later"));
        assertEquals("K", document(store, "zarr.json").get("attributes").get("units").asText());
    }

    @Test
    void resizingAnArrayBelowAConsolidatedGroupUpdatesTheEntry() {
        Store store = zarr.openStore("memory:");
        hierarchy(store);
        zarr.consolidate(store, "/");

        zarr.openGroup(store, "/").openArray("g2/a3").resize(new long[] {9}, false);

        assertCurrent(store);
        assertEquals(9, zarr.openGroup(store, "/").openArray("g2/a3").shape()[0]);
    }

    @Test
    void withoutConditionalWritesAWriteBelowRemovesTheConsolidatedMetadata() {
        CountingStore store = new CountingStore(zarr.openStore("memory:"), false);
        hierarchy(store);
        zarr.openGroup(store, "/").setAttributes(JSON.createObjectNode().put("keep", true));
        zarr.consolidate(store, "/");
        assertTrue(document(store, "zarr.json").has("consolidated_metadata"));

        zarr.array(DataTypes.INT8, 3).create(store, "/g0/extra");

        ObjectNode root = document(store, "zarr.json");
        assertFalse(root.has("consolidated_metadata"), "invalidated: " + root);
        assertTrue(root.get("attributes").get("keep").asBoolean(), "other members kept");
        assertTrue(zarr.openGroup(store, "/").openGroup("g0").childNames().contains("extra"));
    }

    @Test
    void twoWritersBelowOneConsolidatedGroupLoseNeitherEntry() {
        Store memory = zarr.openStore("memory:");
        CountingStore store = new CountingStore(memory, true);
        hierarchy(store);
        zarr.consolidate(store, "/");
        // Just before this writer's conditional update of the root, another one adds an array.
        boolean[] once = {true};
        store.beforeSetIfMatch = k -> {
            if (k.value().equals("zarr.json") && once[0]) {
                once[0] = false;
                zarr.array(DataTypes.INT8, 2).create(memory, "/other");
            }
        };

        zarr.array(DataTypes.INT8, 2).create(store, "/mine");

        assertFalse(once[0], "the race happened");
        assertCurrent(memory);
        ZarrGroup root = zarr.openGroup(memory, "/");
        assertTrue(root.exists("mine") && root.exists("other"));
    }
}
