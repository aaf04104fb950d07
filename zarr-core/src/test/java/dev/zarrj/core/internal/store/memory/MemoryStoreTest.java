package dev.zarrj.core.internal.store.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.KeyStartValue;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.store.StoreProvider;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MemoryStoreTest {
    private static StoreKey key(String k) {
        return StoreKey.of(k);
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return new String(out, StandardCharsets.UTF_8);
    }

    private static String text(Optional<ByteBuffer> b) {
        return text(b.orElseThrow());
    }

    private static List<String> names(List<StoreKey> keys) {
        List<String> out = new ArrayList<>();
        for (StoreKey k : keys) {
            out.add(k.value());
        }
        return out;
    }

    @Test
    void capabilitiesAndDescription() {
        MemoryStore store = new MemoryStore();
        assertEquals(new StoreCapabilities(true, true, true, true), store.capabilities());
        assertTrue(store.describe().startsWith("memory:"));
        assertEquals(StoreCapabilities.READ_ONLY, new MemoryStore(true).capabilities());
    }

    @Test
    void setGetSizeExistsErase() {
        Store store = new MemoryStore();
        assertEquals(Optional.empty(), store.get(key("a/b")));
        assertEquals(OptionalLong.empty(), store.size(key("a/b")));
        assertFalse(store.exists(key("a/b")));
        store.set(key("a/b"), bytes("hello"));
        assertEquals("hello", text(store.get(key("a/b"))));
        assertEquals(OptionalLong.of(5), store.size(key("a/b")));
        assertTrue(store.exists(key("a/b")));
        store.set(key("a/b"), bytes("bye"));
        assertEquals("bye", text(store.get(key("a/b"))));
        store.erase(key("a/b"));
        assertFalse(store.exists(key("a/b")));
        store.erase(key("a/b"));
    }

    @Test
    void valuesAreCopiedInAndOut() {
        Store store = new MemoryStore();
        byte[] source = "abc".getBytes(StandardCharsets.UTF_8);
        ByteBuffer in = ByteBuffer.wrap(source);
        store.set(key("k"), in);
        assertEquals(0, in.position(), "the caller's buffer is not consumed");
        source[0] = 'X';
        ByteBuffer out = store.get(key("k")).orElseThrow();
        out.put(1, (byte) 'Y');
        store.get(key("k"), ByteRange.of(0, 3)).orElseThrow().put(2, (byte) 'Z');
        assertEquals("abc", text(store.get(key("k"))));
        assertNotSame(store.get(key("k")).orElseThrow().array(), store.get(key("k")).orElseThrow().array());
    }

    @Test
    void setStoresFromPositionToLimit() {
        Store store = new MemoryStore();
        ByteBuffer b = bytes("xxhelloxx");
        b.position(2).limit(7);
        store.set(key("k"), b);
        assertEquals("hello", text(store.get(key("k"))));
    }

    @Test
    void byteRanges() {
        Store store = new MemoryStore();
        store.set(key("k"), bytes("0123456789"));
        assertEquals("234", text(store.get(key("k"), ByteRange.of(2, 3))));
        assertEquals("", text(store.get(key("k"), ByteRange.of(10, 0))));
        assertEquals("789", text(store.get(key("k"), ByteRange.from(7))));
        assertEquals("", text(store.get(key("k"), ByteRange.from(10))));
        assertEquals("6789", text(store.get(key("k"), ByteRange.suffix(4))));
        assertEquals("0123456789", text(store.get(key("k"), ByteRange.suffix(10))));
        assertEquals("0123456789", text(store.get(key("k"), ByteRange.all())));
        assertEquals(Optional.empty(), store.get(key("absent"), ByteRange.of(0, 1)));
    }

    @Test
    void rangesOutsideTheValueAreStoreErrors() {
        Store store = new MemoryStore();
        store.set(key("k"), bytes("0123456789"));
        for (ByteRange r : new ByteRange[] {ByteRange.of(8, 3), ByteRange.of(11, 0), ByteRange.from(11),
                ByteRange.suffix(11)}) {
            StoreException e = assertThrows(StoreException.class, () -> store.get(key("k"), r));
            assertTrue(e.getMessage().contains("'k'") && e.getMessage().contains("10 bytes"), e.getMessage());
        }
    }

    @Test
    void getPartialValues() {
        Store store = new MemoryStore();
        store.set(key("a"), bytes("abcdef"));
        store.set(key("b"), bytes("uvwxyz"));
        List<Optional<ByteBuffer>> out = store.getPartialValues(List.of(new KeyRange(key("a"), ByteRange.of(1, 2)),
                new KeyRange(key("missing"), ByteRange.all()), new KeyRange(key("b"), ByteRange.suffix(2)),
                new KeyRange(key("a"), ByteRange.from(4))));
        assertEquals("bc", text(out.get(0)));
        assertEquals(Optional.empty(), out.get(1));
        assertEquals("yz", text(out.get(2)));
        assertEquals("ef", text(out.get(3)));
    }

    @Test
    void setPartialValuesOverwritesExtendsAndCreates() {
        Store store = new MemoryStore();
        store.set(key("k"), bytes("0123456789"));
        store.setPartialValues(List.of(new KeyStartValue(key("k"), 2, bytes("ab")),
                new KeyStartValue(key("k"), 8, bytes("XYZ")), new KeyStartValue(key("new"), 3, bytes("hi"))));
        assertEquals("01ab4567XYZ", text(store.get(key("k"))));
        assertArrayEquals(new byte[] {0, 0, 0, 'h', 'i'}, store.get(key("new")).orElseThrow().array());
        store.setPartialValues(List.of(new KeyStartValue(key("k"), 13, bytes("!"))));
        assertEquals("01ab4567XYZ\0\0!", text(store.get(key("k"))));
    }

    @Test
    void eraseValuesAndErasePrefix() {
        Store store = new MemoryStore();
        for (String k : List.of("a/x", "a/b/y", "a/b/z", "ab", "ab/c", "a.json", "b/x", "zarr.json")) {
            store.set(key(k), bytes(k));
        }
        store.eraseValues(List.of(key("b/x"), key("missing")));
        assertFalse(store.exists(key("b/x")));
        store.erasePrefix("a/b/");
        assertEquals(List.of("a.json", "a/x", "ab", "ab/c", "zarr.json"), names(store.list()));
        store.erasePrefix("a/");
        assertEquals(List.of("a.json", "ab", "ab/c", "zarr.json"), names(store.list()));
        store.erasePrefix("");
        assertEquals(List.of(), store.list());
    }

    @Test
    void listPrefixIsSortedAndExact() {
        Store store = new MemoryStore();
        for (String k : List.of("zarr.json", "a/c/1", "a/c/0", "a/zarr.json", "a/b/x", "ab/c", "a.x", "a0")) {
            store.set(key(k), bytes(k));
        }
        assertEquals(List.of("a.x", "a/b/x", "a/c/0", "a/c/1", "a/zarr.json", "a0", "ab/c", "zarr.json"),
                names(store.list()));
        assertEquals(List.of("a/b/x", "a/c/0", "a/c/1", "a/zarr.json"), names(store.listPrefix("a/")));
        assertEquals(List.of("a/c/0", "a/c/1"), names(store.listPrefix("a/c/")));
        assertEquals(List.of(), names(store.listPrefix("q/")));
    }

    @Test
    void listDir() {
        Store store = new MemoryStore();
        for (String k : List.of("zarr.json", "a/c/1", "a/c/0", "a/zarr.json", "a/b/x", "ab/c", "a.x", "a0")) {
            store.set(key(k), bytes(k));
        }
        ListDirResult root = store.listDir("");
        assertEquals(List.of("a.x", "a0", "zarr.json"), names(root.keys()));
        assertEquals(List.of("a/", "ab/"), root.prefixes());
        ListDirResult a = store.listDir("a/");
        assertEquals(List.of("a/zarr.json"), names(a.keys()));
        assertEquals(List.of("a/b/", "a/c/"), a.prefixes());
        ListDirResult empty = store.listDir("nothing/");
        assertTrue(empty.keys().isEmpty() && empty.prefixes().isEmpty());
    }

    @Test
    void listDirAgreesWithTheGenericImplementation() {
        MemoryStore store = new MemoryStore();
        Random random = new Random(7);
        String[] segments = {"a", "b", "c", "a.b", "a-", "c0", "zarr.json"};
        for (int i = 0; i < 300; i++) {
            StringBuilder k = new StringBuilder(segments[random.nextInt(segments.length)]);
            int depth = random.nextInt(4);
            for (int d = 0; d < depth; d++) {
                k.append('/').append(segments[random.nextInt(segments.length)]);
            }
            store.set(key(k.toString()), bytes("v"));
        }
        // A store that only has listPrefix gets the interface's listDir.
        Store generic = new Store() {
            @Override
            public StoreCapabilities capabilities() {
                return StoreCapabilities.READ_ONLY;
            }

            @Override
            public String describe() {
                return "generic";
            }

            @Override
            public Optional<ByteBuffer> get(StoreKey key) {
                return store.get(key);
            }

            @Override
            public List<StoreKey> listPrefix(String prefix) {
                return store.listPrefix(prefix);
            }
        };
        List<String> prefixes = new ArrayList<>(List.of(""));
        for (int i = 0; i < prefixes.size(); i++) {
            ListDirResult expected = generic.listDir(prefixes.get(i));
            ListDirResult actual = store.listDir(prefixes.get(i));
            assertEquals(expected, actual, prefixes.get(i));
            prefixes.addAll(actual.prefixes());
        }
        assertTrue(prefixes.size() > 10, "the random tree has depth");
    }

    @Test
    void invalidPrefixesAreRefused() {
        Store store = new MemoryStore();
        assertThrows(InvalidKeyException.class, () -> store.listPrefix("a"));
        assertThrows(InvalidKeyException.class, () -> store.listDir("/a/"));
        assertThrows(InvalidKeyException.class, () -> store.erasePrefix("../"));
    }

    @Test
    void readOnlyStoreRefusesWrites() {
        Store store = new MemoryStore(true);
        assertThrows(ReadOnlyException.class, () -> store.set(key("k"), bytes("v")));
        assertThrows(ReadOnlyException.class, () -> store.erase(key("k")));
        assertThrows(ReadOnlyException.class, () -> store.erasePrefix(""));
        assertThrows(ReadOnlyException.class,
                () -> store.setPartialValues(List.of(new KeyStartValue(key("k"), 0, bytes("v")))));
        assertEquals(Optional.empty(), store.get(key("k")));
    }

    @Test
    void concurrentWritersOfDifferentKeysAndOfOneKeyLoseNothing() throws Exception {
        MemoryStore store = new MemoryStore();
        int threads = 8;
        int perThread = 200;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        store.set(key("t" + id + "/k" + i), ByteBuffer.wrap(new byte[] {(byte) id, (byte) i}));
                        // Each thread owns bytes [id * perThread, (id + 1) * perThread) of one shared value.
                        store.setPartialValues(List.of(new KeyStartValue(key("shared"), (long) id * perThread + i,
                                ByteBuffer.wrap(new byte[] {(byte) (id + 1)}))));
                        store.get(key("shared"));
                        store.listDir("");
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(threads * perThread + 1, store.list().size());
        byte[] shared = store.get(key("shared")).orElseThrow().array();
        assertEquals(threads * perThread, shared.length);
        for (int i = 0; i < shared.length; i++) {
            assertEquals(i / perThread + 1, shared[i], "byte " + i);
        }
        assertArrayEquals(new byte[] {3, 17}, store.get(key("t3/k17")).orElseThrow().array());
    }

    @Test
    void providerOpensANewEmptyStoreEachTime() {
        StoreProvider provider = new MemoryStoreProvider();
        assertEquals("memory", provider.name());
        Store first = provider.open(URI.create("memory:/"), false);
        Store second = provider.open(URI.create("memory:/"), false);
        first.set(key("k"), bytes("v"));
        assertTrue(first.exists(key("k")));
        assertFalse(second.exists(key("k")));
        Store readOnly = provider.open(URI.create("memory:scratch"), true);
        assertFalse(readOnly.capabilities().writable());
        assertThrows(IllegalArgumentException.class, () -> provider.open(URI.create("file:/tmp/x"), false));
    }

    @Test
    void conditionalWritesVersionEveryWriteSoAnErasedAndRewrittenKeyNeverMatchesAnOldVersion() {
        Store store = new MemoryStore();
        var c = store.conditionalWrites().orElseThrow();
        StoreKey k = StoreKey.of("a");
        assertTrue(c.setIfAbsent(k, ByteBuffer.wrap(new byte[] {1})));
        String v1 = c.getVersioned(k).orElseThrow().version();
        store.erase(k);
        assertTrue(c.setIfAbsent(k, ByteBuffer.wrap(new byte[] {1})), "absent again after the erase");
        String v2 = c.getVersioned(k).orElseThrow().version();
        assertFalse(v1.equals(v2), "the same bytes written again get a new version: " + v1);
        assertFalse(c.setIfMatch(k, ByteBuffer.wrap(new byte[] {2}), v1));
        store.setPartialValues(List.of(new KeyStartValue(k, 0, ByteBuffer.wrap(new byte[] {3}))));
        assertFalse(c.setIfMatch(k, ByteBuffer.wrap(new byte[] {2}), v2), "a partial write changes the version too");
        assertArrayEquals(new byte[] {3}, store.get(k).map(b -> {
            byte[] a = new byte[b.remaining()];
            b.get(a);
            return a;
        }).orElseThrow());
        assertThrows(ReadOnlyException.class,
                () -> new MemoryStore(true).conditionalWrites().orElseThrow().setIfAbsent(k, ByteBuffer.wrap(new byte[0])));
    }
}
