package dev.zarrj.store.zip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.ZipStoreOptions.Compression;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZipStoresTest {
    @TempDir
    Path tmp;

    @Test
    void optionsDefaultToStoredEntries() {
        assertEquals(new ZipStoreOptions(Compression.STORED, -1), ZipStoreOptions.defaults());
        assertEquals(new ZipStoreOptions(Compression.DEFLATED, 3),
                ZipStoreOptions.defaults().withCompression(Compression.DEFLATED).withLevel(3));
        for (int bad : new int[] {-2, 10}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ZipStoreOptions.defaults().withLevel(bad));
            assertTrue(e.getMessage().contains(String.valueOf(bad)), e.getMessage());
        }
        assertThrows(NullPointerException.class, () -> new ZipStoreOptions(null, 1));
    }

    /**
     * The sizes of a listing come from the central directory (the value's size, not the deflated
     * one) merged with the writes not yet saved: replaced, added and erased keys.
     */
    @Test
    void listPrefixSizesMergesTheCentralDirectoryWithPendingWrites() {
        Path zip = tmp.resolve("sizes.zip");
        ZipStoreOptions deflated = ZipStoreOptions.defaults().withCompression(Compression.DEFLATED);
        try (Store s = ZipStores.update(zip, "", deflated)) {
            for (String k : List.of("a/c/0", "a/c/1", "a/c/2", "b/x")) {
                s.set(StoreKey.of(k), ByteBuffer.wrap(new byte[1000]));
            }
        }
        List<KeySize> expected = List.of(new KeySize(StoreKey.of("a/c/0"), 1000), new KeySize(StoreKey.of("a/c/1"), 7),
                new KeySize(StoreKey.of("a/c/3"), 0));
        try (Store s = ZipStores.update(zip, "", deflated)) {
            s.set(StoreKey.of("a/c/1"), ByteBuffer.wrap(new byte[7]));
            s.set(StoreKey.of("a/c/3"), ByteBuffer.allocate(0));
            s.erase(StoreKey.of("a/c/2"));
            assertEquals(expected, s.listPrefixSizes("a/"));
        }
        try (Store r = ZipStores.open(zip, "")) {
            assertEquals(expected, r.listPrefixSizes("a/"));
            assertEquals(List.of(new KeySize(StoreKey.of("b/x"), 1000)), r.listPrefixSizes("b/"));
        }
    }

    @Test
    void theInnerFolderMayBeWrittenWithOrWithoutSlashes() {
        Path zip = tmp.resolve("f.zip");
        try (Store s = ZipStores.update(zip, "a/b", ZipStoreOptions.defaults())) {
            s.set(StoreKey.of("zarr.json"), ByteBuffer.wrap(new byte[] {'{', '}'}));
        }
        for (String folder : List.of("a/b", "/a/b/", "a/b/", "/a/b")) {
            try (Store s = ZipStores.open(zip, folder)) {
                assertEquals(List.of(StoreKey.of("zarr.json")), s.list(), folder);
                assertEquals("zip:" + zip.toAbsolutePath() + "!/a/b", s.describe());
            }
        }
        for (String root : new String[] {"", "/", null}) {
            try (Store s = ZipStores.open(zip, root)) {
                assertEquals(List.of(StoreKey.of("a/b/zarr.json")), s.list(), root);
            }
        }
        for (String bad : List.of("a/../b", "a//b", "a\\b", "..")) {
            InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> ZipStores.open(zip, bad), bad);
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
    }
}
