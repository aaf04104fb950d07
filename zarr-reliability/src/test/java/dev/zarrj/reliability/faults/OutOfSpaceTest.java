package dev.zarrj.reliability.faults;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.store.fs.FileStores;
import dev.zarrj.store.zip.ZipStoreOptions;
import dev.zarrj.store.zip.ZipStores;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes into a file system that fills up: a {@code tmpfs} of {@value #SIZE_MB} MiB mounted for
 * each test (as root; skipped, with the reason, only where mounting is not allowed). A write that
 * runs out of space fails with a {@link StoreException} naming the key and saying the device is
 * full; the value it was replacing is intact; no temporary file is left; the store still reads;
 * and once space is freed, writes work again. A zip archive whose rewrite on close runs out of
 * space is left as it was.
 */
class OutOfSpaceTest {
    private static final int SIZE_MB = 4;
    private static final String FULL = "No space left on device";

    @TempDir
    Path dir;
    private Path fs;

    @BeforeEach
    void mount() throws IOException, InterruptedException {
        fs = Files.createDirectory(dir.resolve("small-fs"));
        ProcessResult r = exec("mount", "-t", "tmpfs", "-o", "size=" + SIZE_MB + "m", "tmpfs", fs.toString());
        if (r.status != 0) {
            String why = r.output.toLowerCase(java.util.Locale.ROOT);
            boolean notAllowed = why.contains("permission denied") || why.contains("must be superuser")
                    || why.contains("only root") || why.contains("operation not permitted") || !isRoot();
            Assumptions.assumeFalse(notAllowed, "cannot mount a tmpfs here (not allowed): " + r.output.strip());
            throw new AssertionError("mount -t tmpfs failed (status " + r.status + "): " + r.output);
        }
        fs = fs.toRealPath();
    }

    @AfterEach
    void unmount() throws IOException, InterruptedException {
        if (fs != null && isMounted(fs)) {
            ProcessResult r = exec("umount", fs.toString());
            if (r.status != 0) {
                exec("umount", "-l", fs.toString()); // busy: detached now, freed when the last file closes
            }
            assertFalse(isMounted(fs), "the tmpfs is still mounted: " + r.output);
        }
    }

    @Test
    void aFileStoreThatFillsUpKeepsTheValueItWasReplacing() throws IOException {
        Path root = fs.resolve("data.zarr");
        byte[] old = bytes(1, 200_000);
        byte[] replacement = bytes(2, 1_000_000);
        List<String> filled = new ArrayList<>();
        try (Store store = FileStores.open(root, false)) {
            store.set(StoreKey.of("victim"), ByteBuffer.wrap(old));
            StoreException full = null;
            for (int i = 0; full == null; i++) {
                String key = "fill/" + i;
                try {
                    store.set(StoreKey.of(key), ByteBuffer.wrap(bytes(100 + i, 256 * 1024)));
                    filled.add(key);
                } catch (StoreException e) {
                    full = e;
                    assertFullAndNamed(e, key);
                    assertFalse(store.exists(StoreKey.of(key)), "the write that failed stored nothing");
                }
                assertTrue(i < 100, "a 4 MiB file system never filled up");
            }
            StoreException e = assertThrows(StoreException.class,
                    () -> store.set(StoreKey.of("victim"), ByteBuffer.wrap(replacement)));
            assertFullAndNamed(e, "victim");
            assertArrayEquals(old, get(store, "victim"), "the value being replaced is intact");
            assertNoTemporaryFiles(root);
            assertEquals(List.of(), store.leftovers());

            // Still reads: every key lists and reads as written.
            List<String> listed = new ArrayList<>();
            store.list().forEach(k -> listed.add(k.value()));
            List<String> expected = new ArrayList<>(filled);
            expected.add("victim");
            expected.sort(null);
            listed.sort(null);
            assertEquals(expected, listed);
            for (int i = 0; i < filled.size(); i++) {
                assertArrayEquals(bytes(100 + i, 256 * 1024), get(store, filled.get(i)), filled.get(i));
            }

            // Space freed: writes work again.
            for (String k : filled.subList(0, 6)) {
                store.erase(StoreKey.of(k));
            }
            store.set(StoreKey.of("victim"), ByteBuffer.wrap(replacement));
            assertArrayEquals(replacement, get(store, "victim"));
            assertNoTemporaryFiles(root);
        }
    }

    @Test
    void anArrayWriteThatFillsUpFailsWithAZarrErrorAndKeepsItsChunks() throws IOException {
        Zarr zarr = Zarr.defaults();
        String location = fs.resolve("array.zarr").toString();
        int n = 1024; // 4 MiB of int32: more than the file system holds beside the first write
        int[] first = new int[n * 256];
        java.util.Arrays.fill(first, 7);
        try (ZarrArray a = zarr.array(DataTypes.INT32, n, n).chunks(128, 128).create(location, "/a")) {
            a.write(new long[] {0, 0}, new long[] {256, n}, first);
            int[] all = new Random(3).ints(n * n).toArray(); // incompressible, not that it matters here
            StoreException e = assertThrows(StoreException.class,
                    () -> a.write(new long[] {0, 0}, new long[] {n, n}, all));
            System.out.println("out of space in an array write: " + e.getMessage());
            assertTrue(e.getMessage().contains(FULL), e.getMessage());
            assertTrue(e.getMessage().contains("'a/c/"), "names the chunk's key: " + e.getMessage());
            // Each chunk of the first rows holds the first write or the second, whole.
            int[] rows = a.read(new long[] {0, 0}, new long[] {256, n}).toIntArray();
            for (int r = 0; r < 256; r += 128) {
                for (int c = 0; c < n; c += 128) {
                    boolean isOld = true;
                    boolean isNew = true;
                    for (int i = r; i < r + 128; i++) {
                        for (int j = c; j < c + 128; j++) {
                            isOld &= rows[i * n + j] == 7;
                            isNew &= rows[i * n + j] == all[i * n + j];
                        }
                    }
                    assertTrue(isOld || isNew, "chunk at (" + r / 128 + ", " + c / 128 + ") is torn");
                }
            }
        }
        assertNoTemporaryFiles(fs.resolve("array.zarr"));
    }

    @Test
    void aZipArchiveWhoseRewriteRunsOutOfSpaceIsLeftAsItWas() throws IOException {
        Path zip = fs.resolve("data.zip");
        byte[] old = bytes(1, 1_200_000);
        try (Store store = ZipStores.create(zip)) {
            store.set(StoreKey.of("victim"), ByteBuffer.wrap(old));
            store.set(StoreKey.of("zarr.json"), ByteBuffer.wrap("{}".getBytes(StandardCharsets.UTF_8)));
        }
        byte[] archive = Files.readAllBytes(zip);

        // The spill file (1.8 MB) fits beside the archive (1.2 MB); the new archive (1.8 MB) does not.
        Store update = ZipStores.update(zip, "", ZipStoreOptions.defaults());
        update.set(StoreKey.of("victim"), ByteBuffer.wrap(bytes(2, 300_000)));
        update.set(StoreKey.of("more"), ByteBuffer.wrap(bytes(3, 1_500_000)));
        StoreException e = assertThrows(StoreException.class, update::close);
        System.out.println("out of space on close: " + e.getMessage());
        assertTrue(e.getMessage().contains(FULL), e.getMessage());
        assertTrue(e.getMessage().contains("unchanged"), e.getMessage());
        assertArrayEquals(archive, Files.readAllBytes(zip), "the archive is as it was");
        assertOnlyTheArchive(zip);
        try (Store read = ZipStores.open(zip, "")) {
            assertArrayEquals(old, get(read, "victim"));
            assertFalse(read.exists(StoreKey.of("more")));
        }

        // Space freed (the spill file went with the close): a smaller change is written.
        try (Store store = ZipStores.update(zip, "", ZipStoreOptions.defaults())) {
            store.set(StoreKey.of("victim"), ByteBuffer.wrap(bytes(4, 300_000)));
        }
        try (Store read = ZipStores.open(zip, "")) {
            assertArrayEquals(bytes(4, 300_000), get(read, "victim"));
        }
        assertOnlyTheArchive(zip);
    }

    @Test
    void aZipStoreWhoseSpillFillsUpFailsNamingTheKeyAndKeepsTheArchive() throws IOException {
        Path zip = fs.resolve("data.zip");
        byte[] old = bytes(1, 500_000);
        try (Store store = ZipStores.create(zip)) {
            store.set(StoreKey.of("victim"), ByteBuffer.wrap(old));
        }
        byte[] archive = Files.readAllBytes(zip);
        Store update = ZipStores.update(zip, "", ZipStoreOptions.defaults());
        StoreException full = null;
        for (int i = 0; full == null; i++) {
            String key = "fill/" + i;
            try {
                update.set(StoreKey.of(key), ByteBuffer.wrap(bytes(100 + i, 256 * 1024)));
            } catch (StoreException e) {
                full = e;
                assertFullAndNamed(e, key);
            }
            assertTrue(i < 100, "a 4 MiB file system never filled up");
        }
        // The store still reads, the archive's values and the ones written before.
        assertArrayEquals(old, get(update, "victim"));
        assertArrayEquals(bytes(100, 256 * 1024), get(update, "fill/0"));
        StoreException e = assertThrows(StoreException.class, update::close);
        System.out.println("out of space on close: " + e.getMessage());
        assertTrue(e.getMessage().contains(FULL), e.getMessage());
        assertArrayEquals(archive, Files.readAllBytes(zip), "the archive is as it was");
        assertOnlyTheArchive(zip);
        try (Store store = ZipStores.update(zip, "", ZipStoreOptions.defaults())) {
            store.set(StoreKey.of("victim"), ByteBuffer.wrap(bytes(5, 1000)));
        }
        try (Store read = ZipStores.open(zip, "")) {
            assertArrayEquals(bytes(5, 1000), get(read, "victim"));
        }
    }

    private static void assertFullAndNamed(StoreException e, String key) {
        assertNotNull(e.getMessage());
        System.out.println("out of space: " + e.getMessage());
        assertTrue(e.getMessage().contains("'" + key + "'"), "names the key '" + key + "': " + e.getMessage());
        assertTrue(e.getMessage().contains(FULL), "says the device is full: " + e.getMessage());
    }

    /** Nothing in the archive's folder but the archive: no spill, no unfinished archive, no lock file. */
    private static void assertOnlyTheArchive(Path zip) throws IOException {
        try (Stream<Path> s = Files.list(zip.getParent())) {
            assertEquals(List.of(zip.getFileName().toString()), s.map(p -> p.getFileName().toString()).toList());
        }
    }

    private static void assertNoTemporaryFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            List<Path> hidden = s.filter(p -> p.getFileName().toString().startsWith(".")).toList();
            assertEquals(List.of(), hidden, "temporary files left behind");
        }
    }

    private static byte[] get(Store store, String key) {
        ByteBuffer b = store.get(StoreKey.of(key)).orElseThrow(() -> new AssertionError(key + " is absent"));
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    /** Incompressible bytes, the same for the same seed. */
    private static byte[] bytes(int seed, int length) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static boolean isRoot() {
        try {
            return "0".equals(exec("id", "-u").output.strip());
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static boolean isMounted(Path p) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
            String[] f = line.split(" ");
            if (f.length > 1 && f[1].equals(p.toString())) {
                return true;
            }
        }
        return false;
    }

    private record ProcessResult(int status, String output) {}

    private static ProcessResult exec(String... command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return new ProcessResult(-1, "cannot run " + command[0] + ": " + e.getMessage());
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return new ProcessResult(p.exitValue(), out);
    }
}
