package dev.zarrj.store.zip.internal;

import static dev.zarrj.store.zip.internal.Zips.array;
import static dev.zarrj.store.zip.internal.Zips.bytes;
import static dev.zarrj.store.zip.internal.Zips.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Leftover;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.zip.ZipStoreOptions;
import dev.zarrj.store.zip.ZipStores;
import dev.zarrj.store.zip.internal.Zips.Item;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One writer at a time per archive: a second writer in this JVM or another fails at open naming
 * the archive (or waits when asked), readers are never blocked, and what a killed writer left is
 * reported as live while a writer holds the lock and dead after.
 */
class ZipLockTest {
    @TempDir
    Path tmp;

    static StoreKey k(String key) {
        return StoreKey.of(key);
    }

    Path archive() throws IOException {
        return Zips.write(tmp.resolve("s.zip"), Item.stored("zarr.json", utf8("{}")));
    }

    /** The names of the files in the temporary folder. */
    Set<String> files() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
    }

    static void refusedAsBusy(Path zip, Supplier<?> open, String holder) {
        StoreException e = assertThrows(StoreException.class, open::get);
        assertTrue(e.getMessage().contains("zip:" + zip.toAbsolutePath())
                && e.getMessage().contains(" is being written by " + holder), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }

    @Test
    void aSecondWriterInTheSameJvmFailsAtOpenAndTheFirstLosesNothing() throws IOException {
        Path zip = archive();
        try (Store first = ZipStores.update(zip, "", ZipStoreOptions.defaults())) {
            first.set(k("a"), bytes("first"));
            refusedAsBusy(zip, () -> ZipStores.update(zip, "", ZipStoreOptions.defaults()), "another store of this process");
            refusedAsBusy(zip, () -> ZipStores.update(zip.resolveSibling("./s.zip"), "inner", ZipStoreOptions.defaults()),
                    "another store of this process");
            refusedAsBusy(zip, () -> ZipStore.open(zip, "", ZipStore.Mode.CREATE, ZipStoreOptions.defaults()),
                    "another store of this process");
            refusedAsBusy(zip, () -> ZipStores.copy(first, zip), "another store of this process");
            try (Store reader = ZipStores.open(zip, "")) {
                assertEquals(List.of(k("zarr.json")), reader.list(), "readers take no lock and see the old archive");
            }
            assertTrue(files().contains(".s.zip.zarrj.lock"));
        }
        assertEquals(Set.of("s.zip"), files(), "the lock file and the spill are gone");
        try (Store second = ZipStores.update(zip, "", ZipStoreOptions.defaults())) {
            assertArrayEquals(utf8("first"), array(second.get(k("a")).orElseThrow()));
        }
    }

    @Test
    void writersThroughSymbolicLinksToOneArchiveExcludeEachOther() throws IOException {
        Path zip = archive();
        Path linkToArchive = Files.createSymbolicLink(tmp.resolve("link.zip"), zip);
        Path linkToFolder = Files.createSymbolicLink(tmp.resolve("folder"), tmp);
        try (Store first = ZipStores.update(linkToArchive, "", ZipStoreOptions.defaults())) {
            first.set(k("a"), bytes("through the link"));
            refusedAsBusy(zip, () -> ZipStores.update(zip, "", ZipStoreOptions.defaults()), "another store of this process");
            refusedAsBusy(linkToFolder.resolve("s.zip"),
                    () -> ZipStores.update(linkToFolder.resolve("s.zip"), "", ZipStoreOptions.defaults()),
                    "another store of this process");
        }
        assertTrue(Files.isSymbolicLink(linkToArchive), "the link still leads to the archive");
        try (Store s = ZipStores.open(zip, "")) {
            assertArrayEquals(utf8("through the link"), array(s.get(k("a")).orElseThrow()));
        }
    }

    @Test
    void aWriterThatWaitsReadsWhatTheFirstWrote() throws Exception {
        Path zip = archive();
        Store first = ZipStores.update(zip, "", ZipStoreOptions.defaults());
        first.set(k("a"), bytes("first"));
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> {
            started.countDown();
            try (Store s = ZipStores.update(zip, "", ZipStoreOptions.defaults().withLockWait(ZipStoreOptions.FOREVER))) {
                assertArrayEquals(utf8("first"), array(s.get(k("a")).orElseThrow()), "opened after the first closed");
                s.set(k("b"), bytes("second"));
            }
        });
        started.await();
        first.set(k("a2"), bytes("first too"));
        first.close();
        second.get(2, TimeUnit.MINUTES);
        try (Store s = ZipStores.open(zip, "")) {
            assertEquals(List.of(k("a"), k("a2"), k("b"), k("zarr.json")), s.list());
        }
        assertEquals(Set.of("s.zip"), files());
    }

    @Test
    void aWaitThatRunsOutFailsNamingTheWait() throws IOException {
        Path zip = archive();
        try (Store first = ZipStores.update(zip, "", ZipStoreOptions.defaults())) {
            first.set(k("a"), bytes("a"));
            StoreException e = assertThrows(StoreException.class,
                    () -> ZipStores.update(zip, "", ZipStoreOptions.defaults().withLockWait(Duration.ofMillis(100))));
            assertTrue(e.getMessage().contains("is being written by") && e.getMessage().contains("did not finish within PT0.1S"),
                    e.getMessage());
        }
    }

    @Test
    void aCreateThatWaitedSeesTheArchiveTheFirstWriterCreated() throws Exception {
        Path zip = tmp.resolve("new.zip");
        Store first = ZipStores.create(zip);
        CompletableFuture<StoreException> second = CompletableFuture.supplyAsync(() -> assertThrows(StoreException.class,
                () -> ZipStores.create(zip, ZipStoreOptions.defaults().withLockWait(ZipStoreOptions.FOREVER))));
        first.close();
        assertTrue(second.get(2, TimeUnit.MINUTES).getMessage().contains("already exists"));
    }

    @Test
    void aWriterInAnotherProcessHoldsTheArchiveUntilItCloses() throws Exception {
        Path zip = archive();
        try (ChildJvm child = ChildJvm.start(LockHolderMain.class, zip.toString(), "child")) {
            assertEquals("holding", child.line());
            String pid = "pid " + child.process.pid();
            refusedAsBusy(zip, () -> ZipStores.update(zip, "", ZipStoreOptions.defaults()), "another process (" + pid);
            try (Store reader = ZipStores.open(zip, "")) {
                List<Leftover> left = reader.leftovers();
                assertEquals(1, left.size(), left.toString());
                assertTrue(left.get(0).live() && left.get(0).location().endsWith(".spill"), left.toString());
                assertEquals(List.of(), reader.removeLeftovers(Duration.ZERO), "a live writer's files stay");
            }
            assertEquals(0, child.finish());
            assertEquals("closed", child.line());
        }
        assertEquals(Set.of("s.zip"), files());
        try (Store s = ZipStores.update(zip, "", ZipStoreOptions.defaults())) {
            assertArrayEquals(utf8("child"), array(s.get(k("child")).orElseThrow()));
        }
    }

    @Test
    void whatAKilledWriterLeftIsDeadAndRemovedButNeverByOpening() throws Exception {
        Path zip = archive();
        try (ChildJvm child = ChildJvm.start(LockHolderMain.class, zip.toString(), "killed")) {
            assertEquals("holding", child.line());
            child.process.destroyForcibly().waitFor();
        }
        Path spill;
        try (Store reader = ZipStores.open(zip, "")) {
            List<Leftover> left = reader.leftovers();
            assertEquals(1, left.size(), left.toString());
            assertFalse(left.get(0).live(), left.toString());
            assertEquals(6, left.get(0).size(), "the value 'killed' was spilled");
            spill = Path.of(left.get(0).location());
            assertEquals(List.of(), reader.removeLeftovers(Duration.ofDays(1)), "too young to be removed");
        }
        // A writer takes the lock the dead process left, removes nothing, and tells its own spill from the dead one.
        try (Store writer = ZipStores.update(zip, "", ZipStoreOptions.defaults())) {
            assertTrue(Files.exists(spill), "opening for writing removes nothing");
            writer.set(k("x"), bytes("x"));
            List<Leftover> left = writer.leftovers();
            assertEquals(2, left.size(), left.toString());
            for (Leftover l : left) {
                assertEquals(!l.location().equals(spill.toString()), l.live(), l.toString());
            }
            List<Leftover> removed = writer.removeLeftovers(Duration.ZERO);
            assertEquals(List.of(spill.toString()), removed.stream().map(Leftover::location).toList());
        }
        assertEquals(Set.of("s.zip"), files());
        try (Store s = ZipStores.open(zip, "")) {
            assertEquals(List.of(k("x"), k("zarr.json")), s.list(), "the killed writer's key never reached the archive");
        }
    }

    @Test
    void aReadOnlyStoreRemovesDeadLeftovers() throws Exception {
        Path zip = archive();
        try (ChildJvm child = ChildJvm.start(LockHolderMain.class, zip.toString(), "killed")) {
            assertEquals("holding", child.line());
            child.process.destroyForcibly().waitFor();
        }
        Files.writeString(tmp.resolve(".s.zip.zarrj-00ff.tmp"), "unfinished");
        Files.writeString(tmp.resolve(".s.zip.zarrj-nothex.tmp"), "not ours");
        Files.writeString(tmp.resolve(".other.zip.zarrj-00ff.spill"), "another archive's");
        try (Store reader = ZipStores.open(zip, "")) {
            assertEquals(2, reader.leftovers().size(), reader.leftovers().toString());
            List<Leftover> removed = reader.removeLeftovers(Duration.ZERO);
            assertEquals(2, removed.size(), removed.toString());
            assertEquals(List.of(), reader.leftovers());
        }
        assertEquals(Set.of("s.zip", ".s.zip.zarrj-nothex.tmp", ".other.zip.zarrj-00ff.spill"), files());
    }
}
