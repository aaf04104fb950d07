package dev.zarrj.store.zip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrNode;
import dev.zarrj.store.fs.FileStores;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Directory stores written by other implementations, zipped at test time by the Info-ZIP
 * {@code zip} command (stored and deflated, at the archive's root and inside folders), read through
 * the zip store exactly as through the file system store: every key's bytes, the listings, and
 * every array's values through {@link Zarr}. Then the same stores copied into zips by zarrj, which
 * {@code unzip -t} must accept.
 */
class ZipVectorsTest {
    private static final Zarr ZARR = Zarr.defaults();

    @TempDir
    Path tmp;

    /** The shared vectors, found by walking up from the working directory; the test is skipped without them. */
    static Path vectors() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("vectors");
            if (Files.isRegularFile(candidate.resolve("MANIFEST.json"))) {
                return candidate;
            }
        }
        String why = "shared/vectors not found above " + Path.of("").toAbsolutePath() + "; vector zip tests skipped";
        System.out.println(why);
        Assumptions.abort(why);
        return null;
    }

    /** Runs a command in {@code dir}; the test is skipped when the command is not installed. */
    static String run(Path dir, String... command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            String why = "'" + command[0] + "' is not installed (" + e.getMessage() + "); skipped";
            System.out.println(why);
            Assumptions.abort(why);
            return null;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command));
        assertEquals(0, p.exitValue(), String.join(" ", command) + ":\n" + out);
        return out;
    }

    /** Every key of {@code dir} reads the same from {@code zip}, and lists the same. */
    static void sameKeys(Store dir, Store zip) {
        List<StoreKey> keys = dir.list();
        assertTrue(keys.size() > 1, "vectors present: " + keys.size());
        assertEquals(keys, zip.list(), zip.describe());
        for (StoreKey k : keys) {
            assertEquals(dir.get(k), zip.get(k), zip.describe() + " key " + k);
            assertEquals(dir.size(k), zip.size(k), zip.describe() + " size " + k);
        }
        assertEquals(dir.listDir(""), zip.listDir(""));
        for (StoreKey k : keys) {
            String v = k.value();
            if (v.indexOf('/') > 0) {
                String prefix = v.substring(0, v.lastIndexOf('/') + 1);
                assertEquals(dir.listDir(prefix), zip.listDir(prefix), prefix);
                assertEquals(dir.listPrefix(prefix), zip.listPrefix(prefix), prefix);
            }
        }
    }

    /**
     * Every node of {@code dir} opens the same from {@code zip}; every array reads the same values,
     * or fails the same way (an extension this build lacks). Returns the number of arrays read.
     */
    static int sameArrays(Store dir, Store zip) {
        int read = 0;
        for (StoreKey k : dir.list()) {
            if (!k.name().equals("zarr.json")) {
                continue;
            }
            String path = "/" + (k.value().contains("/") ? k.value().substring(0, k.value().lastIndexOf('/')) : "");
            Object fromDir = outcome(dir, path);
            Object fromZip = outcome(zip, path);
            if (fromDir instanceof NdArray a) {
                if (!(fromZip instanceof NdArray b) || !a.contentEquals(b)) {
                    fail(path + ": " + fromDir + " from the directory, " + fromZip + " from " + zip.describe());
                }
                read++;
            } else {
                assertEquals(fromDir, fromZip, path);
            }
        }
        return read;
    }

    /** The values of the array at a path, "group", or the class of the exception that stopped it. */
    static Object outcome(Store store, String path) {
        try {
            ZarrNode n = ZARR.open(store, path);
            return n instanceof ZarrArray a ? a.read() : "group";
        } catch (RuntimeException e) {
            return e.getClass().getName();
        }
    }

    @Test
    void zipsMadeByInfoZipReadLikeTheirDirectories() throws Exception {
        Path v = vectors();
        for (String name : List.of("zarrs/v3/array_gzip.zarr", "zarrita.js/data.zarr")) {
            Path dir = v.resolve(name);
            Assumptions.assumeTrue(Files.isDirectory(dir), dir + " missing");
            Path stored = tmp.resolve(dir.getFileName() + "-root-stored.zip");
            Path deflated = tmp.resolve(dir.getFileName() + "-root-deflated.zip");
            Path nested = tmp.resolve(dir.getFileName() + "-nested.zip");
            run(dir, "zip", "-0", "-r", "-q", stored.toString(), ".");
            run(dir, "zip", "-9", "-r", "-q", deflated.toString(), ".");
            // Inside a folder: the path of the store relative to the vectors, e.g. zarrita.js/data.zarr/...
            run(v, "zip", "-0", "-r", "-q", nested.toString(), name);
            try (Store fs = FileStores.open(dir, true);
                    Store a = ZipStores.open(stored, "");
                    Store b = ZipStores.open(deflated, "");
                    Store c = ZipStores.open(nested, name);
                    Store d = ZARR.openStore("zip:" + nested.toUri().getRawPath() + "!/" + name, true);
                    Store e = ZARR.openStore(stored.toString(), true)) {
                assertEquals("zip:" + stored, e.describe(), "Zarr.openStore maps a .zip path to the zip store");
                int arrays = 0;
                for (Store zip : List.of(a, b, c, d, e)) {
                    sameKeys(fs, zip);
                    arrays = sameArrays(fs, zip);
                }
                System.out.println(name + ": " + arrays + " arrays read alike");
                assertTrue(arrays >= 1, name + ": at least one array reads through zarr-core: " + arrays);
            }
        }
    }

    @Test
    void zipsWrittenByZarrjPassUnzipAndReadLikeTheirDirectories() throws Exception {
        Path v = vectors();
        for (String name : List.of("zarrs/v3/array_gzip.zarr", "zarrita.js/data.zarr")) {
            Path dir = v.resolve(name);
            Assumptions.assumeTrue(Files.isDirectory(dir), dir + " missing");
            Path stored = tmp.resolve(dir.getFileName() + "-copy.zip");
            Path deflated = tmp.resolve(dir.getFileName() + "-copy-deflated.zip");
            try (Store fs = FileStores.open(dir, true)) {
                assertEquals(fs.list().size(), ZipStores.copy(fs, stored));
                assertEquals(fs.list().size(), ZipStores.copy(fs, deflated,
                        ZipStoreOptions.defaults().withCompression(ZipStoreOptions.Compression.DEFLATED)));
            }
            for (Path zip : List.of(stored, deflated)) {
                run(tmp, "unzip", "-tq", zip.toString());
                // unzip extracts the same tree: compare it with the original, file by file.
                Path out = Files.createDirectories(tmp.resolve(zip.getFileName() + ".out"));
                run(out, "unzip", "-q", zip.toString());
                try (Store fs = FileStores.open(dir, true); Store extracted = FileStores.open(out, true);
                        Store z = ZipStores.open(zip, "")) {
                    sameKeys(fs, extracted);
                    sameKeys(fs, z);
                    assertTrue(sameArrays(fs, z) >= 1);
                }
            }
        }
    }

    @Test
    void arraysWrittenThroughZarrIntoAZipReadBack() throws Exception {
        Path zip = tmp.resolve("written.zip");
        NdArray data = NdArray.allocate(DataTypes.INT32, 20, 30);
        for (int i = 0; i < 600; i++) {
            data.setLong(i, i * 7L - 100);
        }
        try (Store store = ZARR.openStore(zip.toString())) {
            ZarrArray a = ZARR.array(DataTypes.INT32, 20, 30).chunks(8, 8).codec("gzip", Map.of("level", 1))
                    .create(store, "/group/array");
            a.write(data);
            a.write(new long[] {0, 0}, NdArray.allocate(DataTypes.INT32, 3, 3)); // rewrites a chunk
            ZARR.createGroup(store, "/group");
        }
        run(tmp, "unzip", "-tq", zip.toString());
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                data.setLong(i * 30 + j, 0);
            }
        }
        try (Store store = ZipStores.open(zip, "")) {
            assertTrue(ZARR.openArray(store, "/group/array").read().contentEquals(data));
            assertTrue(store.exists(StoreKey.of("zarr.json")), "the root group");
            assertEquals(3 * 4, store.listPrefix("group/array/c/").size(), "chunks of 8x8 over 20x30");
        }
        List<String> names = new ArrayList<>(List.of(run(tmp, "unzip", "-Z1", zip.toString()).split("\n")));
        names.removeIf(String::isBlank);
        assertEquals(12 + 3, names.size(), "chunks and three zarr.json: " + names);
    }
}
