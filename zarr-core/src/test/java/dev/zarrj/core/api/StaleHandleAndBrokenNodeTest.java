package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Metadata writes through a handle change the metadata as stored now, never skip a write because
 * the handle's own copy looks unchanged; and a node whose document cannot be read can still be
 * listed, erased and overwritten, and does not block writes below it.
 */
class StaleHandleAndBrokenNodeTest {
    private final Zarr zarr = Zarr.builder().threads(1).build();
    private final Store store = zarr.openStore("memory:");

    @AfterEach
    void close() {
        store.close();
        zarr.close();
    }

    private static ObjectNode attrs(int x) {
        return JsonNodeFactory.instance.objectNode().put("x", x);
    }

    private void put(String key, String text) {
        store.set(StoreKey.of(key), ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void anAttributeChangeThroughAnOlderHandleIsWritten() {
        zarr.array(DataTypes.INT8, 4).attributes(attrs(1)).create(store, "/a");
        ZarrArray first = zarr.openArray(store, "/a");
        zarr.openArray(store, "/a").setAttributes(attrs(2));
        first.setAttributes(attrs(1));   // the handle still holds x = 1: the store does not
        assertEquals(1, zarr.openArray(store, "/a").attributes().path("x").asInt());
    }

    @Test
    void aResizeThroughAnOlderHandleIsWrittenAndKeepsOtherChanges() {
        zarr.array(DataTypes.INT8, 8).chunks(2).create(store, "/a");
        ZarrArray first = zarr.openArray(store, "/a");
        ZarrArray second = zarr.openArray(store, "/a");
        second.resize(new long[] {12}, false);
        second.setAttributes(attrs(5));
        first.resize(new long[] {8}, false);   // the handle's shape was 8 already
        ZarrArray now = zarr.openArray(store, "/a");
        assertArrayEquals(new long[] {8}, now.shape());
        assertEquals(5, now.attributes().path("x").asInt(), "the other handle's attributes stay");
        assertArrayEquals(new long[] {8}, first.shape());
    }

    @Test
    void aNodeWhoseDocumentIsBrokenIsListedErasedAndOverwritten() {
        zarr.createGroup(store, "/g");
        zarr.array(DataTypes.INT8, 2).create(store, "/g/ok");
        put("g/bad/zarr.json", "{\"zarr_format\":3,");    // a truncated write
        ZarrGroup g = zarr.openGroup(store, "/g");
        assertEquals(List.of("bad", "ok"), g.childNames());
        assertThrows(InvalidMetadataException.class, g::children, "opening it reports it");
        assertTrue(zarr.exists(store, "/g/bad"));
        assertTrue(g.exists("bad"));

        ZarrArray fresh = zarr.array(DataTypes.INT16, 3).overwrite(true).create(store, "/g/bad");
        assertEquals(DataTypes.INT16, fresh.dataType());
        put("g/bad/zarr.json", "not json");
        zarr.erase(store, "/g/bad");
        assertFalse(store.exists(StoreKey.of("g/bad/zarr.json")));
    }

    @Test
    void aBrokenAncestorDoesNotBlockMetadataWritesBelowIt() {
        zarr.array(DataTypes.INT8, 4).create(store, "/g/a");
        put("g/zarr.json", "[]");
        ZarrArray a = zarr.openArray(store, "/g/a");
        a.setAttributes(attrs(3));
        a.resize(new long[] {6}, false);
        assertEquals(3, zarr.openArray(store, "/g/a").attributes().path("x").asInt());
    }
}
