package dev.zarrj.api.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.InvalidKeyException;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The default methods of {@link Store}, over a store that implements only the required ones. */
class StoreDefaultsTest {

    /** A map-backed store; returns values at a non-zero position to catch offset slips. */
    static final class MapStore implements Store {
        final TreeMap<StoreKey, byte[]> map = new TreeMap<>();
        int gets;

        @Override public StoreCapabilities capabilities() { return StoreCapabilities.READ_WRITE; }
        @Override public String describe() { return "map:test"; }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            gets++;
            byte[] v = map.get(key);
            if (v == null) {
                return Optional.empty();
            }
            ByteBuffer b = ByteBuffer.allocate(v.length + 3);
            b.put(new byte[] {-1, -1, -1}).put(v).flip();
            b.position(3);
            return Optional.of(b);
        }

        @Override
        public void set(StoreKey key, ByteBuffer value) {
            byte[] v = new byte[value.remaining()];
            value.duplicate().get(v);
            map.put(key, v);
        }

        @Override
        public void erase(StoreKey key) {
            map.remove(key);
        }

        @Override
        public List<StoreKey> listPrefix(String prefix) {
            StoreKey.checkPrefix(prefix);
            List<StoreKey> out = new ArrayList<>();
            for (StoreKey k : map.keySet()) {
                if (k.hasPrefix(prefix)) {
                    out.add(k);
                }
            }
            return out;
        }
    }

    /** A read-only store: no set or erase. */
    static final class ReadOnlyStore implements Store {
        @Override public StoreCapabilities capabilities() { return StoreCapabilities.READ_ONLY; }
        @Override public String describe() { return "ro:test"; }
        @Override public Optional<ByteBuffer> get(StoreKey key) {
            return key.value().equals("k") ? Optional.of(ByteBuffer.wrap(new byte[] {1})) : Optional.empty();
        }
        @Override public List<StoreKey> listPrefix(String prefix) {
            return prefix.isEmpty() ? List.of(StoreKey.of("k")) : List.of();
        }
    }

    private MapStore store;

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return new String(out, StandardCharsets.UTF_8);
    }

    private static StoreKey k(String s) {
        return StoreKey.of(s);
    }

    @BeforeEach
    void fill() {
        store = new MapStore();
        for (String key : List.of("a/b", "a/c", "a/d/e", "a/f/g", "zarr.json", "ab/x")) {
            store.set(k(key), utf8("value of " + key));
        }
    }

    @Test
    void getRange() {
        assertEquals("value", text(store.get(k("a/b"), ByteRange.of(0, 5)).orElseThrow()));
        assertEquals("of a/b", text(store.get(k("a/b"), ByteRange.from(6)).orElseThrow()));
        assertEquals("a/b", text(store.get(k("a/b"), ByteRange.suffix(3)).orElseThrow()));
        assertEquals("", text(store.get(k("a/b"), ByteRange.of(12, 0)).orElseThrow()));
        assertEquals(Optional.empty(), store.get(k("nope"), ByteRange.of(0, 1)));
    }

    @Test
    void getRangeOutsideTheValueNamesStoreAndKey() {
        StoreException e = assertThrows(StoreException.class, () -> store.get(k("a/b"), ByteRange.of(10, 5)));
        assertTrue(e.getMessage().contains("map:test") && e.getMessage().contains("'a/b'"), e.getMessage());
        assertThrows(StoreException.class, () -> store.get(k("a/b"), ByteRange.suffix(13)));
    }

    @Test
    void getPartialValuesInOrderWithAbsentKeys() {
        List<Optional<ByteBuffer>> out = store.getPartialValues(List.of(
                new KeyRange(k("a/c"), ByteRange.suffix(3)),
                new KeyRange(k("missing"), ByteRange.all()),
                new KeyRange(k("a/b"), ByteRange.of(0, 5)),
                new KeyRange(k("a/c"), ByteRange.of(0, 2))));
        assertEquals(4, out.size());
        assertEquals("a/c", text(out.get(0).orElseThrow()));
        assertTrue(out.get(1).isEmpty());
        assertEquals("value", text(out.get(2).orElseThrow()));
        assertEquals("va", text(out.get(3).orElseThrow()));
        assertTrue(store.getPartialValues(List.of()).isEmpty());
    }

    @Test
    void sizeAndExists() {
        assertEquals(OptionalLong.of("value of a/d/e".length()), store.size(k("a/d/e")));
        assertEquals(OptionalLong.empty(), store.size(k("a/d")));
        assertTrue(store.exists(k("zarr.json")));
        assertFalse(store.exists(k("a")));
        store.set(k("empty"), ByteBuffer.allocate(0));
        assertTrue(store.exists(k("empty")), "an empty value exists");
        assertEquals(OptionalLong.of(0), store.size(k("empty")));
    }

    @Test
    void eraseValues() {
        store.eraseValues(List.of(k("a/b"), k("a/f/g"), k("never-there")));
        assertEquals(List.of(k("a/c"), k("a/d/e"), k("ab/x"), k("zarr.json")), store.list());
    }

    @Test
    void erasePrefixStopsAtSegmentBoundaries() {
        store.erasePrefix("a/");
        assertEquals(List.of(k("ab/x"), k("zarr.json")), store.list(), "'ab/x' is not under 'a/'");
        store.erasePrefix("");
        assertTrue(store.list().isEmpty());
    }

    @Test
    void listIsEverythingSorted() {
        assertEquals(List.of(k("a/b"), k("a/c"), k("a/d/e"), k("a/f/g"), k("ab/x"), k("zarr.json")), store.list());
    }

    @Test
    void listDirOfTheSpecExample() {
        ListDirResult r = store.listDir("a/");
        assertEquals(List.of(k("a/b"), k("a/c")), r.keys());
        assertEquals(List.of("a/d/", "a/f/"), r.prefixes());
        ListDirResult none = store.listDir("b/");
        assertTrue(none.keys().isEmpty() && none.prefixes().isEmpty());
    }

    @Test
    void listDirOfTheRootAndDeeper() {
        ListDirResult root = store.listDir("");
        assertEquals(List.of(k("zarr.json")), root.keys());
        assertEquals(List.of("a/", "ab/"), root.prefixes());
        store.set(k("a/d/x/y/z"), utf8("deep"));
        ListDirResult d = store.listDir("a/d/");
        assertEquals(List.of(k("a/d/e")), d.keys());
        assertEquals(List.of("a/d/x/"), d.prefixes(), "one prefix per child, however deep");
    }

    @Test
    void listPrefixSizesListsEachKeyWithItsSize() {
        store.set(k("a/empty"), ByteBuffer.allocate(0));
        assertEquals(List.of(new KeySize(k("a/b"), 12), new KeySize(k("a/c"), 12), new KeySize(k("a/d/e"), 14),
                new KeySize(k("a/empty"), 0), new KeySize(k("a/f/g"), 14)), store.listPrefixSizes("a/"));
        assertEquals(store.listPrefix("").size(), store.listPrefixSizes("").size());
        assertEquals(List.of(), store.listPrefixSizes("b/"));
        assertThrows(InvalidKeyException.class, () -> store.listPrefixSizes("a"));
    }

    @Test
    void listPrefixSizesLeavesOutAKeyErasedAfterTheListing() {
        Store vanishing = new Store() {
            @Override public StoreCapabilities capabilities() { return store.capabilities(); }
            @Override public String describe() { return "vanishing:test"; }
            @Override public Optional<ByteBuffer> get(StoreKey key) {
                return key.equals(k("a/c")) ? Optional.empty() : store.get(key); // erased since listed
            }
            @Override public List<StoreKey> listPrefix(String prefix) { return store.listPrefix(prefix); }
        };
        assertEquals(List.of(k("a/b"), k("a/d/e"), k("a/f/g")),
                vanishing.listPrefixSizes("a/").stream().map(KeySize::key).toList());
    }

    @Test
    void keySizeRefusesANegativeSize() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new KeySize(k("a"), -1));
        assertTrue(e.getMessage().contains("'a'"), e.getMessage());
    }

    @Test
    void listDirRefusesBadPrefixes() {
        assertThrows(InvalidKeyException.class, () -> store.listDir("a"));
        assertThrows(InvalidKeyException.class, () -> store.listDir("/a/"));
        assertThrows(InvalidKeyException.class, () -> store.listDir("../"));
    }

    @Test
    void listDirResultIsImmutable() {
        ListDirResult r = store.listDir("a/");
        assertThrows(UnsupportedOperationException.class, () -> r.keys().add(k("x")));
        assertThrows(UnsupportedOperationException.class, () -> r.prefixes().add("x/"));
    }

    @Test
    void setPartialValuesUnsupportedByDefault() {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> store.setPartialValues(List.of(new KeyStartValue(k("a/b"), 0, utf8("x")))));
        assertTrue(e.getMessage().contains("map:test") && e.getMessage().contains("set_partial_values"), e.getMessage());
        assertArrayEquals("value of a/b".getBytes(StandardCharsets.UTF_8), store.map.get(k("a/b")));
    }

    @Test
    void readOnlyDefaultsRefuseWrites() {
        Store ro = new ReadOnlyStore();
        ReadOnlyException e = assertThrows(ReadOnlyException.class, () -> ro.set(k("x"), utf8("v")));
        assertTrue(e.getMessage().contains("ro:test") && e.getMessage().contains("'x'"), e.getMessage());
        e = assertThrows(ReadOnlyException.class, () -> ro.erase(k("k")));
        assertTrue(e.getMessage().contains("'k'"), e.getMessage());
        assertThrows(ReadOnlyException.class, () -> ro.eraseValues(List.of(k("k"))));
        assertThrows(ReadOnlyException.class, () -> ro.erasePrefix(""));
        assertEquals("ZARR-READONLY", e.code());
        // Reads still work, and closing does nothing.
        assertTrue(ro.exists(k("k")));
        assertEquals(List.of(k("k")), ro.list());
        ro.close();
        assertTrue(ro.exists(k("k")));
    }

    @Test
    void keyRecordsRefuseNulls() {
        assertThrows(NullPointerException.class, () -> new KeyRange(null, ByteRange.all()));
        assertThrows(NullPointerException.class, () -> new KeyRange(k("a"), null));
        assertThrows(NullPointerException.class, () -> new KeyStartValue(k("a"), 0, null));
        assertThrows(IllegalArgumentException.class, () -> new KeyStartValue(k("a"), -1, utf8("x")));
    }

    @Test
    void capabilityConstants() {
        assertEquals(new StoreCapabilities(true, false, false, true), StoreCapabilities.READ_ONLY);
        assertEquals(new StoreCapabilities(true, true, false, true), StoreCapabilities.READ_WRITE);
    }
}
