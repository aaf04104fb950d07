package dev.zarrj.store.fs.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStoreTest {
    @TempDir
    Path tmp;

    Path root;
    Store store;

    @BeforeEach
    void open() {
        root = tmp.resolve("store.zarr");
        store = new FileStore(root, false, false);
    }

    static StoreKey k(String key) {
        return StoreKey.of(key);
    }

    static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(UTF_8));
    }

    static String string(Optional<ByteBuffer> b) {
        ByteBuffer buf = b.orElseThrow();
        byte[] a = new byte[buf.remaining()];
        buf.get(a);
        return new String(a, UTF_8);
    }

    /** Every file and directory under the temp dir, relative to it. */
    List<String> tree() throws IOException {
        try (Stream<Path> s = Files.walk(tmp)) {
            return s.filter(p -> !p.equals(tmp)).map(p -> tmp.relativize(p).toString().replace('\\', '/')).sorted().toList();
        }
    }

    // ---- basics ----

    @Test
    void describeNamesTheRoot() {
        assertEquals("file:" + root.toAbsolutePath(), store.describe());
        assertEquals(StoreCapabilities.READ_WRITE, store.capabilities());
        assertEquals(new StoreCapabilities(true, true, false, true), store.capabilities());
    }

    @Test
    void missingRootReadsAsEmptyStore() {
        assertEquals(Optional.empty(), store.get(k("zarr.json")));
        assertEquals(Optional.empty(), store.get(k("zarr.json"), ByteRange.suffix(4)));
        assertEquals(List.of(), store.list());
        assertEquals(List.of(), store.listPrefix("a/"));
        assertEquals(new ListDirResult(List.of(), List.of()), store.listDir(""));
        assertFalse(store.exists(k("a")));
        store.erase(k("a"));
        store.erasePrefix("");
        store.erasePrefix("a/");
        assertFalse(Files.exists(root), "reads and no-op erases must not create the root");
    }

    @Test
    void setCreatesRootAndParentsAndGetReadsBack() throws IOException {
        store.set(k("a/b/c/0.0"), bytes("chunk"));
        assertEquals("chunk", Files.readString(root.resolve("a/b/c/0.0")));
        assertEquals("chunk", string(store.get(k("a/b/c/0.0"))));
        assertEquals(OptionalLong.of(5), store.size(k("a/b/c/0.0")));
        assertTrue(store.exists(k("a/b/c/0.0")));
    }

    @Test
    void setReplacesAndHonoursPositionAndLimitWithoutTouchingTheBuffer() {
        store.set(k("x"), bytes("a much longer first value"));
        ByteBuffer v = bytes("..new..");
        v.position(2).limit(5);
        store.set(k("x"), v);
        assertEquals("new", string(store.get(k("x"))));
        assertEquals(2, v.position());
        assertEquals(5, v.limit());
    }

    @Test
    void emptyValueIsAValue() {
        store.set(k("empty"), ByteBuffer.allocate(0));
        assertEquals(0, store.get(k("empty")).orElseThrow().remaining());
        assertEquals(OptionalLong.of(0), store.size(k("empty")));
        assertEquals(List.of(k("empty")), store.list());
    }

    @Test
    void directBufferValue() {
        ByteBuffer v = ByteBuffer.allocateDirect(3).put(new byte[] {1, 2, 3}).flip();
        store.set(k("d"), v);
        ByteBuffer got = store.get(k("d")).orElseThrow();
        byte[] a = new byte[got.remaining()];
        got.get(a);
        assertArrayEquals(new byte[] {1, 2, 3}, a);
    }

    @Test
    void aDirectoryIsNotAKey() throws IOException {
        store.set(k("a/b"), bytes("v"));
        Files.createDirectories(root.resolve("empty"));
        for (String dir : List.of("a", "empty")) {
            StoreException e = assertThrows(StoreException.class, () -> store.get(k(dir)));
            assertTrue(e.getMessage().contains("key '" + dir + "'") && e.getMessage().contains("is a directory"),
                    e.getMessage());
        }
        assertEquals(new ListDirResult(List.of(), List.of("a/", "empty/")), store.listDir(""));
        store.erase(k("a"));
        assertEquals("v", string(store.get(k("a/b"))), "erase of a directory path must do nothing");
    }

    @Test
    void aKeyBelowAValueIsAbsent() {
        store.set(k("a"), bytes("v"));
        assertEquals(Optional.empty(), store.get(k("a/b")));
        assertFalse(store.exists(k("a/b/c")));
        store.erase(k("a/b"));
        assertEquals(List.of(), store.listPrefix("a/"));
        assertEquals(new ListDirResult(List.of(), List.of()), store.listDir("a/"));
    }

    @Test
    void keysAreCaseSensitive() throws IOException {
        Files.createDirectories(root);
        Files.writeString(root.resolve("probe"), "");
        org.junit.jupiter.api.Assumptions.assumeFalse(Files.exists(root.resolve("PROBE")),
                "case-insensitive file system: a documented limitation");
        Files.delete(root.resolve("probe"));
        store.set(k("foo"), bytes("a"));
        store.set(k("FOO"), bytes("b"));
        assertEquals("a", string(store.get(k("foo"))));
        assertEquals("b", string(store.get(k("FOO"))));
        assertEquals(List.of(k("FOO"), k("foo")), store.list());
    }

    @Test
    void storeRootThatIsAFileIsRefused() throws IOException {
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        StoreException e = assertThrows(StoreException.class, () -> new FileStore(file, false, false));
        assertTrue(e.getMessage().contains("file:" + file), e.getMessage());
    }

    @Test
    void relativeRootIsMadeAbsolute() {
        Store s = new FileStore(Path.of("relative", "dir"), true, false);
        assertEquals("file:" + Path.of("relative", "dir").toAbsolutePath().normalize(), s.describe());
    }

    // ---- ranges ----

    @Test
    void allThreeRangeKinds() {
        store.set(k("r"), bytes("0123456789"));
        assertEquals("234", string(store.get(k("r"), ByteRange.of(2, 3))));
        assertEquals("789", string(store.get(k("r"), ByteRange.from(7))));
        assertEquals("6789", string(store.get(k("r"), ByteRange.suffix(4))));
        assertEquals("0123456789", string(store.get(k("r"), ByteRange.all())));
        assertEquals("0123456789", string(store.get(k("r"), ByteRange.suffix(10))));
        assertEquals("", string(store.get(k("r"), ByteRange.of(10, 0))));
        assertEquals("", string(store.get(k("r"), ByteRange.from(10))));
        assertEquals("", string(store.get(k("r"), ByteRange.suffix(0))));
    }

    @Test
    void rangeOutsideTheValueIsAStoreExceptionNamingTheKey() {
        store.set(k("a/r"), bytes("0123456789"));
        for (ByteRange r : List.of(ByteRange.of(8, 3), ByteRange.of(11, 0), ByteRange.from(11), ByteRange.suffix(11))) {
            StoreException e = assertThrows(StoreException.class, () -> store.get(k("a/r"), r), r.toString());
            assertTrue(e.getMessage().contains(store.describe()) && e.getMessage().contains("'a/r'"), e.getMessage());
            assertTrue(e.getMessage().contains(r.toString()), e.getMessage());
        }
        assertEquals(Optional.empty(), store.get(k("absent"), ByteRange.of(100, 100)));
    }

    @Test
    void rangedReadsReadOnlyTheRangeOfAHugeValue() throws IOException {
        // A sparse 3 GiB file: a whole read cannot fit in a buffer, ranged reads must not try.
        Files.createDirectories(root);
        long size = 3L << 30;
        try (RandomAccessFile f = new RandomAccessFile(root.resolve("huge").toFile(), "rw")) {
            f.setLength(size);
            f.seek(size - 4);
            f.write(new byte[] {1, 2, 3, 4});
        }
        ByteBuffer tail = store.get(k("huge"), ByteRange.suffix(4)).orElseThrow();
        assertEquals(4, tail.remaining());
        assertEquals(0x01020304, tail.getInt());
        ByteBuffer mid = store.get(k("huge"), ByteRange.of(size - 6, 3)).orElseThrow();
        assertEquals(3, mid.remaining());
        assertEquals(0, mid.get(0));
        assertEquals(1, mid.get(2));
        assertEquals(2, store.get(k("huge"), ByteRange.from(size - 2)).orElseThrow().remaining());
        assertEquals(OptionalLong.of(size), store.size(k("huge")));
        StoreException e = assertThrows(StoreException.class, () -> store.get(k("huge")));
        assertTrue(e.getMessage().contains("'huge'") && e.getMessage().contains("in ranges"), e.getMessage());
    }

    @Test
    void getPartialValuesKeepsOrderAndReportsAbsentKeys() {
        store.set(k("a"), bytes("abcdef"));
        store.set(k("b/c"), bytes("XYZ"));
        List<Optional<ByteBuffer>> got = store.getPartialValues(List.of(
                new KeyRange(k("a"), ByteRange.of(1, 2)),
                new KeyRange(k("missing"), ByteRange.all()),
                new KeyRange(k("b/c"), ByteRange.suffix(1)),
                new KeyRange(k("a"), ByteRange.suffix(2)),
                new KeyRange(k("a"), ByteRange.from(0))));
        assertEquals(5, got.size());
        assertEquals("bc", string(got.get(0)));
        assertEquals(Optional.empty(), got.get(1));
        assertEquals("Z", string(got.get(2)));
        assertEquals("ef", string(got.get(3)));
        assertEquals("abcdef", string(got.get(4)));
    }

    @Test
    void getPartialValuesOutOfRangeNamesTheKey() {
        store.set(k("a"), bytes("abc"));
        StoreException e = assertThrows(StoreException.class, () -> store.getPartialValues(List.of(
                new KeyRange(k("a"), ByteRange.of(0, 1)), new KeyRange(k("a"), ByteRange.of(2, 5)))));
        assertTrue(e.getMessage().contains("'a'"), e.getMessage());
    }

    // ---- atomic set ----

    @Test
    void setLeavesNoTemporaryFile() throws IOException {
        store.set(k("a/b"), bytes("1"));
        store.set(k("a/b"), bytes("2"));
        store.set(k("a/c"), bytes("3"));
        assertEquals(List.of("store.zarr", "store.zarr/a", "store.zarr/a/b", "store.zarr/a/c"), tree());
    }

    @Test
    void failedSetLeavesOtherValuesAndNoTemporaryFile() throws IOException {
        store.set(k("a"), bytes("value a"));
        store.set(k("b/c"), bytes("value c"));
        List<String> before = tree();
        StoreException e = assertThrows(StoreException.class, () -> store.set(k("a/x"), bytes("new")));
        assertTrue(e.getMessage().contains(store.describe()) && e.getMessage().contains("'a/x'"), e.getMessage());
        assertEquals(before, tree());
        assertEquals("value a", string(store.get(k("a"))));
        assertEquals("value c", string(store.get(k("b/c"))));
    }

    @Test
    void failedReplaceOfADirectoryKeepsItAndRemovesTheTemporaryFile() throws IOException {
        store.set(k("d/inner"), bytes("inner"));
        List<String> before = tree();
        StoreException e = assertThrows(StoreException.class, () -> store.set(k("d"), bytes("value")));
        assertTrue(e.getMessage().contains("'d'"), e.getMessage());
        assertEquals(before, tree());
        assertEquals("inner", string(store.get(k("d/inner"))));
    }

    @Test
    void fsyncOptionWritesTheSameValues() throws IOException {
        Store synced = new FileStore(root, false, true);
        synced.set(k("s/v"), bytes("synced"));
        assertEquals("synced", string(synced.get(k("s/v"))));
        assertEquals(List.of("store.zarr", "store.zarr/s", "store.zarr/s/v"), tree());
    }

    @Test
    void temporaryNamesAreReservedAndNotListed() throws IOException {
        store.set(k("a/b"), bytes("v"));
        Files.writeString(root.resolve("a/.zarrj-0123abcd.tmp"), "half-written");
        Files.createDirectories(root.resolve(".zarrj-dir.tmp"));
        Files.writeString(root.resolve(".zarrj-dir.tmp/x"), "x");
        assertEquals(List.of(k("a/b")), store.list());
        assertEquals(new ListDirResult(List.of(k("a/b")), List.of()), store.listDir("a/"));
        assertEquals(new ListDirResult(List.of(), List.of("a/")), store.listDir(""));
        InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> store.set(k("a/.zarrj-1.tmp"), bytes("v")));
        assertTrue(e.getMessage().contains("'a/.zarrj-1.tmp'"), e.getMessage());
        assertThrows(InvalidKeyException.class, () -> store.get(k(".zarrj-dir.tmp/x")));
        assertThrows(InvalidKeyException.class, () -> store.listDir(".zarrj-dir.tmp/"));
        // Names that only look similar are ordinary keys.
        store.set(k(".zarrj-.tmp"), bytes("1"));
        store.set(k("x.tmp"), bytes("2"));
        assertEquals(List.of(k(".zarrj-.tmp"), k("a/b"), k("x.tmp")), store.list());
    }

    // ---- erase ----

    @Test
    void eraseRemovesTheValueAndEmptyParentsButNotTheRoot() throws IOException {
        store.set(k("a/b/c/d"), bytes("1"));
        store.set(k("a/x"), bytes("2"));
        store.erase(k("a/b/c/d"));
        assertEquals(Optional.empty(), store.get(k("a/b/c/d")));
        assertEquals(List.of("store.zarr", "store.zarr/a", "store.zarr/a/x"), tree());
        store.erase(k("a/x"));
        assertEquals(List.of("store.zarr"), tree());
        store.erase(k("a/x"));
        store.erase(k("never/was"));
        assertEquals(List.of("store.zarr"), tree());
    }

    @Test
    void eraseValues() {
        store.set(k("a"), bytes("1"));
        store.set(k("b/c"), bytes("2"));
        store.set(k("d"), bytes("3"));
        store.eraseValues(List.of(k("a"), k("b/c"), k("absent")));
        assertEquals(List.of(k("d")), store.list());
    }

    @Test
    void erasePrefixDeletesTheTreeAndPrunesParents() throws IOException {
        store.set(k("g/arr/zarr.json"), bytes("{}"));
        store.set(k("g/arr/c/0/0"), bytes("1"));
        store.set(k("g/arr/c/0/1"), bytes("2"));
        store.set(k("g/arrow"), bytes("not under g/arr/"));
        store.set(k("h"), bytes("3"));
        store.erasePrefix("g/arr/");
        assertEquals(List.of(k("g/arrow"), k("h")), store.list());
        store.erasePrefix("g/");
        assertEquals(List.of(k("h")), store.list());
        assertEquals(List.of("store.zarr", "store.zarr/h"), tree());
        store.erasePrefix("h/"); // "h" is a value, not under "h/"
        store.erasePrefix("nothing/");
        assertEquals(List.of(k("h")), store.list());
    }

    @Test
    void erasePrefixEmptyErasesEverythingButKeepsTheRoot() throws IOException {
        store.set(k("a/b"), bytes("1"));
        store.set(k("c"), bytes("2"));
        Files.writeString(root.resolve(".zarrj-abc.tmp"), "stray");
        store.erasePrefix("");
        assertEquals(List.of(), store.list());
        assertEquals(List.of("store.zarr"), tree());
    }

    @Test
    void invalidPrefixIsRefused() {
        assertThrows(InvalidKeyException.class, () -> store.listPrefix("a"));
        assertThrows(InvalidKeyException.class, () -> store.listDir("/a/"));
        assertThrows(InvalidKeyException.class, () -> store.erasePrefix("a//"));
    }

    // ---- list ----

    @Test
    void listAndListPrefixAreSorted() {
        for (String key : List.of("b", "a/b", "a-c", "a/c/d", "e/f/g", "a/a", "zarr.json")) {
            store.set(k(key), bytes(key));
        }
        // '-' sorts before '/', so a walk order is not sorted order.
        assertEquals(List.of(k("a-c"), k("a/a"), k("a/b"), k("a/c/d"), k("b"), k("e/f/g"), k("zarr.json")), store.list());
        assertEquals(List.of(k("a/a"), k("a/b"), k("a/c/d")), store.listPrefix("a/"));
        assertEquals(List.of(k("a/c/d")), store.listPrefix("a/c/"));
        assertEquals(List.of(), store.listPrefix("q/"));
    }

    @Test
    void listDirGivesKeysAndPrefixes() throws IOException {
        for (String key : List.of("a/b", "a/c", "a/d/e", "a/f/g", "a/f/h/i", "x")) {
            store.set(k(key), bytes(key));
        }
        assertEquals(new ListDirResult(List.of(k("a/b"), k("a/c")), List.of("a/d/", "a/f/")), store.listDir("a/"));
        assertEquals(new ListDirResult(List.of(k("x")), List.of("a/")), store.listDir(""));
        assertEquals(new ListDirResult(List.of(k("a/f/g")), List.of("a/f/h/")), store.listDir("a/f/"));
        assertEquals(new ListDirResult(List.of(), List.of()), store.listDir("b/"));
        assertEquals(new ListDirResult(List.of(), List.of()), store.listDir("x/"));
    }

    // ---- read-only ----

    @Test
    void readOnlyStoreReadsButRefusesWrites() throws IOException {
        store.set(k("a/b"), bytes("v"));
        List<String> before = tree();
        Store ro = new FileStore(root, true, false);
        assertEquals(StoreCapabilities.READ_ONLY, ro.capabilities());
        assertEquals("v", string(ro.get(k("a/b"))));
        assertEquals(List.of(k("a/b")), ro.list());
        ReadOnlyException set = assertThrows(ReadOnlyException.class, () -> ro.set(k("a/c"), bytes("x")));
        assertTrue(set.getMessage().contains(ro.describe()) && set.getMessage().contains("'a/c'"), set.getMessage());
        ReadOnlyException erase = assertThrows(ReadOnlyException.class, () -> ro.erase(k("a/b")));
        assertTrue(erase.getMessage().contains(ro.describe()) && erase.getMessage().contains("'a/b'"), erase.getMessage());
        assertThrows(ReadOnlyException.class, () -> ro.eraseValues(List.of(k("a/b"))));
        ReadOnlyException prefix = assertThrows(ReadOnlyException.class, () -> ro.erasePrefix("a/"));
        assertTrue(prefix.getMessage().contains("'a/'"), prefix.getMessage());
        assertEquals(before, tree());
    }

    @Test
    void closeIsHarmless() {
        store.set(k("a"), bytes("v"));
        store.close();
        assertEquals("v", string(store.get(k("a"))));
    }
}
