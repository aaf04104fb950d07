package dev.zarrj.store.fs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.store.StoreKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A conditional write interrupted between creating the key's lock file and locking it (found by
 * zarr-reliability's InterruptTest, which left {@code .zarrj-lock-*.tmp} files behind) deletes the
 * lock file it created, keeps the interrupt status, and leaves no leftover.
 */
class FileStoreInterruptedLockTest {
    @TempDir
    Path dir;

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private List<Path> lockFiles() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(".zarrj-lock-")).collect(Collectors.toList());
        }
    }

    @Test
    void anInterruptedLockLeavesNoLockFile() throws Exception {
        FileStore store = new FileStore(dir, false, false);
        StoreKey key = StoreKey.of("a/c/0");
        store.set(key, ByteBuffer.wrap(new byte[] {1, 2, 3}));
        Path target = dir.resolve("a/c/0");

        Thread.currentThread().interrupt(); // FileChannel.lock then fails at once, after the file was created
        assertThrows(IOException.class, () -> store.lockKey(key, target)); // FileLockInterruptionException
        assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
        Thread.interrupted();

        assertEquals(List.of(), lockFiles());
        assertEquals(List.of(), store.leftovers());
        // The key still locks and writes afterwards.
        try (FileStore.KeyLock lock = store.lockKey(key, target)) {
            assertTrue(lock != null);
        }
        assertEquals(List.of(), lockFiles());
    }
}
