package dev.zarrj.core.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.NodeNotFoundException;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.UnsupportedFormatException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Core reads and writes nodes through a third party's metadata format ({@link ToyFormat}) as
 * through Zarr v3: found where there is no zarr.json, written as the format's documents, only
 * those that change, with its consolidated document, its fill-value rule and its error origins.
 */
class MetadataFormatHookTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private Zarr zarr;
    private Store store;

    @BeforeEach
    void open() {
        ExtensionRegistry.Builder registry = ExtensionRegistry.builder();
        for (ExtensionPoint p : ExtensionPoint.values()) {
            registry.loadAll(p, ServiceLoader.load(p.providerType(), getClass().getClassLoader()));
        }
        registry.add(new ToyFormat());
        zarr = Zarr.builder().registry(registry.build()).threads(2).build();
        store = zarr.openStore("memory:");
    }

    @AfterEach
    void close() {
        store.close();
        zarr.close();
    }

    private JsonNode doc(String key) throws Exception {
        ByteBuffer b = store.get(StoreKey.of(key)).orElseThrow(() -> new AssertionError("no " + key));
        byte[] a = new byte[b.remaining()];
        b.get(a);
        return JSON.readTree(a);
    }

    private void put(String key, String json) {
        store.set(StoreKey.of(key), ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)));
    }

    private ObjectNode attrs(String k, int v) {
        return JsonNodeFactory.instance.objectNode().put(k, v);
    }

    @Test
    void anArrayIsCreatedAndFoundInItsFormat() throws Exception {
        try (ZarrArray a = zarr.array(DataTypes.INT32, 6).chunks(3).attributes(attrs("x", 1)).zarrFormat(1)
                .create(store, "/g/a")) {
            a.write(new long[] {0}, new long[] {6}, new int[] {1, 2, 3, 4, 5, 6});
        }
        assertFalse(store.exists(StoreKey.of("g/a/zarr.json")));
        assertFalse(store.exists(StoreKey.of("g/zarr.json")), "the ancestor is created in the array's format");
        assertEquals("group", doc("g/toy.node").path("node_type").asText());
        assertEquals(1, doc("g/a/toy.attrs").path("x").asInt());
        assertFalse(doc("g/a/toy.node").has("attributes"));

        ZarrNode n = zarr.open(store, "/g/a");
        assertEquals(1, n.zarrFormat());
        assertEquals(List.of("toy.attrs", "toy.node"), List.copyOf(n.storedMetadata().keySet()));
        assertEquals(1, n.attributes().path("x").asInt());
        assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6}, ((ZarrArray) n).read(new long[] {0}, new long[] {6}).toIntArray());
        assertEquals(1, zarr.openGroup(store, "/g").zarrFormat());
        assertEquals(List.of("a"), zarr.openGroup(store, "/g").childNames());
    }

    @Test
    void anAttributeChangeWritesOnlyTheDocumentThatHoldsThem() throws Exception {
        put("a/toy.node", "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[4],\"data_type\":\"uint8\","
                + "\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[2]}},"
                + "\"chunk_key_encoding\":{\"name\":\"default\"},\"fill_value\":0,"
                + "\"codecs\":[{\"name\":\"bytes\"}],\"toy_no_fill\":true}");
        ByteBuffer before = store.get(StoreKey.of("a/toy.node")).orElseThrow();
        ZarrArray a = zarr.openArray(store, "/a");
        a.setAttributes(attrs("k", 2));
        assertEquals(before, store.get(StoreKey.of("a/toy.node")).orElseThrow(), "toy.node is not rewritten");
        assertEquals(2, doc("a/toy.attrs").path("k").asInt());

        a.resize(new long[] {8}, false);
        assertEquals(8, doc("a/toy.node").path("shape").get(0).asInt());
        assertTrue(doc("a/toy.node").path("toy_no_fill").asBoolean(), "what v3 cannot say is kept: " + doc("a/toy.node"));
        assertEquals(8, zarr.openArray(store, "/a").shape()[0]);
    }

    @Test
    void aFormatWithoutFillValueStoresChunksOfFillValue() {
        put("a/toy.node", "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[4],\"data_type\":\"uint8\","
                + "\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[2]}},"
                + "\"chunk_key_encoding\":{\"name\":\"default\"},\"fill_value\":0,"
                + "\"codecs\":[{\"name\":\"bytes\"}],\"toy_no_fill\":true}");
        zarr.openArray(store, "/a").write(new long[] {0}, new long[] {4}, new byte[4]);
        assertTrue(store.exists(StoreKey.of("a/c/0")) && store.exists(StoreKey.of("a/c/1")),
                "a missing chunk would be undefined to the format's readers");

        try (ZarrArray b = zarr.array(DataTypes.UINT8, 4).chunks(2).zarrFormat(1).create(store, "/b")) {
            b.write(new long[] {0}, new long[] {4}, new byte[4]);
        }
        assertFalse(store.exists(StoreKey.of("b/c/0")), "with a fill value, empty chunks are skipped as usual");
    }

    @Test
    void zarrJsonIsPreferredAndEachFormatCanBeAskedFor() {
        zarr.array(DataTypes.INT8, 2).create(store, "/a");
        zarr.array(DataTypes.INT16, 3).zarrFormat(1).create(zarr.openStore("memory:"), "/unused");
        put("a/toy.node", "{\"zarr_format\":3,\"node_type\":\"group\"}");
        assertEquals(3, zarr.open(store, "/a").zarrFormat());
        assertTrue(zarr.open(store, "/a") instanceof ZarrArray);
        assertTrue(zarr.open(store, "/a", 1) instanceof ZarrGroup);
        NodeNotFoundException e = assertThrows(NodeNotFoundException.class, () -> zarr.open(store, "/b"));
        assertTrue(e.getMessage().contains("'b/zarr.json'") && e.getMessage().contains("'b/toy.node'"), e.getMessage());
    }

    @Test
    void anErrorInATranslatedPartNamesTheStoredField() {
        put("a/toy.node", "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[4],\"data_type\":\"uint8\","
                + "\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[2]}},"
                + "\"chunk_key_encoding\":{\"name\":\"default\"},\"fill_value\":0,"
                + "\"codecs\":[{\"name\":\"bytes\"},{\"name\":\"no-such-codec\"}]}");
        UnknownExtensionException e = assertThrows(UnknownExtensionException.class, () -> zarr.openArray(store, "/a"));
        assertEquals("/codecs", e.pointer());
        assertTrue(e.getMessage().contains("in 'a/toy.node'") && e.getMessage().contains("no-such-codec"), e.getMessage());
    }

    @Test
    void aFormatThatIsNotInstalledIsNamed() {
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> zarr.createGroup(store, "/g", null, 2));
        assertTrue(e.getMessage().contains("zarr-format-v2"), e.getMessage());
        assertThrows(UnsupportedFormatException.class, () -> zarr.array(DataTypes.INT8, 2).zarrFormat(7));
    }

    @Test
    void childrenAreCreatedInTheGroupsFormatAndErasedInIt() throws Exception {
        ZarrGroup g = zarr.createGroup(store, "/g", attrs("level", 0), 1);
        g.createGroup("sub");
        g.array(DataTypes.FLOAT32, 2).create(g, "arr");
        assertTrue(store.exists(StoreKey.of("g/sub/toy.node")) && store.exists(StoreKey.of("g/arr/toy.node")));
        assertEquals(List.of("arr", "sub"), zarr.openGroup(store, "/g").childNames());
        g.erase("arr");
        assertFalse(store.exists(StoreKey.of("g/arr/toy.node")));
        assertEquals(List.of("sub"), zarr.openGroup(store, "/g").childNames());
        assertFalse(zarr.exists(store, "/g/arr"));
        assertTrue(zarr.exists(store, "/g/sub"));
    }

    @Test
    void consolidatedMetadataLiveInTheFormatsDocumentAndStayCurrent() throws Exception {
        ZarrGroup root = zarr.createGroup(store, "/", null, 1);
        zarr.array(DataTypes.INT32, 4).zarrFormat(1).create(store, "/a");
        zarr.createGroup(store, "/g", null, 1);
        zarr.consolidate(store, "/");
        assertFalse(store.exists(StoreKey.of("zarr.json")));
        assertEquals(List.of("a", "g"), ToyFormat.names(doc("toy.all").get("nodes")));
        assertFalse(doc("toy.node").has("consolidated_metadata"));

        ZarrGroup reopened = zarr.openGroup(store, "/");
        assertEquals(List.of("a", "g"), reopened.consolidatedPaths().orElseThrow());
        ZarrArray a = reopened.openArray("a");
        a.resize(new long[] {9}, false);
        assertEquals(9, doc("toy.all").get("nodes").get("a").path("shape").get(0).asInt(),
                "the consolidated entry follows the change: " + doc("toy.all"));
        assertEquals(9, doc("a/toy.node").path("shape").get(0).asInt());
        reopened.erase("g");
        assertEquals(List.of("a"), ToyFormat.names(doc("toy.all").get("nodes")));
        assertEquals(1, root.zarrFormat());
    }

    @Test
    void readingAndWritingValuesIsTheSameAsInV3() {
        NdArray values = NdArray.copyOf(DataTypes.FLOAT64, new double[] {1.5, -2, 3, Double.NaN}, 2, 2);
        try (ZarrArray a = zarr.array(DataTypes.FLOAT64, 2, 2).chunks(1, 2).zarrFormat(1).create(store, "/f")) {
            a.write(new long[] {0, 0}, values);
        }
        ZarrArray back = zarr.openArray(store, "/f", 1);
        assertTrue(values.contentEquals(back.read(new long[] {0, 0}, new long[] {2, 2})));
        assertThrows(NodeNotFoundException.class, () -> zarr.openArray(store, "/f", 3));
    }

    @Test
    void aNodeIsNotCreatedBelowAGroupOfAnotherFormat() {
        zarr.createGroup(store, "/v3");
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> zarr.array(DataTypes.INT8, 2).zarrFormat(1).create(store, "/v3/a"));
        assertTrue(e.getMessage().contains("'/v3'") && e.getMessage().contains("zarr_format 3"), e.getMessage());
        assertFalse(store.exists(StoreKey.of("v3/toy.node")), "nothing is written");
        assertFalse(store.exists(StoreKey.of("v3/a/toy.node")));
    }

    @Test
    void documentsOfFormatsBeforeV3AreWrittenInAscii() throws Exception {
        ObjectNode text = JsonNodeFactory.instance.objectNode().put("title", "Zürich 東京");
        zarr.createGroup(store, "/toy", text, 1);
        Store v3Store = zarr.openStore("memory:");
        zarr.createGroup(v3Store, "/v3", text);
        ByteBuffer toy = store.get(StoreKey.of("toy/toy.attrs")).orElseThrow();
        while (toy.hasRemaining()) {
            assertTrue(toy.get() >= 0, "only ASCII bytes");
        }
        assertEquals("Zürich 東京", zarr.openGroup(store, "/toy").attributes().path("title").asText());
        String v3 = StandardCharsets.UTF_8.decode(v3Store.get(StoreKey.of("v3/zarr.json")).orElseThrow()).toString();
        v3Store.close();
        assertTrue(v3.contains("Zürich 東京"), "zarr.json stays UTF-8: " + v3);
    }

    @Test
    void aGroupIsNotCreatedOverANodeOfAnotherFormat() {
        zarr.array(DataTypes.INT8, 2).create(store, "/a");
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> zarr.createGroup(store, "/a", null, 1));
        assertTrue(e.getMessage().contains("zarr_format 3"), e.getMessage());
        assertFalse(store.exists(StoreKey.of("a/toy.node")));
        assertTrue(zarr.open(store, "/a") instanceof ZarrArray);
    }
}
