package dev.zarrj.store.zip.internal;

import static dev.zarrj.store.zip.internal.Zips.array;
import static dev.zarrj.store.zip.internal.Zips.bytes;
import static dev.zarrj.store.zip.internal.Zips.pattern;
import static dev.zarrj.store.zip.internal.Zips.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.ZipStoreOptions;
import dev.zarrj.store.zip.ZipStoreOptions.Compression;
import dev.zarrj.store.zip.ZipStores;
import dev.zarrj.store.zip.internal.Zips.Item;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZipStoreWriteTest {
    @TempDir
    Path tmp;

    static StoreKey k(String key) {
        return StoreKey.of(key);
    }

    /** Every entry of an archive: name → method, as commons-compress reads it. */
    static Map<String, Integer> methods(Path zip) throws IOException {
        Map<String, Integer> out = new LinkedHashMap<>();
        try (ZipFile z = ZipFile.builder().setPath(zip).get()) {
            for (ZipArchiveEntry e : Collections.list(z.getEntries())) {
                out.put(e.getName(), e.getMethod());
            }
        }
        return out;
    }

    /** The files in the temporary directory (no leftover spill or temporary archive). */
    List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** Runs {@code unzip -t} when it is installed; the archive must pass. */
    static void unzipAccepts(Path zip) throws IOException, InterruptedException {
        ProcessBuilder pb;
        try {
            pb = new ProcessBuilder("unzip", "-tq", zip.toString()).redirectErrorStream(true);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), "unzip -t " + zip + ":\n" + out);
        } catch (IOException e) {
            System.out.println("unzip -t skipped: the unzip command is not available (" + e.getMessage() + ")");
        }
    }

    @Test
    void aCreatedArchiveHoldsTheLastValueOfEveryKeyStoredUncompressed() throws Exception {
        Path zip = tmp.resolve("new.zip");
        byte[] big = pattern(300_000, 5);
        try (Store s = ZipStores.create(zip)) {
            assertEquals(StoreCapabilities.READ_WRITE, s.capabilities());
            s.set(k("zarr.json"), bytes("{\"first\":1}"));
            s.set(k("a/c/0"), ByteBuffer.wrap(big));
            s.set(k("a/c/1"), bytes("gone"));
            s.set(k("a/empty"), ByteBuffer.allocate(0));
            s.set(k("zarr.json"), bytes("{\"second\":2}"));
            s.erase(k("a/c/1"));
            s.erase(k("never/was"));
            // Reads see the writes before the archive exists.
            assertFalse(Files.exists(zip));
            assertEquals("{\"second\":2}", new String(array(s.get(k("zarr.json")).orElseThrow()), java.nio.charset.StandardCharsets.UTF_8));
            assertEquals(Optional.empty(), s.get(k("a/c/1")));
            assertEquals(OptionalLong.of(big.length), s.size(k("a/c/0")));
            assertArrayEquals(java.util.Arrays.copyOfRange(big, 1000, 1010),
                    array(s.get(k("a/c/0"), ByteRange.of(1000, 10)).orElseThrow()));
            assertEquals(List.of(k("a/c/0"), k("a/empty"), k("zarr.json")), s.list());
            assertEquals(new ListDirResult(List.of(k("a/empty")), List.of("a/c/")), s.listDir("a/"));
        }
        assertEquals(List.of("new.zip"), files(), "the spill and temporary files are gone");
        assertEquals(Map.of("a/c/0", 0, "a/empty", 0, "zarr.json", 0), methods(zip));
        assertEquals(List.of("a/c/0", "a/empty", "zarr.json"), List.copyOf(methods(zip).keySet()), "entries sorted by name");
        unzipAccepts(zip);
        try (Store r = ZipStores.open(zip, "")) {
            assertEquals(List.of(k("a/c/0"), k("a/empty"), k("zarr.json")), r.list());
            assertArrayEquals(big, array(r.get(k("a/c/0")).orElseThrow()));
            assertArrayEquals(utf8("{\"second\":2}"), array(r.get(k("zarr.json")).orElseThrow()));
            assertEquals(0, r.get(k("a/empty")).orElseThrow().remaining());
        }
    }

    @Test
    void deflatedEntriesOnRequest() throws Exception {
        Path zip = tmp.resolve("deflated.zip");
        byte[] v = pattern(100_000, 9);
        try (Store s = ZipStores.create(zip, ZipStoreOptions.defaults().withCompression(Compression.DEFLATED).withLevel(9))) {
            s.set(k("c/0"), ByteBuffer.wrap(v));
            s.set(k("direct"), ByteBuffer.allocateDirect(5).put(utf8("hello")).flip());
        }
        assertEquals(Map.of("c/0", 8, "direct", 8), methods(zip));
        assertTrue(Files.size(zip) < v.length / 2, "compressed: " + Files.size(zip));
        unzipAccepts(zip);
        try (Store r = ZipStores.open(zip, "")) {
            assertArrayEquals(v, array(r.get(k("c/0")).orElseThrow()));
            assertArrayEquals(utf8("hello"), array(r.get(k("direct")).orElseThrow()));
        }
    }

    @Test
    void createRefusesAnExistingFileAndNothingSetGivesAnEmptyArchive() throws IOException {
        Path zip = tmp.resolve("empty.zip");
        ZipStores.create(zip).close();
        try (Store r = ZipStores.open(zip, "")) {
            assertEquals(List.of(), r.list());
        }
        StoreException e = assertThrows(StoreException.class, () -> ZipStores.create(zip));
        assertTrue(e.getMessage().contains(zip.toString()) && e.getMessage().contains("already exists"), e.getMessage());
        // Appearing while the store is open: close refuses to replace it and leaves it alone.
        Path late = tmp.resolve("late.zip");
        Store s = ZipStores.create(late);
        s.set(k("x"), bytes("x"));
        Files.writeString(late, "someone else's");
        e = assertThrows(StoreException.class, s::close);
        assertTrue(e.getMessage().contains("appeared"), e.getMessage());
        assertEquals("someone else's", Files.readString(late));
        assertEquals(List.of("empty.zip", "late.zip"), files());
    }

    @Test
    void updateRewritesTheArchiveKeepingEverythingElseAsItWas() throws Exception {
        byte[] deflated = pattern(50_000, 1);
        Path zip = Zips.write(tmp.resolve("set.zip"),
                Item.stored("README", utf8("outside the hierarchy")),
                Item.dir("inner/"),
                Item.stored("inner/zarr.json", utf8("{}")),
                Item.deflated("inner/c/0", deflated),
                Item.stored("inner/c/1", utf8("to be replaced")),
                Item.stored("inner/c/2", utf8("to be erased")),
                Item.deflated("other/c/0", deflated));
        try (Store s = ZipStores.update(zip, "inner", ZipStoreOptions.defaults())) {
            assertEquals(List.of(k("c/0"), k("c/1"), k("c/2"), k("zarr.json")), s.list());
            s.set(k("c/1"), bytes("replaced"));
            s.erase(k("c/2"));
            s.set(k("c/3"), bytes("new"));
            assertEquals(List.of(k("c/0"), k("c/1"), k("c/3"), k("zarr.json")), s.list());
            s.set(k("d/0"), bytes("d0"));
            s.set(k("d/1"), bytes("d1"));
            s.erasePrefix("d/");
            assertEquals(List.of(), s.listPrefix("d/"));
            assertEquals("replaced", new String(array(s.get(k("c/1")).orElseThrow()), java.nio.charset.StandardCharsets.UTF_8));
        }
        assertEquals(List.of("set.zip"), files());
        Map<String, Integer> m = methods(zip);
        assertEquals(List.of("README", "inner/", "inner/c/0", "inner/c/1", "inner/c/3", "inner/zarr.json", "other/c/0"),
                List.copyOf(m.keySet()));
        assertEquals(8, m.get("inner/c/0"), "unchanged entries are copied still deflated");
        assertEquals(8, m.get("other/c/0"));
        assertEquals(0, m.get("inner/c/3"));
        unzipAccepts(zip);
        try (Store r = ZipStores.open(zip, "")) {
            assertArrayEquals(utf8("outside the hierarchy"), array(r.get(k("README")).orElseThrow()));
            assertArrayEquals(deflated, array(r.get(k("inner/c/0")).orElseThrow()));
            assertArrayEquals(deflated, array(r.get(k("other/c/0")).orElseThrow()));
            assertArrayEquals(utf8("replaced"), array(r.get(k("inner/c/1")).orElseThrow()));
            assertArrayEquals(utf8("new"), array(r.get(k("inner/c/3")).orElseThrow()));
        }
    }

    @Test
    void anUpdateThatChangesNothingLeavesTheFileUntouched() throws IOException {
        Path zip = Zips.write(tmp.resolve("set.zip"), Item.stored("zarr.json", utf8("{}")));
        Files.setLastModifiedTime(zip, FileTime.fromMillis(1_000_000_000_000L));
        byte[] before = Files.readAllBytes(zip);
        try (Store s = ZipStores.update(zip, "", ZipStoreOptions.defaults())) {
            assertArrayEquals(utf8("{}"), array(s.get(k("zarr.json")).orElseThrow()));
        }
        assertArrayEquals(before, Files.readAllBytes(zip));
        assertEquals(FileTime.fromMillis(1_000_000_000_000L), Files.getLastModifiedTime(zip));
        // No archive and nothing written: none is created.
        Path none = tmp.resolve("sub").resolve("none.zip");
        ZipStores.update(none, "", ZipStoreOptions.defaults()).close();
        assertFalse(Files.exists(none));
        // No archive, something written: created, with its folder.
        try (Store s = ZipStores.update(none, "a/b", ZipStoreOptions.defaults())) {
            assertEquals(List.of(), s.list());
            s.set(k("zarr.json"), bytes("{}"));
        }
        assertEquals(List.of("a/b/zarr.json"), List.copyOf(methods(none).keySet()));
    }

    @Test
    void updateRefusesABrokenArchiveAndAFailedRewriteLeavesTheOldOne() throws IOException {
        Path zip = Zips.write(tmp.resolve("set.zip"), Item.stored("zarr.json", utf8("{}")));
        byte[] good = Files.readAllBytes(zip);
        Zips.truncate(zip, good.length - 1);
        StoreException e = assertThrows(StoreException.class, () -> ZipStores.update(zip, "", ZipStoreOptions.defaults()));
        assertTrue(e.getMessage().contains("end-of-central-directory"), e.getMessage());
        // A value of the old archive that cannot be copied fails the rewrite; the file is unchanged.
        Files.write(zip, good);
        Store s = ZipStores.update(zip, "", ZipStoreOptions.defaults());
        s.set(k("new"), bytes("n"));
        Files.write(zip, java.util.Arrays.copyOf(good, 20)); // truncated under the open store
        e = assertThrows(StoreException.class, s::close);
        assertTrue(e.getMessage().contains("zarr.json") && e.getMessage().contains("unchanged"), e.getMessage());
        assertEquals(20, Files.size(zip));
        assertEquals(List.of("set.zip"), files());
    }

    @Test
    void aClosedWritableStoreRefusesWrites() {
        Store s = ZipStores.create(tmp.resolve("c.zip"));
        s.close();
        StoreException e = assertThrows(StoreException.class, () -> s.set(k("x"), bytes("x")));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(StoreException.class, () -> s.erase(k("x")));
    }

    @Test
    void zip64WhenThereAreMoreThan65535Entries() throws Exception {
        Path zip = tmp.resolve("many.zip");
        int n = 70_000;
        try (Store s = ZipStores.create(zip)) {
            for (int i = 0; i < n; i++) {
                s.set(k("c/" + i), ByteBuffer.wrap(new byte[] {(byte) i, (byte) (i >> 8)}));
            }
        }
        byte[] b = Files.readAllBytes(zip);
        ByteBuffer end = ByteBuffer.wrap(b, b.length - 22, 22).slice().order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x06054b50, end.getInt(0));
        assertEquals((short) 0xffff, end.getShort(10), "the classic end record cannot count them");
        assertEquals(0x07064b50, ByteBuffer.wrap(b, b.length - 42, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(),
                "a ZIP64 end-record locator precedes it");
        try (Store r = ZipStores.open(zip, "")) {
            assertEquals(n, r.list().size());
            for (int i : new int[] {0, 1, 65_535, 65_536, n - 1}) {
                assertArrayEquals(new byte[] {(byte) i, (byte) (i >> 8)}, array(r.get(k("c/" + i)).orElseThrow()), "c/" + i);
            }
        }
        unzipAccepts(zip);
    }

    @Test
    void copyWritesEveryKeyOfAListableStore() throws Exception {
        Path source = tmp.resolve("source.zip");
        byte[] v = pattern(70_000, 3);
        try (Store s = ZipStores.create(source)) {
            s.set(k("zarr.json"), bytes("{}"));
            s.set(k("g/c/0"), ByteBuffer.wrap(v));
        }
        Path copy = tmp.resolve("copy.zip");
        try (Store s = ZipStores.open(source, "")) {
            assertEquals(2, ZipStores.copy(s, copy, ZipStoreOptions.defaults().withCompression(Compression.DEFLATED)));
            StoreException e = assertThrows(StoreException.class, () -> ZipStores.copy(s, copy));
            assertTrue(e.getMessage().contains("already exists"), e.getMessage());
        }
        assertEquals(Map.of("g/c/0", 8, "zarr.json", 8), methods(copy));
        unzipAccepts(copy);
        try (Store r = ZipStores.open(copy, "")) {
            assertArrayEquals(v, array(r.get(k("g/c/0")).orElseThrow()));
        }
        Store unlistable = new Store() {
            @Override
            public StoreCapabilities capabilities() {
                return new StoreCapabilities(true, false, false, false);
            }

            @Override
            public String describe() {
                return "unlistable:";
            }

            @Override
            public Optional<ByteBuffer> get(StoreKey key) {
                return Optional.empty();
            }

            @Override
            public List<StoreKey> listPrefix(String prefix) {
                throw new UnsupportedOperationException();
            }
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ZipStores.copy(unlistable, tmp.resolve("never.zip")));
        assertTrue(e.getMessage().contains("unlistable:"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("never.zip")));
    }
}
