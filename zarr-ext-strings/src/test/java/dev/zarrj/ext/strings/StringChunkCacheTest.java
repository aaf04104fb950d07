package dev.zarrj.ext.strings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.selection.IndexList;
import dev.zarrj.core.selection.Selection;
import org.junit.jupiter.api.Test;

/** The decoded-chunk cache with arrays whose elements are objects: copies in and out, invalidation. */
class StringChunkCacheTest {
    @Test
    void stringChunksAreCachedAsCopies() {
        try (Zarr zarr = Zarr.builder().threads(2).chunkCache(1 << 20).build()) {
            Store store = zarr.openStore("memory:");
            ZarrArray a = zarr.array(StringTypes.STRING, 6, 4).chunks(3, 2).fillValue("").create(store, "/s");
            String[] v = new String[24];
            for (int i = 0; i < v.length; i++) {
                v[i] = "v" + i;
            }
            a.write(new long[] {0, 0}, NdArray.copyOf(StringTypes.STRING, v, 6, 4));
            assertArrayEquals(v, a.read().toStringArray());
            assertTrue(zarr.chunkCacheBytes() > 0, "kept");
            NdArray chunk = a.readChunk(0, 0);
            chunk.setString(0, "changed by the caller");
            assertEquals("v0", a.readChunk(0, 0).getString(0));
            assertArrayEquals(v, a.read().toStringArray());
            assertArrayEquals(new String[] {v[21], v[1]}, a.read(Selection.of(IndexList.of(5, 0), IndexList.of(1)))
                    .toStringArray());
            a.write(new long[] {5, 1}, NdArray.copyOf(StringTypes.STRING, new String[] {"new"}, 1, 1));
            assertEquals("new", a.read(new long[] {5, 1}, new long[] {1, 1}).getString(0));
        }
    }
}
