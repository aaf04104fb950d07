package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NodeNotFoundException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Nodes opened or created from a location own the store they opened and close it; nodes opened
 * from a store the caller holds leave it open.
 */
class OwningHandleTest {
    /** The stores the {@code test:} provider opened, by URI path: one shared map of values each. */
    private static final ConcurrentHashMap<String, ConcurrentHashMap<String, ByteBuffer>> DATA = new ConcurrentHashMap<>();
    private static final List<TrackedStore> OPENED = new ArrayList<>();
    private static final Zarr ZARR = Zarr.builder().registry(registry()).threads(1).build();

    @AfterAll
    static void close() {
        ZARR.close();
    }

    private static ExtensionRegistry registry() {
        ExtensionRegistry.Builder b = ExtensionRegistry.builder();
        for (ExtensionPoint p : ExtensionPoint.values()) {
            b.loadAll(p, ServiceLoader.load(p.providerType()));
        }
        return b.add(new TestStoreProvider()).build();
    }

    /** Opens {@code test:<name>} stores that keep their values across opens and count closes. */
    private static final class TestStoreProvider implements StoreProvider {
        @Override
        public String name() {
            return "test";
        }

        @Override
        public Store open(URI uri, boolean readOnly) {
            TrackedStore s = new TrackedStore(DATA.computeIfAbsent(uri.getSchemeSpecificPart(),
                    k -> new ConcurrentHashMap<>()), readOnly);
            synchronized (OPENED) {
                OPENED.add(s);
            }
            return s;
        }
    }

    private static final class TrackedStore implements Store {
        final ConcurrentHashMap<String, ByteBuffer> values;
        final boolean readOnly;
        final AtomicInteger closes = new AtomicInteger();

        TrackedStore(ConcurrentHashMap<String, ByteBuffer> values, boolean readOnly) {
            this.values = values;
            this.readOnly = readOnly;
        }

        private void checkOpen() {
            if (closes.get() > 0) {
                throw new StoreException("test store is closed", null);
            }
        }

        @Override
        public StoreCapabilities capabilities() {
            return readOnly ? StoreCapabilities.READ_ONLY : StoreCapabilities.READ_WRITE;
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            checkOpen();
            ByteBuffer v = values.get(key.value());
            return v == null ? Optional.empty() : Optional.of(v.duplicate());
        }

        @Override
        public void set(StoreKey key, ByteBuffer value) {
            checkOpen();
            ByteBuffer copy = ByteBuffer.allocate(value.remaining()).put(value.duplicate()).flip();
            values.put(key.value(), copy);
        }

        @Override
        public void erase(StoreKey key) {
            checkOpen();
            values.remove(key.value());
        }

        @Override
        public List<StoreKey> listPrefix(String prefix) {
            checkOpen();
            return values.keySet().stream().filter(k -> k.startsWith(prefix)).sorted().map(StoreKey::of).toList();
        }

        @Override
        public String describe() {
            return "test store";
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    private static TrackedStore lastOpened() {
        synchronized (OPENED) {
            return OPENED.get(OPENED.size() - 1);
        }
    }

    @Test
    void anArrayCreatedFromALocationClosesItsStoreOnce() {
        TrackedStore store;
        try (ZarrArray a = ZARR.array(DataTypes.INT32, 4).chunks(2).create("test:created", "/a")) {
            store = lastOpened();
            assertTrue(a.ownsStore());
            a.write(new long[] {0}, new long[] {4}, new int[] {1, 2, 3, 4});
            assertEquals(0, store.closes.get());
        }
        assertEquals(1, store.closes.get());
        ZarrArray again = ZARR.openArray("test:created", "/a");
        again.close();
        again.close();
        assertEquals(1, lastOpened().closes.get(), "a second close does nothing");
    }

    @Test
    void anArrayOpenedFromALocationOwnsItsStoreAndReads() {
        try (ZarrArray a = ZARR.array(DataTypes.INT32, 4).chunks(2).create("test:opened", "/g/a")) {
            a.write(new long[] {0}, new long[] {4}, new int[] {5, 6, 7, 8});
        }
        TrackedStore store;
        try (ZarrArray a = ZARR.openArray("test:opened", "/g/a", true)) {
            store = lastOpened();
            assertTrue(store.readOnly);
            assertTrue(a.ownsStore());
            assertArrayEquals(new int[] {5, 6, 7, 8}, a.read().toIntArray());
        }
        assertEquals(1, store.closes.get());
        StoreException closed = assertThrows(StoreException.class, () -> readAfterClose("test:opened"));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
    }

    private static void readAfterClose(String location) {
        ZarrArray a = ZARR.openArray(location, "/g/a");
        a.close();
        a.read();
    }

    @Test
    void aFailedOpenClosesTheStoreItOpened() {
        assertThrows(NodeNotFoundException.class, () -> ZARR.openArray("test:failed", "/missing"));
        assertEquals(1, lastOpened().closes.get());
        ZARR.createGroup("test:failed", "/g").close();
        NodeNotFoundException notAnArray = assertThrows(NodeNotFoundException.class,
                () -> ZARR.openArray("test:failed", "/g"));
        assertTrue(notAnArray.getMessage().contains("is a group"), notAnArray.getMessage());
        assertEquals(1, lastOpened().closes.get());
        assertThrows(NodeNotFoundException.class, () -> ZARR.openGroup("test:failed", "/nothing"));
        assertEquals(1, lastOpened().closes.get());
    }

    @Test
    void aGroupOwnsItsStoreAndItsChildrenDoNot() {
        TrackedStore store;
        try (ZarrGroup g = ZARR.createGroup("test:group", "/g")) {
            store = lastOpened();
            assertTrue(g.ownsStore());
            ZARR.array(DataTypes.INT32, 2).create(g, "a").close();
            ZarrArray child = g.openArray("a");
            assertFalse(child.ownsStore());
            child.close();
            assertEquals(0, store.closes.get(), "closing a child leaves the group's store open");
            assertEquals(List.of("a"), g.childNames());
        }
        assertEquals(1, store.closes.get());
        try (ZarrGroup g = ZARR.openGroup("test:group", "/g")) {
            assertEquals(List.of("a"), g.childNames());
        }
        assertEquals(1, lastOpened().closes.get());
    }

    @Test
    void nodesOpenedFromAStoreTheCallerHoldsLeaveItOpen() {
        TrackedStore store = (TrackedStore) ZARR.openStore("test:held");
        ZarrArray created = ZARR.array(DataTypes.INT32, 2).create(store, "/a");
        assertFalse(created.ownsStore());
        created.close();
        try (ZarrArray a = ZARR.openArray(store, "/a")) {
            assertFalse(a.ownsStore());
        }
        try (ZarrGroup root = ZARR.openGroup(store, "/")) {
            assertFalse(root.ownsStore());
        }
        ZARR.open(store, "/a").close();
        assertEquals(0, store.closes.get());
        assertArrayEquals(new int[] {0, 0}, ZARR.openArray(store, "/a").read().toIntArray());
        store.close();
    }
}
