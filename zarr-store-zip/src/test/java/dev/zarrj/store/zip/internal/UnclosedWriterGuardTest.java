package dev.zarrj.store.zip.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.ZipStoreOptions;
import dev.zarrj.store.zip.ZipStores;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A zip store open for writing that is never closed loses its changes, so it is reported: when it
 * is garbage-collected (and its lock and spill file are released), and when the JVM exits first.
 */
class UnclosedWriterGuardTest {
    @TempDir
    Path tmp;

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    /** Opens a writer, changes one key and drops the store without closing it. */
    private static void leak(Path zip) {
        Store s = ZipStores.create(zip);
        s.set(StoreKey.of("zarr.json"), ByteBuffer.wrap(new byte[] {'{', '}'}));
    }

    @Test
    void aWriterThatIsGarbageCollectedIsReportedAndReleasesItsLockAndSpill() throws Exception {
        Path zip = tmp.resolve("lost.zip");
        List<String> warnings = new CopyOnWriteArrayList<>();
        Consumer<String> before = UnclosedWriterGuard.warnings;
        UnclosedWriterGuard.warnings = m -> {
            if (m.contains(zip.toString())) {
                warnings.add(m);
            } else {
                before.accept(m);
            }
        };
        try {
            leak(zip);
            assertTrue(files().stream().anyMatch(f -> f.endsWith(".spill")), files().toString());
            // Garbage collection is not deterministic: ask for it until the cleaner has run (a bound,
            // not a timing: on any JVM an unreachable object is found within a few collections).
            for (int i = 0; i < 500 && warnings.isEmpty(); i++) {
                System.gc();
                Thread.sleep(10);
            }
            assertEquals(1, warnings.size(), "no warning after the store became unreachable");
            String m = warnings.get(0);
            assertTrue(m.startsWith("zip:" + zip + " was opened for writing and never closed")
                    && m.contains("the change to 1 key was not written, and the archive is not created")
                    && m.contains("written only when its store is closed") && m.contains("spill file"), m);
            assertEquals(List.of(), files(), "the spill file and the lock file are gone");
            // The lock is released: the next writer of this JVM opens at once instead of being refused.
            try (Store next = ZipStores.update(zip, "", ZipStoreOptions.defaults())) {
                next.set(StoreKey.of("a"), ByteBuffer.wrap(new byte[] {1}));
            }
            assertEquals(List.of("lost.zip"), files());
        } finally {
            UnclosedWriterGuard.warnings = before;
        }
    }

    @Test
    void aClosedWriterIsNoLongerWatched() throws IOException {
        int before = UnclosedWriterGuard.watched();
        Store s = ZipStores.create(tmp.resolve("kept.zip"));
        assertEquals(before + 1, UnclosedWriterGuard.watched());
        s.set(StoreKey.of("a"), ByteBuffer.wrap(new byte[] {1}));
        s.close();
        assertEquals(before, UnclosedWriterGuard.watched());
        try (Store reader = ZipStores.open(tmp.resolve("kept.zip"), "")) {
            assertEquals(before, UnclosedWriterGuard.watched(), "a reader is not watched");
            assertTrue(reader.exists(StoreKey.of("a")));
        }
    }

    private static List<String> run(Path zip, String how) throws Exception {
        try (ChildJvm child = ChildJvm.start(UnclosedWriterMain.class, zip.toString(), how)) {
            List<String> lines = new ArrayList<>();
            for (String l = child.line(); l != null; l = child.line()) {
                lines.add(l);
            }
            assertEquals(0, child.finish(), lines.toString());
            return lines;
        }
    }

    @Test
    void aWriterStillOpenWhenTheJvmExitsIsReportedOnStandardError() throws Exception {
        Path zip = tmp.resolve("exit.zip");
        List<String> lines = run(zip, "leak");
        assertEquals("done", lines.get(0), lines.toString());
        assertEquals(2, lines.size(), lines.toString());
        String m = lines.get(1);
        assertTrue(m.startsWith("zarrj: zip:" + zip + " was opened for writing and not closed before the JVM exit")
                && m.contains("the change to 1 key was not written, and the archive is unchanged")
                && m.contains("zarr verify --clean"), m);
        assertFalse(Files.exists(zip));
    }

    @Test
    void aWriterClosedBeforeTheJvmExitsIsNotReported() throws Exception {
        Path zip = tmp.resolve("closed.zip");
        assertEquals(List.of("done"), run(zip, "close"));
        assertTrue(Files.exists(zip));
    }
}
