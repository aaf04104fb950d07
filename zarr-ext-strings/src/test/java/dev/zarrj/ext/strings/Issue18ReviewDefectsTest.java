package dev.zarrj.ext.strings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.selection.IndexList;
import dev.zarrj.core.selection.Selection;
import org.junit.jupiter.api.Test;

/** Defects found reviewing issue 18 with arrays of objects; each test failed before its fix. */
class Issue18ReviewDefectsTest {
    /**
     * The decoded-chunk cache counted a chunk of strings by the data type's per-element estimate,
     * so chunks of long strings were kept far beyond the budget (a 1 MiB cache held 4 MB here).
     */
    @Test
    void theChunkCacheCountsTheContentOfStringChunksAgainstItsBudget() {
        try (Zarr zarr = Zarr.builder().threads(2).chunkCache(1 << 20).build()) {
            Store store = zarr.openStore("memory:");
            ZarrArray a = zarr.array(StringTypes.STRING, 10).chunks(1).fillValue("").create(store, "/s");
            String[] v = new String[10];
            for (int i = 0; i < v.length; i++) {
                v[i] = String.valueOf((char) ('a' + i)).repeat(100_000); // about 200 KB each in memory
            }
            a.write(new long[] {0}, NdArray.copyOf(StringTypes.STRING, v, 10));
            for (int i = 0; i < v.length; i++) {
                assertEquals(v[i], a.read(Selection.of(IndexList.of(i))).getString(0));
            }
            long kept = zarr.chunkCacheBytes();
            assertTrue(kept >= 4 * 200_000L && kept <= 1 << 20, "kept " + kept + " bytes of 1 MiB");

            ZarrArray big = zarr.array(StringTypes.STRING, 2).chunks(2).fillValue("").create(store, "/big");
            big.write(new long[] {0}, NdArray.copyOf(StringTypes.STRING, new String[] {"x".repeat(150_000), "y"}, 2));
            assertEquals("y", big.read(Selection.of(IndexList.of(1))).getString(0));
            assertEquals("y", big.readChunk(0).getString(1));
            assertTrue(zarr.chunkCacheBytes() <= 1 << 20);
            assertEquals(kept, zarr.chunkCacheBytes(), "a chunk of 300 KB, more than a quarter of the budget, is not kept");
        }
    }
}
