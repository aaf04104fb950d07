package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Attributes;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** {@link Attributes} and {@link ZarrNode#attrs()} / {@link ZarrNode#updateAttributes(Map)} on arrays and groups. */
class TypedAttributesTest {
    private static final Zarr ZARR = Zarr.builder().threads(2).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @AfterAll
    static void close() {
        ZARR.close();
    }

    private static Attributes sample() throws Exception {
        return Attributes.of((ObjectNode) JSON.readTree("{\"units\": \"K\", \"scale\": 2, \"offset\": 0.5,"
                + " \"big\": 12345678901, \"huge\": 123456789012345678901234567890, \"ok\": true, \"none\": null,"
                + " \"dims\": [\"x\", 1, [true]], \"nested\": {\"a\": {\"b\": 3}}}"));
    }

    @Test
    void valuesAsTheTypeAsked() throws Exception {
        Attributes a = sample();
        assertEquals("K", a.get("units", String.class));
        assertEquals(2, a.get("scale", Integer.class));
        assertEquals(2L, a.get("scale", Long.class));
        assertEquals((short) 2, a.get("scale", Short.class));
        assertEquals(2.0, a.get("scale", Double.class));
        assertEquals(0.5f, a.get("offset", Float.class));
        assertEquals(12345678901L, a.get("big", Long.class));
        assertEquals(new BigInteger("123456789012345678901234567890"), a.get("huge", BigInteger.class));
        assertEquals(true, a.get("ok", Boolean.class));
        assertNull(a.get("none", String.class));
        assertEquals(List.of("x", 1L, List.of(true)), a.get("dims", List.class));
        assertEquals(Map.of("a", Map.of("b", 3L)), a.get("nested", Map.class));
        assertEquals(3, a.get("nested", ObjectNode.class).get("a").get("b").asInt());
        assertTrue(a.get("dims", JsonNode.class) instanceof ArrayNode);
        assertEquals(2L, a.get("scale", Number.class));
        assertEquals("K", a.get("units", Object.class));
    }

    @Test
    void aMismatchNamesTheAttribute() throws Exception {
        Attributes a = sample();
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class, () -> a.get("units", Integer.class));
        assertTrue(e.getMessage().contains("'units'") && e.getMessage().contains("a string"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> a.get("big", Integer.class));
        assertTrue(e.getMessage().contains("'big'") && e.getMessage().contains("Integer"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> a.get("offset", Long.class));
        assertTrue(e.getMessage().contains("'offset'"), "0.5 is not whole: " + e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> a.get("dims", Map.class));
        assertTrue(e.getMessage().contains("'dims'") && e.getMessage().contains("an array"), e.getMessage());
        e = assertThrows(InvalidMetadataException.class, () -> a.get("missing", String.class));
        assertTrue(e.getMessage().contains("'missing'"), e.getMessage());
        assertThrows(InvalidMetadataException.class, () -> a.getOptional("ok", String.class));
    }

    @Test
    void optionalMapContainsAndChangedCopies() throws Exception {
        Attributes a = sample();
        assertEquals(Optional.of("K"), a.getOptional("units", String.class));
        assertEquals(Optional.empty(), a.getOptional("missing", String.class));
        assertEquals(Optional.empty(), a.getOptional("none", String.class));
        assertTrue(a.contains("none"));
        assertFalse(a.contains("missing"));
        Map<String, Object> m = a.asMap();
        assertEquals("K", m.get("units"));
        assertTrue(m.containsKey("none") && m.get("none") == null);
        assertEquals(List.of("units", "scale", "offset", "big", "huge", "ok", "none", "dims", "nested"),
                List.copyOf(m.keySet()), "document order");
        assertThrows(UnsupportedOperationException.class, () -> m.put("x", 1));

        Attributes b = a.with("units", "degC").with("list", List.of(1, 2)).without("scale");
        assertEquals("K", a.get("units", String.class), "immutable");
        assertEquals("degC", b.get("units", String.class));
        assertEquals(List.of(1L, 2L), b.get("list", List.class));
        assertFalse(b.contains("scale"));
        assertEquals(b, Attributes.of(b.toJson()));
    }

    @Test
    void updatesMergeIntoTheStoredAttributesOfArraysAndGroups() {
        Store store = ZARR.openStore("memory:");
        ZarrGroup root = ZARR.createGroup(store, "/");
        ZarrArray a = ZARR.array(DataTypes.INT8, 4).attributes(Map.of("keep", 1, "drop", 2)).create(store, "/a");
        ZarrArray stale = ZARR.openArray(store, "/a");
        a.updateAttributes(Map.of("units", "K"));
        Map<String, Object> changes = new HashMap<>();
        changes.put("drop", null);
        changes.put("scale", 0.5);
        Attributes written = stale.updateAttributes(changes);   // a handle opened before the first update
        assertEquals(Map.of("keep", 1L, "units", "K", "scale", 0.5), written.asMap(), "the first update kept");
        assertEquals(written, ZARR.openArray(store, "/a").attrs());
        assertEquals(written.toJson(), ZARR.openArray(store, "/a").attributes(), "attributes() stays the raw JSON");
        assertEquals(written, stale.attrs());

        root.updateAttributes(Map.of("title", "t"));
        ZarrGroup staleRoot = ZARR.openGroup(store, "/");
        root.updateAttributes(Map.of("n", 3));
        staleRoot.updateAttributes(Map.of("m", 4));
        assertEquals(Map.of("title", "t", "n", 3L, "m", 4L), ZARR.openGroup(store, "/").attrs().asMap());
        assertThrows(IllegalArgumentException.class, () -> root.updateAttributes(Map.of("bad", new Object())));
        assertEquals(3, ZARR.openGroup(store, "/").attrs().get("n", Integer.class), "nothing written on a bad value");
    }

    @Test
    void updatesKeepConsolidatedMetadataCurrent() {
        Store store = ZARR.openStore("memory:");
        ZARR.createGroup(store, "/");
        ZARR.createGroup(store, "/g");
        ZARR.array(DataTypes.INT8, 4).create(store, "/g/a");
        ZarrGroup root = ZARR.consolidate(store, "/");
        root.openArray("g/a").updateAttributes(Map.of("units", "K"));
        root.openGroup("g").updateAttributes(Map.of("title", "t"));
        ZarrGroup fresh = ZARR.openGroup(store, "/");
        assertEquals("K", fresh.openArray("g/a").attrs().get("units", String.class));
        assertEquals("t", fresh.openGroup("g").attrs().get("title", String.class));
    }
}
