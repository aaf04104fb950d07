package dev.zarrj.store.fs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.Leftover;
import dev.zarrj.api.store.StoreKey;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file store's conditional writes: its lock across processes, its lock files, its versions. */
class FileStoreConditionalTest {
    @TempDir
    Path dir;

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(FileStore s, String key) {
        return s.get(StoreKey.of(key)).map(b -> StandardCharsets.UTF_8.decode(b).toString()).orElse(null);
    }

    private static List<Path> filesUnder(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
    }

    @Test
    void versionsAreDigestsOfTheContentSoTwoStoreObjectsAgree() {
        FileStore a = new FileStore(dir, false, false);
        FileStore b = new FileStore(dir, false, false);
        StoreKey k = StoreKey.of("x/y");
        a.set(k, utf8("one"));
        String v = a.conditionalWrites().orElseThrow().getVersioned(k).orElseThrow().version();
        assertEquals(v, b.conditionalWrites().orElseThrow().getVersioned(k).orElseThrow().version());
        // SHA-256 of "one"
        assertEquals("7692c3ad3540bb803c020b3aee66cd8887123234ea0c6e7143c0add73ff431ed", v);
        b.set(k, utf8("two"));
        assertNotEquals(v, a.conditionalWrites().orElseThrow().getVersioned(k).orElseThrow().version());
    }

    @Test
    void conditionalWritesLeaveNoFilesBehindAndLockFilesAreNeverKeys() throws IOException {
        FileStore s = new FileStore(dir, false, false);
        ConditionalWrites c = s.conditionalWrites().orElseThrow();
        StoreKey k = StoreKey.of("c/0");
        assertTrue(c.setIfAbsent(k, utf8("a")));
        assertFalse(c.setIfAbsent(k, utf8("b")));
        String v = c.getVersioned(k).orElseThrow().version();
        assertTrue(c.setIfMatch(k, utf8("c"), v));
        assertFalse(c.setIfMatch(k, utf8("d"), v));
        assertEquals(List.of(dir.resolve("c/0")), filesUnder(dir), "only the value is left");
        assertEquals("c", text(s, "c/0"));

        // A lock file left by a process that died while holding it: listed nowhere, a leftover
        // that no one owns, removed, and no obstacle to the next conditional write.
        Path stale = dir.resolve("c").resolve(FileStore.lockName("0"));
        Files.createFile(stale);
        assertEquals(List.of(k), s.list());
        assertThrows(dev.zarrj.api.InvalidKeyException.class, () -> s.get(StoreKey.of("c/" + stale.getFileName())));
        String v2 = c.getVersioned(k).orElseThrow().version();
        assertTrue(c.setIfMatch(k, utf8("e"), v2));
        assertFalse(Files.exists(stale), "the writer deletes the lock file it held");
        Files.createFile(stale);
        List<Leftover> found = s.leftovers();
        assertEquals(1, found.size(), found::toString);
        assertFalse(found.get(0).live(), found::toString);
        assertEquals(1, s.removeLeftovers(Duration.ZERO).size());
        assertEquals(List.of(dir.resolve("c/0")), filesUnder(dir));
    }

    @Test
    void setIfAbsentOnADirectoryIsAStoreExceptionNamingTheKey() throws IOException {
        FileStore s = new FileStore(dir, false, false);
        Files.createDirectories(dir.resolve("d/e"));
        StoreException e = assertThrows(StoreException.class,
                () -> s.conditionalWrites().orElseThrow().setIfAbsent(StoreKey.of("d"), utf8("x")));
        assertTrue(e.getMessage().contains("key 'd'"), e.getMessage());
        assertEquals(List.of(), filesUnder(dir), "no temporary file is left");
    }

    /**
     * Threads of this JVM increment one counter through two store objects, one of them reaching
     * the root through a symbolic link: the key's lock is one lock in this JVM however the path
     * is spelled, so no file lock overlaps and no update is lost.
     */
    @Test
    void storeObjectsOfOneRootShareTheKeyLockInThisJvm() throws Exception {
        Path root = Files.createDirectories(dir.resolve("root"));
        Path link;
        try {
            link = Files.createSymbolicLink(dir.resolve("link"), root);
        } catch (UnsupportedOperationException | IOException e) {
            link = root;
        }
        List<FileStore> stores = List.of(new FileStore(root, false, false), new FileStore(link, false, false));
        StoreKey k = StoreKey.of("n/counter");
        assertTrue(stores.get(0).conditionalWrites().orElseThrow().setIfAbsent(k, utf8("0")));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                ConditionalWrites c = stores.get(t % 2).conditionalWrites().orElseThrow();
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        while (true) {
                            ConditionalWrites.VersionedValue v = c.getVersioned(k).orElseThrow();
                            int n = Integer.parseInt(StandardCharsets.UTF_8.decode(v.value()).toString());
                            if (c.setIfMatch(k, utf8(Integer.toString(n + 1)), v.version())) {
                                break;
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals("200", text(stores.get(0), "n/counter"));
    }

    /**
     * Another process holds the key's lock (as its conditional write does), then changes the
     * value, deletes the lock file and releases it. A setIfMatch of this process with the version
     * read before waits for the lock, finds the lock file it waited on gone, locks the new one,
     * and refuses: the value is no longer the one its version names. While the other process
     * holds the lock, its lock file is a live leftover that removeLeftovers keeps.
     */
    @Test
    void setIfMatchWaitsForAnotherProcessesLockAndSeesItsWrite() throws Exception {
        FileStore s = new FileStore(dir, false, false);
        ConditionalWrites c = s.conditionalWrites().orElseThrow();
        StoreKey k = StoreKey.of("c/0");
        s.set(k, utf8("before"));
        String v = c.getVersioned(k).orElseThrow().version();
        Process child = startHolder(dir, "c/0", "theirs");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
             Writer in = new java.io.OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8)) {
            assertEquals("locked", out.readLine());
            List<Leftover> held = s.leftovers();
            assertEquals(1, held.size(), held::toString);
            assertTrue(held.get(0).live(), "a lock file another process holds is live: " + held);
            assertEquals(List.of(), s.removeLeftovers(Duration.ZERO));

            Future<Boolean> mine = pool.submit(() -> c.setIfMatch(k, utf8("mine"), v));
            // Held by the other process: it cannot finish before that process releases the lock.
            Thread.sleep(300);
            assertFalse(mine.isDone(), "setIfMatch did not wait for the lock another process holds");
            in.write("change\n");
            in.flush();
            assertEquals("released", out.readLine());
            assertFalse(mine.get(60, TimeUnit.SECONDS), "setIfMatch with a version older than the other process's write");
            assertEquals("theirs", text(s, "c/0"));
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
            assertEquals(List.of(dir.resolve("c/0")), filesUnder(dir));
        } finally {
            pool.shutdownNow();
            child.destroyForcibly();
            child.waitFor(60, TimeUnit.SECONDS);
        }
    }

    private static Process startHolder(Path root, String key, String value) throws IOException {
        String classPath = Stream.of(KeyLockHolder.class, FileStore.class, StoreKey.class, org.apiguardian.api.API.class)
                .map(FileStoreConditionalTest::location)
                .distinct()
                .collect(Collectors.joining(File.pathSeparator));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx64m", "-XX:+UseSerialGC", "-cp", classPath, KeyLockHolder.class.getName(),
                root.toString(), key, value).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
