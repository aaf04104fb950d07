package dev.zarrj.store.fs.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key whose path holds something other than a file (a directory, fifo, socket, a link to one,
 * a link to nothing) is an error in every read, naming the key and what is there; it is never
 * absent, which would read as fill values in place of data.
 */
class FileStoreNotAValueTest {
    @TempDir
    Path tmp;

    Path root;
    Store store;

    @BeforeEach
    void open() {
        root = tmp.resolve("store.zarr");
        store = new FileStore(root, false, false);
        store.set(StoreKey.of("a/zarr.json"), ByteBuffer.wrap("{}".getBytes(UTF_8)));
    }

    /** Every read operation of a key, each expected to fail naming the key and {@code found}. */
    void assertEveryReadRefuses(String key, String found) {
        StoreKey k = StoreKey.of(key);
        AtomicInteger allocations = new AtomicInteger();
        List<Function<Store, Object>> reads = List.of(
                s -> s.get(k),
                s -> s.get(k, n -> {
                    allocations.incrementAndGet();
                    return ByteBuffer.allocate(n);
                }),
                s -> s.get(k, ByteRange.of(0, 1)),
                s -> s.get(k, ByteRange.from(0)),
                s -> s.get(k, ByteRange.suffix(1)),
                s -> s.getPartialValues(List.of(new KeyRange(StoreKey.of("a/zarr.json"), ByteRange.of(0, 1)),
                        new KeyRange(k, ByteRange.of(0, 1)))),
                s -> s.size(k),
                s -> s.exists(k));
        for (Store s : List.of(store, new FileStore(root, true, false))) {
            for (int i = 0; i < reads.size(); i++) {
                Function<Store, Object> read = reads.get(i);
                StoreException e = assertThrows(StoreException.class, () -> read.apply(s), "read " + i + " of " + key);
                assertTrue(e.getMessage().contains(s.describe()) && e.getMessage().contains("key '" + key + "'")
                        && e.getMessage().contains(found), "read " + i + ": " + e.getMessage());
            }
        }
        assertEquals(0, allocations.get(), "nothing is allocated for what is not a value");
    }

    /**
     * A listing with sizes that meets what is not a value fails as {@code size} does, naming the
     * key, rather than leaving it out (a stored chunk would go uncounted) or sizing it 0.
     */
    void assertListingWithSizesRefuses(String key, String found) {
        for (Store s : List.of(store, new FileStore(root, true, false))) {
            StoreException e = assertThrows(StoreException.class, () -> s.listPrefixSizes("a/"), key);
            assertTrue(e.getMessage().contains("key '" + key + "'") && e.getMessage().contains(found), e.getMessage());
        }
    }

    @Test
    void aLinkToAFileIsListedWithTheFilesSize() throws IOException {
        store.set(StoreKey.of("a/c/0/0"), ByteBuffer.wrap(new byte[5]));
        link(root.resolve("a/c/0/1"), root.resolve("a/c/0/0"));
        assertEquals(List.of(new KeySize(StoreKey.of("a/c/0/0"), 5), new KeySize(StoreKey.of("a/c/0/1"), 5),
                new KeySize(StoreKey.of("a/zarr.json"), 2)), store.listPrefixSizes("a/"));
    }

    @Test
    void anEmptyDirectoryAtAChunkPathIsAnErrorNotFillValues() throws IOException {
        Files.createDirectories(root.resolve("a/c/0/0"));
        assertEveryReadRefuses("a/c/0/0", "is a directory");
        assertEquals(new ListDirResult(List.of(), List.of("a/c/0/0/")), store.listDir("a/c/0/"));
    }

    @Test
    void aDirectoryHoldingKeysIsAPrefixAndNotAValue() {
        store.set(StoreKey.of("a/c/0/0/x"), ByteBuffer.wrap(new byte[] {1}));
        assertEveryReadRefuses("a/c/0/0", "is a directory");
        assertEquals(List.of(StoreKey.of("a/c/0/0/x"), StoreKey.of("a/zarr.json")), store.list());
    }

    @Test
    void aLinkToADirectoryIsAnError() throws IOException {
        Path target = Files.createDirectories(root.resolve("elsewhere"));
        Files.createDirectories(root.resolve("a/c/0"));
        link(root.resolve("a/c/0/0"), target);
        assertEveryReadRefuses("a/c/0/0", "is a symbolic link to a directory");
        assertEquals(new ListDirResult(List.of(), List.of("a/c/0/0/")), store.listDir("a/c/0/"));
    }

    @Test
    void aLinkToNothingIsAnErrorAndListedAsAKey() throws IOException {
        Files.createDirectories(root.resolve("a/c/0"));
        link(root.resolve("a/c/0/0"), root.resolve("a/c/0/gone"));
        assertEveryReadRefuses("a/c/0/0", "is a symbolic link to nothing");
        assertListingWithSizesRefuses("a/c/0/0", "is a symbolic link to nothing");
        assertEquals(List.of(StoreKey.of("a/c/0/0"), StoreKey.of("a/zarr.json")), store.list());
    }

    @Test
    void aFifoIsAnErrorDecidedWithoutOpeningIt() throws Exception {
        Files.createDirectories(root.resolve("a/c/0"));
        Path fifo = root.resolve("a/c/0/0");
        if (!mkfifo(fifo)) {
            return;
        }
        // Opening a fifo for reading blocks until a writer comes: fail instead of hanging.
        assertTimeoutPreemptively(Duration.ofMinutes(1), () -> assertEveryReadRefuses("a/c/0/0", "is a fifo"));
        assertTimeoutPreemptively(Duration.ofMinutes(1), () -> assertListingWithSizesRefuses("a/c/0/0", "is a fifo"));
        link(root.resolve("a/c/0/1"), fifo);
        assertTimeoutPreemptively(Duration.ofMinutes(1),
                () -> assertEveryReadRefuses("a/c/0/1", "is a symbolic link to a fifo"));
        // Listed as keys, so that whoever reads every listed key finds them.
        assertEquals(List.of(StoreKey.of("a/c/0/0"), StoreKey.of("a/c/0/1"), StoreKey.of("a/zarr.json")), store.list());
        assertEquals(new ListDirResult(List.of(StoreKey.of("a/c/0/0"), StoreKey.of("a/c/0/1")), List.of()),
                store.listDir("a/c/0/"));
        // Below it nothing is there: absent, as below a value.
        assertEquals(Optional.empty(), store.get(StoreKey.of("a/c/0/0/x")));
        store.erase(StoreKey.of("a/c/0/1"));
        store.erase(StoreKey.of("a/c/0/0"));
        assertFalse(Files.exists(fifo, java.nio.file.LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void aSocketIsAnError() throws IOException {
        Files.createDirectories(root.resolve("a/c/0"));
        Path socket = root.resolve("a/c/0/0");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
        } catch (UnsupportedOperationException | IOException e) {
            Assumptions.abort("unix domain sockets are not available here: " + e);
        }
        assertEveryReadRefuses("a/c/0/0", "is a socket");
        assertListingWithSizesRefuses("a/c/0/0", "is a socket");
        assertEquals(List.of(StoreKey.of("a/c/0/0"), StoreKey.of("a/zarr.json")), store.list());
    }

    @Test
    void absentStaysAbsent() {
        store.set(StoreKey.of("a/v"), ByteBuffer.wrap(new byte[] {1}));
        for (String k : List.of("a/c/0/0", "nothing/here", "a/v/below")) {
            assertEquals(Optional.empty(), store.get(StoreKey.of(k)), k);
            assertFalse(store.exists(StoreKey.of(k)), k);
        }
    }

    static void link(Path link, Path target) throws IOException {
        try {
            Files.createSymbolicLink(link, target);
        } catch (UnsupportedOperationException | IOException e) {
            Assumptions.abort("symbolic links are not available here: " + e);
        }
    }

    /** Makes a fifo with the {@code mkfifo} command; false (and why, printed) when there is none. */
    static boolean mkfifo(Path path) throws InterruptedException {
        try {
            Process p = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                System.out.println("fifo test skipped: mkfifo failed: " + out);
                return false;
            }
            return true;
        } catch (IOException e) {
            System.out.println("fifo test skipped: the mkfifo command is not available (" + e.getMessage() + ")");
            return false;
        }
    }
}
