package dev.zarrj.store.fs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.store.Leftover;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a crashed {@code set} leaves (its temporary file) is reported and removed; what a running
 * writer, in this JVM or another process, is writing is live and never removed; values are never
 * touched.
 */
class FileStoreLeftoversTest {
    private static final int BIG = 16 << 20;

    @TempDir
    Path tmp;

    static StoreKey k(String key) {
        return StoreKey.of(key);
    }

    static ByteBuffer bytes(int n, int fill) {
        ByteBuffer b = ByteBuffer.allocate(n);
        for (int i = 0; i < n; i++) {
            b.put(i, (byte) fill);
        }
        return b;
    }

    /** A temporary file as a crashed {@code set} leaves it, last written {@code age} ago. */
    static Path plant(Path dir, String name, int size, Duration age) throws IOException {
        Files.createDirectories(dir);
        Path p = dir.resolve(name);
        Files.write(p, new byte[size]);
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minus(age)));
        return p;
    }

    @Test
    void aCrashedWritesTemporaryFileIsReportedAndRemovedAndValuesAreNot() throws IOException {
        Path root = tmp.resolve("s.zarr");
        Store store = new FileStore(root, false, false);
        store.set(k("a/c/0"), bytes(10, 1));
        Path old = plant(root.resolve("a/c"), ".zarrj-0123abcd.tmp", 700, Duration.ofHours(2));
        Path young = plant(root.resolve("b/deep"), ".zarrj-00ff.tmp", 5, Duration.ZERO);
        Path lookalike = plant(root.resolve("a"), "zarrj-1.tmp", 3, Duration.ofHours(2));

        List<Leftover> found = store.leftovers();
        assertEquals(List.of(old.toString(), young.toString()), found.stream().map(Leftover::location).toList());
        Leftover first = found.get(0);
        assertEquals(700, first.size());
        assertFalse(first.live(), "no writer holds it");
        assertTrue(Duration.between(first.modified(), Instant.now()).compareTo(Duration.ofHours(1)) > 0,
                first.modified().toString());
        assertEquals(List.of(k("a/c/0"), k("a/zarrj-1.tmp")), store.list(), "leftovers are never keys");

        // A read-only store removes them too: no value changes.
        Store readOnly = new FileStore(root, true, false);
        List<Leftover> removed = readOnly.removeLeftovers(Duration.ofMinutes(1));
        assertEquals(List.of(old.toString()), removed.stream().map(Leftover::location).toList());
        assertFalse(Files.exists(old));
        assertTrue(Files.exists(young), "younger than the minimum age");
        assertEquals(List.of(young.toString()), readOnly.removeLeftovers(Duration.ZERO).stream()
                .map(Leftover::location).toList());
        assertFalse(Files.exists(root.resolve("b"), LinkOption.NOFOLLOW_LINKS), "directories left empty are removed");
        assertEquals(List.of(), store.leftovers());
        assertTrue(Files.exists(lookalike));
        assertEquals(List.of(k("a/c/0"), k("a/zarrj-1.tmp")), store.list());
        assertEquals(10, store.size(k("a/c/0")).orElseThrow());
        assertThrows(IllegalArgumentException.class, () -> store.removeLeftovers(Duration.ofSeconds(-1)));
    }

    @Test
    void openingAndWritingRemovesNoLeftover() throws IOException {
        Path root = tmp.resolve("s.zarr");
        Path old = plant(root.resolve("a"), ".zarrj-77.tmp", 9, Duration.ofDays(3));
        Store store = new FileStore(root, false, false);
        store.set(k("a/v"), bytes(4, 2));
        store.erase(k("a/v"));
        store.set(k("a/w"), bytes(4, 3));
        assertTrue(Files.exists(old));
        assertEquals(List.of(old.toString()), store.leftovers().stream().map(Leftover::location).toList());
    }

    @Test
    void aStoreWithoutARootHasNoLeftovers() {
        Store store = new FileStore(tmp.resolve("missing"), true, false);
        assertEquals(List.of(), store.leftovers());
        assertEquals(List.of(), store.removeLeftovers(Duration.ZERO));
    }

    /**
     * Writes in progress in this JVM are live: every leftover seen while a thread writes large
     * values is live, none is removed, and the writes all succeed.
     */
    @Test
    void writesInProgressInThisJvmAreLiveAndNeverRemoved() throws Exception {
        Path root = tmp.resolve("s.zarr");
        Store store = new FileStore(root, false, false);
        AtomicBoolean done = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        Thread writer = new Thread(() -> {
            try {
                for (int round = 0; round < 40; round++) {
                    store.set(k("c/" + (round % 4)), bytes(BIG / 4, round));
                }
            } catch (Throwable t) {
                failures.add(t);
            } finally {
                done.set(true);
            }
        });
        writer.start();
        int seen = 0;
        List<Leftover> removed = new ArrayList<>();
        while (!done.get()) {
            for (Leftover l : store.leftovers()) {
                assertTrue(l.live(), "a write of this JVM in progress: " + l);
                seen++;
            }
            removed.addAll(store.removeLeftovers(Duration.ZERO));
        }
        writer.join();
        assertEquals(List.of(), List.copyOf(failures));
        assertEquals(List.of(), removed);
        assertEquals(List.of(), store.leftovers());
        for (int key = 0; key < 4; key++) {
            ByteBuffer v = store.get(k("c/" + key)).orElseThrow();
            assertEquals(BIG / 4, v.remaining());
            assertEquals((byte) (36 + key), v.get(0));
            assertEquals((byte) (36 + key), v.get(BIG / 4 - 1));
        }
        System.out.println("leftovers of writes in progress seen while writing: " + seen);
    }

    /**
     * A child JVM writes large values in a loop. Frozen (SIGSTOP) while its temporary file holds
     * bytes, that file is live, since {@code set} locks it before writing, and is not removed.
     * Killed (SIGKILL), the same file is a dead leftover, which removeLeftovers removes; every
     * value is whole.
     */
    @Test
    void aWriterKilledMidWriteLeavesALeftoverThatIsRemovedWhileAFrozenOneIsLive() throws Exception {
        Assumptions.assumeFalse(System.getProperty("os.name").startsWith("Windows"), "needs SIGSTOP and SIGKILL");
        Path root = tmp.resolve("s.zarr");
        Process child = startWriter(root);
        try {
            BufferedReader out = new BufferedReader(
                    new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            if (!"ready".equals(line)) {
                throw new AssertionError("the child failed: " + line + "\n"
                        + out.lines().collect(Collectors.joining("\n")));
            }
            Store store = new FileStore(root, true, false);
            Leftover caught = null;
            for (int attempt = 0; attempt < 1000 && caught == null; attempt++) {
                if (!signal(child, "STOP")) {
                    return;
                }
                // Frozen: a temporary file with bytes in it was locked before they were written.
                caught = store.leftovers().stream().filter(l -> l.size() > 0).findFirst().orElse(null);
                if (caught == null) {
                    signal(child, "CONT");
                    Thread.sleep(attempt % 7);
                }
            }
            assertNotNull(caught, "the frozen writer was never caught in the middle of a write");
            assertTrue(caught.live(), "a frozen writer holds its lock: " + caught);
            assertEquals(List.of(), store.removeLeftovers(Duration.ZERO), "a live leftover is never removed");
            assertTrue(Files.exists(Path.of(caught.location())));

            child.destroyForcibly();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ends when killed");
            String location = caught.location();
            Leftover dead = store.leftovers().stream().filter(l -> l.location().equals(location))
                    .findFirst().orElse(null);
            assertNotNull(dead, "the killed writer's temporary file is a leftover");
            assertFalse(dead.live(), "the operating system released the lock of the killed writer: " + dead);
            List<Leftover> removed = store.removeLeftovers(Duration.ZERO);
            assertEquals(List.of(location), removed.stream().map(Leftover::location).toList());
            assertFalse(Files.exists(Path.of(location)));
            assertEquals(List.of(), store.leftovers());

            assertEquals(List.of(k("c/0"), k("c/1"), k("c/2"), k("c/3")), store.list());
            for (int key = 0; key < 4; key++) {
                ByteBuffer v = store.get(k("c/" + key)).orElseThrow();
                assertEquals(BIG, v.remaining(), "c/" + key + " is whole");
                byte first = v.get(0);
                for (int i = 0; i < BIG; i++) {
                    if (v.get(i) != first) {
                        throw new AssertionError("c/" + key + " mixes two values at byte " + i);
                    }
                }
            }
        } finally {
            child.destroyForcibly();
            child.waitFor(60, TimeUnit.SECONDS);
        }
    }

    private static Process startWriter(Path root) throws IOException {
        String classPath = Stream.of(LeftoverWriter.class, FileStore.class, StoreKey.class)
                .map(FileStoreLeftoversTest::location)
                .distinct()
                .collect(Collectors.joining(File.pathSeparator));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx64m", "-XX:MaxDirectMemorySize=64m", "-XX:+UseSerialGC", "-cp", classPath,
                LeftoverWriter.class.getName(), root.toString(), Integer.toString(BIG))
                .redirectErrorStream(true).start();
    }

    /** The jar or classes directory a class was loaded from. */
    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Sends SIGSTOP or SIGCONT with the {@code kill} command; after SIGSTOP waits until every
     * thread of the child is stopped (where {@code /proc} shows it). False, with the reason
     * printed, when there is no {@code kill} command.
     */
    private static boolean signal(Process p, String signal) throws IOException, InterruptedException {
        Process kill;
        try {
            kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).redirectErrorStream(true).start();
        } catch (IOException e) {
            System.out.println("frozen-writer test skipped: no kill command (" + e.getMessage() + ")");
            return false;
        }
        String out = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(kill.waitFor(60, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal + ": " + out);
        Path tasks = Path.of("/proc", Long.toString(p.pid()), "task");
        if (signal.equals("STOP") && Files.isDirectory(tasks)) {
            for (int i = 0; i < 10_000 && !allStopped(tasks); i++) {
                Thread.sleep(1);
            }
        }
        return true;
    }

    private static boolean allStopped(Path tasks) throws IOException {
        try (Stream<Path> s = Files.list(tasks)) {
            for (Path t : s.toList()) {
                Optional<String> state = state(t.resolve("stat"));
                if (state.isPresent() && !state.get().equals("T") && !state.get().equals("t")) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The state letter of a {@code /proc/.../stat} line, after the parenthesized name. */
    private static Optional<String> state(Path stat) {
        try {
            String s = Files.readString(stat);
            int close = s.lastIndexOf(')');
            return close < 0 || close + 2 >= s.length() ? Optional.empty()
                    : Optional.of(s.substring(close + 2, close + 3));
        } catch (IOException e) {
            return Optional.empty(); // the thread ended
        }
    }
}
