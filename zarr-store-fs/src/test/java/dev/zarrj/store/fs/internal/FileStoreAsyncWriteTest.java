package dev.zarrj.store.fs.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code setAsync} and {@code eraseAsync} of the file store run on the JVM's file write threads
 * and report through their future; {@code writeConcurrency()} asks for that many at once.
 */
class FileStoreAsyncWriteTest {
    @TempDir
    Path tmp;

    @Test
    void writeConcurrencyIsTwiceTheCoresWithinFourToThirtyTwo() {
        int cores = Runtime.getRuntime().availableProcessors();
        FileStore store = new FileStore(tmp.resolve("s"), false, false);
        assertEquals(Math.min(32, Math.max(4, 2 * cores)), store.writeConcurrency());
        assertEquals(0, store.ioConcurrency(), "reads keep zarrj's own choice");
    }

    /** More writes at once than there are write threads: every one lands with its own bytes. */
    @Test
    void manyWritesAtOnceEachStoreTheirValueOffTheCallingThread() throws Exception {
        FileStore store = new FileStore(tmp.resolve("s"), false, false);
        int n = 4 * WriteThreads.COUNT + 3;
        List<CompletableFuture<Void>> done = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] v = new byte[1000 + 37 * i];
            for (int j = 0; j < v.length; j++) {
                v[j] = (byte) (i * 13 + j);
            }
            values.add(v);
            // Direct and heap buffers, each with its position and limit inside a larger array.
            ByteBuffer b = (i % 2 == 0 ? ByteBuffer.allocateDirect(v.length + 8) : ByteBuffer.allocate(v.length + 8))
                    .position(4).put(v).flip().position(4);
            CompletableFuture<Void> f = store.setAsync(StoreKey.of("c/" + i % 5 + "/" + i), b);
            int at = i;
            done.add(f.thenRun(() -> {
                if (b.position() != 4 || b.limit() != values.get(at).length + 4) {
                    throw new AssertionError("position/limit after setAsync: " + b.position() + "/" + b.limit());
                }
            }));
        }
        for (CompletableFuture<Void> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        for (int i = 0; i < n; i++) {
            ByteBuffer got = store.get(StoreKey.of("c/" + i % 5 + "/" + i)).orElseThrow();
            byte[] a = new byte[got.remaining()];
            got.get(a);
            assertArrayEquals(values.get(i), a, "value of c/" + i % 5 + "/" + i);
        }
        assertTrue(store.leftovers().isEmpty(), "no temporary file left");
    }

    /**
     * The write runs on a thread of its own: the caller's interrupt, which would close a file
     * channel the caller wrote through (and fail the write), leaves it alone.
     */
    @Test
    void aWriteHandedOverIsNotStoppedByTheCallersInterrupt() throws Exception {
        FileStore store = new FileStore(tmp.resolve("s"), false, false);
        byte[] v = new byte[1 << 20];
        v[v.length - 1] = 9;
        CompletableFuture<Void> f;
        Thread.currentThread().interrupt();
        try {
            f = store.setAsync(StoreKey.of("k"), ByteBuffer.wrap(v));
        } finally {
            Thread.interrupted();
        }
        f.get(60, TimeUnit.SECONDS);
        ByteBuffer got = store.get(StoreKey.of("k")).orElseThrow();
        assertEquals(v.length, got.remaining());
        assertEquals(9, got.get(v.length - 1));
    }

    @Test
    void eraseAsyncRemovesTheKeyAndItsEmptyDirectories() throws Exception {
        Path root = tmp.resolve("s");
        FileStore store = new FileStore(root, false, false);
        store.setAsync(StoreKey.of("a/b/c"), ByteBuffer.wrap(new byte[] {1})).get(60, TimeUnit.SECONDS);
        assertTrue(Files.isRegularFile(root.resolve("a/b/c")));
        store.eraseAsync(StoreKey.of("a/b/c")).get(60, TimeUnit.SECONDS);
        assertFalse(Files.exists(root.resolve("a")), "empty directories pruned");
        store.eraseAsync(StoreKey.of("a/b/c")).get(60, TimeUnit.SECONDS); // absent: completes normally
    }

    /** A failure completes the future (never throws), names the key, and leaves the old value. */
    @Test
    void aFailedWriteFailsItsFutureNamingTheKey() throws Exception {
        Path root = tmp.resolve("s");
        FileStore store = new FileStore(root, false, false);
        store.set(StoreKey.of("file"), ByteBuffer.wrap(new byte[] {7}));
        CompletableFuture<Void> f = store.setAsync(StoreKey.of("file/below"), ByteBuffer.wrap(new byte[] {1}));
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
        assertInstanceOf(StoreException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("file/below"), e.getCause().getMessage());
        assertArrayEquals(new byte[] {7}, Files.readAllBytes(root.resolve("file")));
    }

    @Test
    void aReadOnlyStoreRefusesThroughTheFuture() throws Exception {
        Path root = tmp.resolve("s");
        Files.createDirectories(root);
        FileStore store = new FileStore(root, true, false);
        for (CompletableFuture<Void> f : List.of(store.setAsync(StoreKey.of("k"), ByteBuffer.wrap(new byte[] {1})),
                store.eraseAsync(StoreKey.of("k")))) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
            assertInstanceOf(ReadOnlyException.class, e.getCause());
        }
        assertFalse(Files.exists(root.resolve("k")));
    }
}
