package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import org.junit.jupiter.api.Test;

/** {@link ChunkCache}: versions against racing writes, layouts, accounting. */
class ChunkCacheUnitTest {
    private static NdArray chunk(int value) {
        NdArray a = NdArray.allocate(DataTypes.INT32, 5, 5);
        a.setLong(0, value);
        return a;
    }

    @Test
    void aReadThatRacedWithAWriteDoesNotPutTheOldChunk() {
        ChunkCache cache = new ChunkCache(10_000);
        Store store = Zarr.defaults().openStore("memory:");
        ChunkCache.Key k = new ChunkCache.Key(store, "a/c/0/0");
        long version = cache.version(k);       // a read misses and fetches the old value...
        cache.invalidate(store, "a/c/0/0");    // ...a write stores the new one...
        cache.put(k, "L", version, chunk(1));  // ...the read would keep the old one
        assertNull(cache.copy(k, "L"));
        cache.put(k, "L", cache.version(k), chunk(2));
        assertEquals(2, cache.copy(k, "L").getLong(0));
    }

    @Test
    void anotherLayoutMissesAndAccountingFollowsEntries() {
        ChunkCache cache = new ChunkCache(400); // chunks up to 100 bytes kept
        Store store = Zarr.defaults().openStore("memory:");
        ChunkCache.Key k = new ChunkCache.Key(store, "a/c/0/0");
        cache.put(k, "L", cache.version(k), chunk(1));
        assertFalse(cache.contains(k, "other"));
        assertTrue(cache.contains(k, "L"));
        assertEquals(100, cache.bytes());
        for (int i = 1; i <= 4; i++) {
            cache.put(new ChunkCache.Key(store, "a/c/0/" + i), "L", 0, chunk(i));
        }
        assertEquals(400, cache.bytes(), "the oldest dropped to stay within 400");
        assertEquals(4, cache.size());
        assertFalse(cache.contains(k, "L"));
        cache.invalidatePrefix(store, "a/");
        assertEquals(0, cache.bytes());
        assertEquals(0, cache.size());
    }
}
