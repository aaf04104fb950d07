package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Two handles change one array below a consolidated group: B's whole update lands while A's
 * rewrite of the group is between its read and its conditional write. The group's entry must end
 * as the array's document that stays (B's), not as the one A wrote first.
 */
class ConsolidatedEntryRaceTest {
    static JsonNode doc(CountingStore s, String key) throws Exception {
        ByteBuffer b = s.get(StoreKey.of(key)).orElseThrow();
        byte[] a = new byte[b.remaining()];
        b.get(a);
        return new ObjectMapper().readTree(a);
    }

    @Test
    void ofTwoWritersOfOneNodeTheConsolidatedEntryShowsTheDocumentThatStays() throws Exception {
        Zarr zarr = Zarr.defaults();
        CountingStore store = new CountingStore(zarr.openStore("memory:"), true);
        zarr.createGroup(store, "/g", null);
        zarr.array(DataTypes.INT32, 4).chunks(2).create(store, "/g/a").close();
        zarr.consolidate(store, "/g");
        ZarrArray a = zarr.openArray(store, "/g/a");
        ZarrArray b = zarr.openArray(store, "/g/a");
        AtomicBoolean once = new AtomicBoolean();
        store.beforeSetIfMatch = k -> {
            if (k.value().equals("g/zarr.json") && once.compareAndSet(false, true)) {
                b.setAttributes(JsonNodeFactory.instance.objectNode().put("who", "B"));
            }
        };
        a.setAttributes(JsonNodeFactory.instance.objectNode().put("who", "A"));
        String actual = doc(store, "g/a/zarr.json").path("attributes").path("who").asText();
        String consolidated = doc(store, "g/zarr.json").path("consolidated_metadata").path("metadata")
                .path("a").path("attributes").path("who").asText();
        assertEquals(actual, consolidated, "consolidated entry must match the array's document");
    }
}
