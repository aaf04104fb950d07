package dev.zarrj.store.zip.internal;

import static dev.zarrj.store.zip.internal.Zips.array;
import static dev.zarrj.store.zip.internal.Zips.bytes;
import static dev.zarrj.store.zip.internal.Zips.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.store.zip.ZipStoreOptions;
import dev.zarrj.store.zip.ZipStores;
import dev.zarrj.store.zip.internal.Zips.Item;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Something at a key's name that is not one value: the name listed twice in the central
 * directory, or a directory entry. Neither is "absent" (which would read as fill values): every
 * read of the key fails naming it, the rest of the archive reads, and writing the key repairs it.
 */
class ZipNameConflictTest {
    @TempDir
    Path tmp;

    static StoreKey k(String key) {
        return StoreKey.of(key);
    }

    static ZipStore open(Path zip, ZipStore.Mode mode) {
        return ZipStore.open(zip, "", mode, ZipStoreOptions.defaults());
    }

    /** Every way of reading {@code key} fails with a StoreException naming it and {@code what}. */
    static void everyReadFails(Store s, String key, String what) {
        List<Consumer<Store>> reads = List.of(st -> st.get(k(key)), st -> st.get(k(key), ByteRange.suffix(2)),
                st -> st.get(k(key), ByteRange.of(0, 1)), st -> st.size(k(key)), st -> st.exists(k(key)));
        for (Consumer<Store> read : reads) {
            StoreException e = assertThrows(StoreException.class, () -> read.accept(s), key);
            assertTrue(e.getMessage().contains("key '" + key + "'") && e.getMessage().contains(what), e.getMessage());
        }
    }

    Path duplicated() throws IOException {
        return Zips.write(tmp.resolve("dup.zip"), Item.stored("c/0", utf8("first")), Item.stored("zarr.json", utf8("{}")),
                Item.stored("c/0", utf8("second")));
    }

    @Test
    void aNameListedTwiceFailsItsKeyOnlyAndIsListedOnce() throws IOException {
        Path zip = duplicated();
        for (ZipStore.Mode mode : List.of(ZipStore.Mode.READ_ONLY, ZipStore.Mode.UPDATE)) {
            try (ZipStore s = open(zip, mode)) {
                everyReadFails(s, "c/0", "is listed twice in the central directory");
                assertArrayEquals(utf8("{}"), array(s.get(k("zarr.json")).orElseThrow()), "the other keys read");
                assertEquals(List.of(k("c/0"), k("zarr.json")), s.list(), "listed, so that a check reading every key sees it");
            }
        }
        assertEquals(2, Zips.centralHeaders(Files.readAllBytes(zip), "c/0").size(), "opening changed nothing");
    }

    @Test
    void aNameListedThreeTimesSaysSo() throws IOException {
        Path zip = Zips.write(tmp.resolve("three.zip"), Item.stored("c/0", utf8("1")), Item.stored("c/0", utf8("2")),
                Item.deflated("c/0", utf8("3")));
        try (ZipStore s = open(zip, ZipStore.Mode.READ_ONLY)) {
            everyReadFails(s, "c/0", "is listed 3 times");
        }
    }

    @Test
    void settingTheKeyReplacesEveryEntryOfItsName() throws IOException {
        Path zip = duplicated();
        try (ZipStore s = open(zip, ZipStore.Mode.UPDATE)) {
            s.set(k("c/0"), bytes("repaired"));
            assertArrayEquals(utf8("repaired"), array(s.get(k("c/0")).orElseThrow()), "reads see the write at once");
        }
        assertEquals(1, Zips.centralHeaders(Files.readAllBytes(zip), "c/0").size());
        try (Store s = ZipStores.open(zip, "")) {
            assertArrayEquals(utf8("repaired"), array(s.get(k("c/0")).orElseThrow()));
        }
    }

    @Test
    void erasingTheKeyRemovesEveryEntryOfItsName() throws IOException {
        Path zip = duplicated();
        try (ZipStore s = open(zip, ZipStore.Mode.UPDATE)) {
            s.erase(k("c/0"));
            assertEquals(Optional.empty(), s.get(k("c/0")));
        }
        assertEquals(0, Zips.centralHeaders(Files.readAllBytes(zip), "c/0").size());
        try (Store s = ZipStores.open(zip, "")) {
            assertEquals(List.of(k("zarr.json")), s.list());
        }
    }

    @Test
    void rewritingForAnotherKeyKeepsTheConflictRatherThanPickingAValue() throws IOException {
        Path zip = duplicated();
        try (ZipStore s = open(zip, ZipStore.Mode.UPDATE)) {
            s.set(k("zarr.json"), bytes("{\"a\":1}"));
        }
        assertEquals(2, Zips.centralHeaders(Files.readAllBytes(zip), "c/0").size());
        try (ZipStore s = open(zip, ZipStore.Mode.READ_ONLY)) {
            everyReadFails(s, "c/0", "listed twice");
        }
    }

    @Test
    void aDirectoryEntryAtAKeysNameIsNotAbsent() throws IOException {
        Path zip = Zips.write(tmp.resolve("dir.zip"), Item.stored("a/zarr.json", utf8("{}")), Item.dir("a/c/0/0/"),
                Item.stored("a/c/0/1", utf8("v")));
        try (ZipStore s = open(zip, ZipStore.Mode.READ_ONLY)) {
            everyReadFails(s, "a/c/0/0", "is a directory entry");
            assertEquals(List.of(k("a/c/0/1"), k("a/zarr.json")), s.list(), "a directory is not a key");
            assertEquals(Optional.empty(), s.get(k("a/c/0/2")), "no entry at all is absent");
        }
        try (ZipStore s = open(zip, ZipStore.Mode.UPDATE)) {
            s.set(k("a/c/0/0"), bytes("value"));
        }
        assertEquals(List.of(), Zips.centralHeaders(Files.readAllBytes(zip), "a/c/0/0/"), "the directory entry is gone");
        try (Store s = ZipStores.open(zip, "")) {
            assertArrayEquals(utf8("value"), array(s.get(k("a/c/0/0")).orElseThrow()));
        }
    }

    @Test
    void aFileBesideADirectoryEntryOfTheSameNameIsItsValue() throws IOException {
        Path zip = Zips.write(tmp.resolve("both.zip"), Item.dir("c/0/"), Item.stored("c/0", utf8("v")));
        try (ZipStore s = open(zip, ZipStore.Mode.READ_ONLY)) {
            assertArrayEquals(utf8("v"), array(s.get(k("c/0")).orElseThrow()));
        }
    }

    /** Through an array: the chunk is an error naming its key, never fill values. */
    @Test
    void anArrayChunkThatIsADirectoryEntryFailsTheRead() throws IOException {
        Path made = tmp.resolve("made.zip");
        try (Store s = ZipStores.create(made)) {
            ZarrArray a = Zarr.defaults().array(DataTypes.INT32, 4).chunks(2).create(s, "/a");
            a.write(new long[] {0}, dev.zarrj.api.NdArray.copyOf(DataTypes.INT32, new int[] {1, 2, 3, 4}, 4));
        }
        byte[] json;
        byte[] chunk;
        try (Store s = ZipStores.open(made, "")) {
            json = array(s.get(k("a/zarr.json")).orElseThrow());
            chunk = array(s.get(k("a/c/1")).orElseThrow());
        }
        Path zip = Zips.write(tmp.resolve("hostile.zip"), Item.stored("a/zarr.json", json), Item.dir("a/c/0/"),
                Item.stored("a/c/1", chunk));
        try (Store s = ZipStores.open(zip, "")) {
            ZarrArray a = Zarr.defaults().openArray(s, "/a");
            ZarrException e = assertThrows(ZarrException.class, () -> a.read());
            assertTrue(e.getMessage().contains("a/c/0") && e.getMessage().contains("directory entry"), e.getMessage());
        }
        try (Store s = ZipStores.open(duplicatedChunk(json, chunk), "")) {
            ZarrArray a = Zarr.defaults().openArray(s, "/a");
            ZarrException e = assertThrows(ZarrException.class, () -> a.read());
            assertTrue(e.getMessage().contains("a/c/1") && e.getMessage().contains("listed twice"), e.getMessage());
            assertFalse(s.list().isEmpty());
        }
    }

    private Path duplicatedChunk(byte[] json, byte[] chunk) throws IOException {
        return Zips.write(tmp.resolve("dupchunk.zip"), Item.stored("a/zarr.json", json), Item.stored("a/c/1", chunk),
                Item.stored("a/c/1", chunk));
    }
}
