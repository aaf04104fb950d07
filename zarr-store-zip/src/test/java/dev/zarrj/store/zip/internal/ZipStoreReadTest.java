package dev.zarrj.store.zip.internal;

import static dev.zarrj.store.zip.internal.Zips.array;
import static dev.zarrj.store.zip.internal.Zips.pattern;
import static dev.zarrj.store.zip.internal.Zips.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.ZipStoreOptions;
import dev.zarrj.store.zip.internal.Zips.Item;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZipStoreReadTest {
    static final byte[] JSON = utf8("{\"zarr_format\":3,\"node_type\":\"group\"}");
    static final byte[] STORED = pattern(1 << 20, 1);
    static final byte[] DEFLATED = pattern(200_000, 2);

    @TempDir
    Path tmp;

    Path zip;
    ZipStore store;

    @BeforeEach
    void build() throws IOException {
        zip = Zips.write(tmp.resolve("set.zip"),
                Item.dir("c/"),
                Item.stored("zarr.json", JSON),
                Item.dir("c/0/"),
                Item.stored("c/0/0", STORED),
                Item.deflated("c/0/1", DEFLATED),
                Item.deflated("c/1/empty", new byte[0]),
                Item.dir("only-a-folder/"),
                Item.stored("inner/set/zarr.json", JSON),
                Item.deflated("inner/set/c/0", DEFLATED),
                Item.stored("inner/setx", STORED));
        store = open("");
    }

    ZipStore open(String folder) {
        return ZipStore.open(zip, folder, ZipStore.Mode.READ_ONLY, ZipStoreOptions.defaults());
    }

    @AfterEach
    void close() {
        store.close();
    }

    static StoreKey k(String key) {
        return StoreKey.of(key);
    }

    static byte[] slice(byte[] b, long start, long end) {
        return Arrays.copyOfRange(b, (int) start, (int) end);
    }

    @Test
    void describesTheArchiveAndIsReadOnly() {
        assertEquals("zip:" + zip.toAbsolutePath(), store.describe());
        assertEquals(StoreCapabilities.READ_ONLY, store.capabilities());
        try (ZipStore inner = open("/inner/set/")) {
            assertEquals("zip:" + zip.toAbsolutePath() + "!/inner/set", inner.describe());
        }
    }

    @Test
    void getsWholeValuesOfStoredAndDeflatedEntries() {
        assertArrayEquals(JSON, array(store.get(k("zarr.json")).orElseThrow()));
        assertArrayEquals(STORED, array(store.get(k("c/0/0")).orElseThrow()));
        assertArrayEquals(DEFLATED, array(store.get(k("c/0/1")).orElseThrow()));
        assertEquals(0, store.get(k("c/1/empty")).orElseThrow().remaining());
        assertEquals(Optional.empty(), store.get(k("c/0/2")));
        assertEquals(Optional.empty(), store.get(k("c/1")), "a folder without a directory entry is not a key");
        StoreException dir = assertThrows(StoreException.class, () -> store.get(k("c")));
        assertTrue(dir.getMessage().contains("key 'c' is a directory entry"), dir.getMessage());
        assertEquals(Optional.empty(), store.get(k("c/0/2"), ByteRange.suffix(1)));
    }

    @Test
    void sizesAndExistenceComeFromTheCentralDirectory() {
        assertEquals(OptionalLong.of(STORED.length), store.size(k("c/0/0")));
        assertEquals(OptionalLong.of(DEFLATED.length), store.size(k("c/0/1")));
        StoreException dir = assertThrows(StoreException.class, () -> store.size(k("only-a-folder")));
        assertTrue(dir.getMessage().contains("key 'only-a-folder' is a directory entry"), dir.getMessage());
        assertTrue(store.exists(k("c/1/empty")));
        assertFalse(store.exists(k("c/1")));
    }

    @Test
    void everyKindOfRangeOfEveryKindOfEntry() {
        for (String key : List.of("c/0/0", "c/0/1")) {
            byte[] v = key.equals("c/0/0") ? STORED : DEFLATED;
            int n = v.length;
            assertArrayEquals(slice(v, 10, 20), array(store.get(k(key), ByteRange.of(10, 10)).orElseThrow()), key);
            assertArrayEquals(slice(v, n - 5, n), array(store.get(k(key), ByteRange.of(n - 5, 5)).orElseThrow()), key);
            assertArrayEquals(slice(v, 7, n), array(store.get(k(key), ByteRange.from(7)).orElseThrow()), key);
            assertArrayEquals(slice(v, n - 16, n), array(store.get(k(key), ByteRange.suffix(16)).orElseThrow()), key);
            assertArrayEquals(v, array(store.get(k(key), ByteRange.suffix(n)).orElseThrow()), key);
            assertEquals(0, store.get(k(key), ByteRange.of(n, 0)).orElseThrow().remaining(), key);
            assertEquals(0, store.get(k(key), ByteRange.suffix(0)).orElseThrow().remaining(), key);
        }
    }

    @Test
    void randomRangesOfADeflatedEntryMatchTheValue() {
        Random r = new Random(7);
        for (int i = 0; i < 200; i++) {
            int start = r.nextInt(DEFLATED.length + 1);
            int length = r.nextInt(Math.min(100_000, DEFLATED.length - start) + 1);
            assertArrayEquals(slice(DEFLATED, start, start + length),
                    array(store.get(k("c/0/1"), ByteRange.of(start, length)).orElseThrow()), start + "+" + length);
        }
    }

    @Test
    void aRangeOutsideTheValueIsAnErrorNamingArchiveAndKey() {
        for (String key : List.of("c/0/0", "c/0/1")) {
            for (ByteRange range : List.of(ByteRange.of(0, (key.equals("c/0/0") ? STORED : DEFLATED).length + 1),
                    ByteRange.from(10_000_000), ByteRange.suffix(10_000_000))) {
                StoreException e = assertThrows(StoreException.class, () -> store.get(k(key), range));
                assertTrue(e.getMessage().contains(zip.toString()) && e.getMessage().contains(key), e.getMessage());
            }
        }
    }

    @Test
    void aRangeOfAStoredEntryReadsOnlyThatRange() {
        long before = store.bytesReadFromArchive();
        assertArrayEquals(slice(STORED, 500_000, 500_010),
                array(store.get(k("c/0/0"), ByteRange.of(500_000, 10)).orElseThrow()));
        assertEquals(10, store.bytesReadFromArchive() - before);
        before = store.bytesReadFromArchive();
        store.get(k("c/0/0"), ByteRange.suffix(16));
        assertEquals(16, store.bytesReadFromArchive() - before);
        before = store.bytesReadFromArchive();
        store.get(k("c/0/0"));
        assertEquals(STORED.length, store.bytesReadFromArchive() - before);
    }

    @Test
    void aRangeOfADeflatedEntryReadsNoMoreThanTheCompressedData() throws IOException {
        long compressed = Zips.readCentral(zip, "c/0/1", Zips.COMPRESSED_SIZE);
        assertTrue(compressed < DEFLATED.length / 2, "the pattern compresses: " + compressed);
        long before = store.bytesReadFromArchive();
        store.get(k("c/0/1"), ByteRange.of(10, 10));
        long early = store.bytesReadFromArchive() - before;
        assertTrue(early > 0 && early <= 64 * 1024, "a range near the start inflates only the first block: " + early);
        before = store.bytesReadFromArchive();
        store.get(k("c/0/1"), ByteRange.suffix(10));
        assertEquals(compressed, store.bytesReadFromArchive() - before, "a suffix inflates the whole entry, once");
    }

    @Test
    void getPartialValuesKeepsTheOrderAndReportsAbsentKeys() {
        List<Optional<ByteBuffer>> got = store.getPartialValues(List.of(
                new KeyRange(k("c/0/1"), ByteRange.suffix(3)),
                new KeyRange(k("nope"), ByteRange.all()),
                new KeyRange(k("c/0/0"), ByteRange.of(1, 2)),
                new KeyRange(k("c/0/1"), ByteRange.of(0, 4))));
        assertEquals(4, got.size());
        assertArrayEquals(slice(DEFLATED, DEFLATED.length - 3, DEFLATED.length), array(got.get(0).orElseThrow()));
        assertEquals(Optional.empty(), got.get(1));
        assertArrayEquals(slice(STORED, 1, 3), array(got.get(2).orElseThrow()));
        assertArrayEquals(slice(DEFLATED, 0, 4), array(got.get(3).orElseThrow()));
    }

    @Test
    void listsKeysSortedWithoutDirectories() {
        assertEquals(List.of(k("c/0/0"), k("c/0/1"), k("c/1/empty"), k("inner/set/c/0"), k("inner/set/zarr.json"),
                k("inner/setx"), k("zarr.json")), store.list());
        assertEquals(List.of(k("c/0/0"), k("c/0/1"), k("c/1/empty")), store.listPrefix("c/"));
        assertEquals(List.of(k("c/0/0"), k("c/0/1")), store.listPrefix("c/0/"));
        assertEquals(List.of(), store.listPrefix("only-a-folder/"));
        assertEquals(List.of(), store.listPrefix("zz/"));
    }

    @Test
    void listDirGivesKeysAndChildFoldersEvenEmptyOnes() {
        // "only-a-folder/" is a directory entry with nothing under it: a folder, as on a file system.
        assertEquals(new ListDirResult(List.of(k("zarr.json")), List.of("c/", "inner/", "only-a-folder/")),
                store.listDir(""));
        assertEquals(new ListDirResult(List.of(), List.of("c/0/", "c/1/")), store.listDir("c/"));
        assertEquals(new ListDirResult(List.of(k("inner/setx")), List.of("inner/set/")), store.listDir("inner/"));
        assertEquals(new ListDirResult(List.of(), List.of()), store.listDir("only-a-folder/"));
    }

    @Test
    void aStoreInsideAFolderSeesOnlyThatFolder() {
        try (ZipStore inner = open("inner/set")) {
            assertEquals(List.of(k("c/0"), k("zarr.json")), inner.list());
            assertArrayEquals(DEFLATED, array(inner.get(k("c/0")).orElseThrow()));
            assertArrayEquals(JSON, array(inner.get(k("zarr.json")).orElseThrow()));
            assertEquals(Optional.empty(), inner.get(k("setx")));
            assertEquals(new ListDirResult(List.of(k("zarr.json")), List.of("c/")), inner.listDir(""));
        }
    }

    @Test
    void aFolderThatIsNotInTheArchiveIsAnError() {
        StoreException e = assertThrows(StoreException.class, () -> open("inner/nope"));
        assertTrue(e.getMessage().contains(zip.toString()) && e.getMessage().contains("inner/nope/"), e.getMessage());
        // "inner/se" is a prefix of names, but not a folder.
        assertThrows(StoreException.class, () -> open("inner/se"));
        assertThrows(dev.zarrj.api.InvalidKeyException.class, () -> open("inner/../x"));
    }

    @Test
    void writesAreRefusedNamingTheArchive() {
        for (Runnable write : List.<Runnable>of(
                () -> store.set(k("x"), ByteBuffer.allocate(1)),
                () -> store.erase(k("zarr.json")),
                () -> store.erasePrefix("c/"))) {
            ReadOnlyException e = assertThrows(ReadOnlyException.class, write::run);
            assertTrue(e.getMessage().contains(zip.toString()), e.getMessage());
        }
        assertTrue(store.exists(k("zarr.json")));
    }

    @Test
    void aClosedStoreRefusesEveryOperation() {
        store.close();
        store.close(); // idempotent
        for (Runnable op : List.<Runnable>of(() -> store.get(k("zarr.json")), () -> store.list(),
                () -> store.size(k("zarr.json")))) {
            StoreException e = assertThrows(StoreException.class, op::run);
            assertTrue(e.getMessage().contains("closed") && e.getMessage().contains(zip.toString()), e.getMessage());
        }
    }

    @Test
    void anInterruptedReadDoesNotBreakTheStoreForOthers() {
        Thread.currentThread().interrupt();
        try {
            StoreException e = assertThrows(StoreException.class, () -> store.get(k("c/0/0")));
            assertTrue(e.getCause() instanceof java.nio.channels.ClosedByInterruptException, String.valueOf(e.getCause()));
        } finally {
            Thread.interrupted();
        }
        assertArrayEquals(STORED, array(store.get(k("c/0/0")).orElseThrow()));
        assertArrayEquals(DEFLATED, array(store.get(k("c/0/1")).orElseThrow()));
    }

    @Test
    void returnedBuffersBelongToTheCaller() {
        ByteBuffer a = store.get(k("zarr.json")).orElseThrow();
        a.put(0, (byte) 'X');
        assertArrayEquals(JSON, array(store.get(k("zarr.json")).orElseThrow()));
    }
}
