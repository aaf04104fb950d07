package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import org.junit.jupiter.api.Test;

/**
 * {@link Zarr#unstoredArray}: chunks written through a handle whose metadata are not stored, the
 * metadata stored last (as zarr-spark's job commit does), and nothing else written on the way.
 */
class UnstoredArrayTest {
    @Test
    void chunksAreWrittenWithoutMetadataAndReadOnceTheMetadataAreStored() {
        try (Zarr zarr = Zarr.defaults(); Store store = zarr.openStore("memory:")) {
            ObjectNode doc = zarr.array(DataTypes.INT32, 6, 4).chunks(3, 2).fillValue(-1).toMetadata();
            ZarrArray unstored = zarr.unstoredArray(store, "a/b", doc, 3);
            int[] values = new int[12];
            for (int i = 0; i < values.length; i++) {
                values[i] = i * 10;
            }
            unstored.write(new long[] {2, 1}, new long[] {4, 3}, values);
            assertFalse(zarr.exists(store, "a/b"), "no metadata stored by an unstored handle");
            assertFalse(store.exists(StoreKey.of("zarr.json")), "no ancestor group created");
            assertFalse(store.exists(StoreKey.of("a/zarr.json")), "no ancestor group created");
            assertTrue(store.list().stream().allMatch(k -> k.toString().startsWith("a/b/c/")), store.list().toString());

            zarr.createArray(store, "a/b", doc, false);
            NdArray read = zarr.openArray(store, "a/b").read();
            for (long r = 0; r < 6; r++) {
                for (long c = 0; c < 4; c++) {
                    int expected = r >= 2 && c >= 1 ? (int) (((r - 2) * 3 + (c - 1)) * 10) : -1;
                    assertEquals(expected, read.getLong(r, c), "element (" + r + ", " + c + ")");
                }
            }
        }
    }

    @Test
    void aGroupDocumentOrAnInvalidOneIsRefused() {
        try (Zarr zarr = Zarr.defaults(); Store store = zarr.openStore("memory:")) {
            ObjectNode group = zarr.createGroup(store, "g").metadata();
            assertThrows(InvalidMetadataException.class, () -> zarr.unstoredArray(store, "x", group, 3));
            ObjectNode broken = zarr.array(DataTypes.INT8, 4).toMetadata();
            broken.put("fill_value", "not a number");
            assertThrows(InvalidMetadataException.class, () -> zarr.unstoredArray(store, "y", broken, 3));
        }
    }
}
