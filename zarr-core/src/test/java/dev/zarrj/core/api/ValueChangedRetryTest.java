package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ValueChangedException;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.selection.IndexList;
import dev.zarrj.core.selection.Selection;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A chunk read in part through a range reader that reports its value changed
 * ({@link ValueChangedException}) is read again with a new reader, a bounded number of times; then
 * the read fails with a {@link StoreException} naming the key. Readers are always closed.
 */
class ValueChangedRetryTest {
    private static final Zarr ZARR = Zarr.builder().threads(1).build();
    private static final int[] VALUES = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

    @AfterAll
    static void close() {
        ZARR.close();
    }

    /** A store whose range readers of {@code c/0} report a change on their first read, {@code changes} times in all. */
    private static final class Changing implements Store {
        final Store inner = ZARR.openStore("memory:");
        final AtomicInteger changes;
        final AtomicInteger opened = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();

        Changing(int changes) {
            this.changes = new AtomicInteger(changes);
        }

        @Override public StoreCapabilities capabilities() { return inner.capabilities(); }
        @Override public String describe() { return "changing(" + inner.describe() + ")"; }
        @Override public Optional<ByteBuffer> get(StoreKey key) { return inner.get(key); }
        @Override public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> a) { return inner.get(key, a); }
        @Override public Optional<ByteBuffer> get(StoreKey key, ByteRange range) { return inner.get(key, range); }
        @Override public OptionalLong size(StoreKey key) { return inner.size(key); }
        @Override public void set(StoreKey key, ByteBuffer value) { inner.set(key, value); }
        @Override public void erase(StoreKey key) { inner.erase(key); }
        @Override public List<StoreKey> listPrefix(String prefix) { return inner.listPrefix(prefix); }
        @Override public ListDirResult listDir(String prefix) { return inner.listDir(prefix); }

        @Override
        public RangeReader rangeReader(StoreKey key) {
            RangeReader reader = inner.rangeReader(key);
            boolean chunk = key.value().endsWith("c/0");
            if (chunk) {
                opened.incrementAndGet();
            }
            return new RangeReader() {
                @Override
                public Optional<ByteBuffer> get(ByteRange range) {
                    if (chunk && changes.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        throw new ValueChangedException("changing: key '" + key + "' changed (test)", null);
                    }
                    return reader.get(range);
                }

                @Override
                public void close() {
                    if (chunk) {
                        closed.incrementAndGet();
                    }
                    reader.close();
                }
            };
        }
    }

    private static ZarrArray array(Changing store) {
        ZarrArray a = ZARR.array(DataTypes.INT32, 16).chunks(16).fillValue(-1).create(store, "/a");
        a.write(new long[] {0}, new long[] {16}, VALUES);
        store.opened.set(0);
        store.closed.set(0);
        return ZARR.openArray(store, "/a");
    }

    @Test
    void aRegionReadStartsTheChunkOverWhenItsValueChanged() {
        Changing store = new Changing(3);
        ZarrArray a = array(store);
        assertArrayEquals(new int[] {2, 3, 4}, a.read(new long[] {2}, new long[] {3}).toIntArray());
        assertEquals(4, store.opened.get(), "three readers reported a change, the fourth read the chunk");
        assertEquals(store.opened.get(), store.closed.get(), "every reader closed");
    }

    @Test
    void aSelectionStartsTheChunkOverWhenItsValueChanged() {
        Changing store = new Changing(2);
        ZarrArray a = array(store);
        assertArrayEquals(new int[] {9, 3, 14}, a.read(Selection.of(IndexList.of(9, 3, 14))).toIntArray());
        assertTrue(store.opened.get() >= 3, "two readers reported a change, a third read the chunk");
        assertEquals(store.opened.get(), store.closed.get(), "every reader closed");
    }

    @Test
    void aValueThatKeepsChangingFailsNamingTheKey() {
        Changing store = new Changing(Integer.MAX_VALUE);
        ZarrArray a = array(store);
        StoreException e = assertThrows(StoreException.class, () -> a.read(new long[] {2}, new long[] {3}));
        assertFalse(e instanceof ValueChangedException, "a final error, not one to retry: " + e);
        assertTrue(e.getMessage().contains("'a/c/0'") && e.getMessage().contains("replaced while being read"),
                e.getMessage());
        assertInstanceOf(ValueChangedException.class, e.getCause());
        assertEquals(8, store.opened.get(), "eight attempts");
        assertEquals(store.opened.get(), store.closed.get(), "every reader closed");
        StoreException s = assertThrows(StoreException.class, () -> a.read(Selection.of(IndexList.of(9, 3))));
        assertTrue(s.getMessage().contains("'a/c/0'") && s.getMessage().contains("replaced while being read"),
                s.getMessage());
    }
}
