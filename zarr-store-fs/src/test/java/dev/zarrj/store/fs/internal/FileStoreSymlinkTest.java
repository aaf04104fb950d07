package dev.zarrj.store.fs.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Symbolic links: followed inside the root, never out of it. */
class FileStoreSymlinkTest {
    @TempDir
    Path tmp;

    Path root;
    Path outside;
    Store store;

    @BeforeEach
    void setUp() throws IOException {
        root = Files.createDirectories(tmp.resolve("root"));
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret"), "secret");
        try {
            Files.createSymbolicLink(root.resolve("out"), outside);
        } catch (UnsupportedOperationException | IOException e) {
            Assumptions.abort("symbolic links are not available here: " + e);
        }
        Files.createSymbolicLink(root.resolve("outfile"), outside.resolve("secret"));
        store = new FileStore(root, false, false);
    }

    static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(UTF_8));
    }

    static String string(Optional<ByteBuffer> b) {
        return UTF_8.decode(b.orElseThrow()).toString();
    }

    void assertRefused(Runnable op, String key) {
        StoreException e = assertThrows(StoreException.class, op::run);
        assertTrue(e.getMessage().contains(store.describe()) && e.getMessage().contains("'" + key + "'")
                && e.getMessage().contains("outside the store root"), e.getMessage());
    }

    @Test
    void readsThroughALinkOutOfTheRootAreRefused() {
        assertRefused(() -> store.get(StoreKey.of("out/secret")), "out/secret");
        assertRefused(() -> store.get(StoreKey.of("out/secret"), ByteRange.suffix(1)), "out/secret");
        assertRefused(() -> store.size(StoreKey.of("out/secret")), "out/secret");
        assertRefused(() -> store.get(StoreKey.of("outfile")), "outfile");
        assertRefused(() -> store.listPrefix("out/"), "out/");
        assertRefused(() -> store.listDir("out/"), "out/");
    }

    @Test
    void writesThroughALinkOutOfTheRootAreRefusedAndTouchNothing() throws IOException {
        assertRefused(() -> store.set(StoreKey.of("out/new"), bytes("x")), "out/new");
        assertRefused(() -> store.set(StoreKey.of("out/deep/new"), bytes("x")), "out/deep/new");
        assertRefused(() -> store.erase(StoreKey.of("out/secret")), "out/secret");
        try (var s = Files.list(outside)) {
            assertEquals(List.of(outside.resolve("secret")), s.toList());
        }
        assertEquals("secret", Files.readString(outside.resolve("secret")));
    }

    @Test
    void linksOutOfTheRootAreNotListed() throws IOException {
        store.set(StoreKey.of("a/b"), bytes("v"));
        assertEquals(List.of(StoreKey.of("a/b")), store.list());
        assertEquals(new ListDirResult(List.of(), List.of("a/")), store.listDir(""));
    }

    @Test
    void erasingRemovesTheLinkNeverTheTarget() throws IOException {
        store.erase(StoreKey.of("outfile"));
        store.erasePrefix("out/");
        assertTrue(Files.notExists(root.resolve("out"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.notExists(root.resolve("outfile"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertEquals("secret", Files.readString(outside.resolve("secret")));
        store.set(StoreKey.of("x"), bytes("1"));
        Files.createSymbolicLink(root.resolve("out2"), outside);
        store.erasePrefix("");
        assertEquals("secret", Files.readString(outside.resolve("secret")));
        try (var s = Files.list(root)) {
            assertEquals(List.of(), s.toList());
        }
    }

    @Test
    void linksInsideTheRootAreFollowed() throws IOException {
        store.set(StoreKey.of("data/c/0"), bytes("zero"));
        Files.createSymbolicLink(root.resolve("alias"), root.resolve("data"));
        Files.createSymbolicLink(root.resolve("data/c/one"), root.resolve("data/c/0"));
        assertEquals("zero", string(store.get(StoreKey.of("alias/c/0"))));
        assertEquals("zero", string(store.get(StoreKey.of("data/c/one"))));
        assertEquals(List.of(StoreKey.of("alias/c/0"), StoreKey.of("alias/c/one"), StoreKey.of("data/c/0"),
                StoreKey.of("data/c/one")), store.list());
        assertEquals(new ListDirResult(List.of(), List.of("alias/", "data/")), store.listDir(""));
        store.set(StoreKey.of("alias/c/1"), bytes("one"));
        assertEquals("one", string(store.get(StoreKey.of("data/c/1"))));
        // Erasing a key that is a link to a directory does nothing: it is a prefix.
        store.erase(StoreKey.of("alias"));
        assertTrue(Files.isSymbolicLink(root.resolve("alias")));
    }

    @Test
    void aLinkCycleDoesNotLoopTheListing() throws IOException {
        store.set(StoreKey.of("a/v"), bytes("1"));
        store.set(StoreKey.of("b/w"), bytes("2"));
        Files.createSymbolicLink(root.resolve("a/toB"), root.resolve("b"));
        Files.createSymbolicLink(root.resolve("b/toA"), root.resolve("a"));
        Files.createSymbolicLink(root.resolve("a/self"), root);
        Files.createSymbolicLink(root.resolve("dangling"), root.resolve("nowhere"));
        List<StoreKey> keys = store.list();
        assertTrue(keys.contains(StoreKey.of("a/v")) && keys.contains(StoreKey.of("a/toB/w"))
                && keys.contains(StoreKey.of("b/toA/v")), keys.toString());
        assertEquals(keys.stream().sorted().toList(), keys);
    }

    @Test
    void aRootReachedThroughALinkWorks() throws IOException {
        Path linkedRoot = tmp.resolve("linked-root");
        Files.createSymbolicLink(linkedRoot, root);
        Store viaLink = new FileStore(linkedRoot, false, false);
        viaLink.set(StoreKey.of("k/v"), bytes("v"));
        assertEquals("v", string(viaLink.get(StoreKey.of("k/v"))));
        assertEquals(List.of(StoreKey.of("k/v")), viaLink.list());
        viaLink.erasePrefix("");
        assertTrue(Files.isSymbolicLink(linkedRoot), "erasing everything keeps the root, even a linked one");
    }
}
