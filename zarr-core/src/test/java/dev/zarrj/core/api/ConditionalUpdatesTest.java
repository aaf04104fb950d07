package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.WriteEmptyChunks;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.internal.store.memory.MemoryStore;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * zarr-core on a store with conditional writes: another writer (another process, played here by
 * a second handle on the store beneath) changes a chunk or creates a node between this writer's
 * read and its write, and nothing of either is lost; a creation without overwrite fails.
 */
class ConditionalUpdatesTest {
    private static final Zarr ZARR = Zarr.builder().threads(1).writeEmptyChunks(WriteEmptyChunks.SKIP).build();

    @AfterAll
    static void close() {
        ZARR.close();
    }

    /**
     * Forwards to a memory store and runs {@link #interloper} once, right after the first read of
     * {@link #watched} (get, getVersioned or exists) returned: what another process did meanwhile.
     */
    private static final class InterleavingStore implements Store {
        final MemoryStore memory = new MemoryStore();
        final AtomicInteger conditionalFailures = new AtomicInteger();
        volatile String watched;
        volatile Runnable interloper;
        /** When false, every conditional write reports that the key changed. */
        volatile boolean conditionalSucceeds = true;

        private void afterRead(StoreKey key) {
            Runnable r = interloper;
            if (r != null && key.value().equals(watched)) {
                interloper = null;
                r.run();
            }
        }

        @Override public StoreCapabilities capabilities() { return memory.capabilities(); }
        @Override public String describe() { return "interleaving(" + memory.describe() + ")"; }

        @Override public Optional<ByteBuffer> get(StoreKey key) {
            Optional<ByteBuffer> v = memory.get(key);
            afterRead(key);
            return v;
        }

        @Override public Optional<ByteBuffer> get(StoreKey key, ByteRange range) { return memory.get(key, range); }
        @Override public OptionalLong size(StoreKey key) { return memory.size(key); }

        @Override public boolean exists(StoreKey key) {
            boolean e = memory.exists(key);
            afterRead(key);
            return e;
        }

        @Override public void set(StoreKey key, ByteBuffer value) { memory.set(key, value); }
        @Override public void erase(StoreKey key) { memory.erase(key); }
        @Override public void erasePrefix(String prefix) { memory.erasePrefix(prefix); }
        @Override public List<StoreKey> listPrefix(String prefix) { return memory.listPrefix(prefix); }
        @Override public ListDirResult listDir(String prefix) { return memory.listDir(prefix); }

        @Override public Optional<ConditionalWrites> conditionalWrites() {
            ConditionalWrites c = memory.conditionalWrites().orElseThrow();
            return Optional.of(new ConditionalWrites() {
                @Override public Optional<VersionedValue> getVersioned(StoreKey key) {
                    Optional<VersionedValue> v = c.getVersioned(key);
                    afterRead(key);
                    return v;
                }

                @Override public boolean setIfAbsent(StoreKey key, ByteBuffer value) {
                    return count(conditionalSucceeds && c.setIfAbsent(key, value));
                }

                @Override public boolean setIfMatch(StoreKey key, ByteBuffer value, String version) {
                    return count(conditionalSucceeds && c.setIfMatch(key, value, version));
                }
            });
        }

        private boolean count(boolean stored) {
            if (!stored) {
                conditionalFailures.incrementAndGet();
            }
            return stored;
        }
    }

    private static int[] block(int value) {
        int[] v = new int[4];
        Arrays.fill(v, value);
        return v;
    }

    /**
     * A 4×4 chunk; this writer writes its top right 2×2 block while another writes the bottom
     * right one between this writer's read and write. "present": the chunk held the top left
     * block before; "absent": it did not exist; "fill": it held only this writer's block, which
     * this writer overwrites with fill values, so that its own result would be an empty chunk.
     */
    @ParameterizedTest(name = "chunk {0} before")
    @ValueSource(strings = {"present", "absent", "fill"})
    void anotherWritersUpdateBetweenReadAndWriteIsKept(String before) {
        InterleavingStore store = new InterleavingStore();
        ZARR.array(DataTypes.INT32, 4, 4).chunks(4, 4).create(store.memory, "a");
        ZarrArray other = ZARR.openArray(store.memory, "a");
        ZarrArray mine = ZARR.openArray(store, "a");
        int mineValue = before.equals("fill") ? 0 : 5;
        if (before.equals("present")) {
            other.write(new long[] {0, 0}, new long[] {2, 2}, block(1));
        } else if (before.equals("fill")) {
            other.write(new long[] {0, 2}, new long[] {2, 2}, block(5));
        }
        store.watched = "a/c/0/0";
        store.interloper = () -> other.write(new long[] {2, 2}, new long[] {2, 2}, block(7));

        mine.write(new long[] {0, 2}, new long[] {2, 2}, block(mineValue));

        int p = before.equals("present") ? 1 : 0;
        int m = mineValue;
        int[] expected = {
            p, p, m, m,
            p, p, m, m,
            0, 0, 7, 7,
            0, 0, 7, 7};
        assertArrayEquals(expected, ZARR.openArray(store.memory, "a").read().toIntArray());
        assertEquals(1, store.conditionalFailures.get(), "the first conditional write should find the chunk changed");
    }

    @Test
    void withStoreEmptyChunksAFillValuePartOfAnAbsentChunkIsStoredAsWithoutConditionalWrites() {
        try (Zarr writeAll = Zarr.builder().threads(1).writeEmptyChunks(WriteEmptyChunks.STORE).build()) {
            InterleavingStore store = new InterleavingStore();
            writeAll.array(DataTypes.INT32, 4, 4).chunks(4, 4).create(store, "a")
                    .write(new long[] {0, 0}, new long[] {2, 2}, block(0));
            assertTrue(store.memory.exists(StoreKey.of("a/c/0/0")), "the chunk of fill values is stored");
        }
    }

    @Test
    void anUpdateThatNeverFindsTheChunkUnchangedGivesUpNamingTheKey() {
        InterleavingStore store = new InterleavingStore();
        ZARR.array(DataTypes.INT32, 4, 4).chunks(4, 4).create(store.memory, "a");
        ZarrArray mine = ZARR.openArray(store, "a");
        store.conditionalSucceeds = false;
        StoreException e = assertThrows(StoreException.class,
                () -> mine.write(new long[] {0, 0}, new long[] {2, 2}, block(3)));
        assertTrue(e.getMessage().contains("'a/c/0/0'") && e.getMessage().contains("100 times"), e.getMessage());
    }

    @Test
    void aWholeChunkWriteNeedsNoConditionalWrite() {
        InterleavingStore store = new InterleavingStore();
        ZARR.array(DataTypes.INT32, 4, 4).chunks(2, 2).create(store.memory, "a");
        store.conditionalSucceeds = false;
        ZARR.openArray(store, "a").write(new long[] {0, 0}, new long[] {2, 2}, block(3));
        assertArrayEquals(block(3), ZARR.openArray(store.memory, "a").read(new long[] {0, 0}, new long[] {2, 2})
                .toIntArray());
    }

    private static String metadataOf(Store s, String key) {
        return new String(s.get(StoreKey.of(key)).map(b -> {
            byte[] a = new byte[b.remaining()];
            b.get(a);
            return a;
        }).orElseThrow(), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void arrayBuilderCreateFailsWhenAnotherCreatedTheArrayAfterTheCheck() {
        InterleavingStore store = new InterleavingStore();
        store.watched = "b/zarr.json";
        store.interloper = () -> ZARR.array(DataTypes.INT32, 9).create(store.memory, "b");
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> ZARR.array(DataTypes.INT32, 4, 4).create(store, "b"));
        assertTrue(e.getMessage().contains("already exists at '/b'"), e.getMessage());
        assertArrayEquals(new long[] {9}, ZARR.openArray(store.memory, "b").shape(), "the other creator's array");
    }

    @Test
    void createArrayFailsWhenAnotherCreatedTheArrayAfterTheCheck() {
        InterleavingStore store = new InterleavingStore();
        ObjectNode doc = ZARR.array(DataTypes.INT32, 4, 4).create(new MemoryStore(), "x").metadata();
        store.watched = "b/zarr.json";
        store.interloper = () -> ZARR.array(DataTypes.INT32, 9).create(store.memory, "b");
        InvalidMetadataException e = assertThrows(InvalidMetadataException.class,
                () -> ZARR.createArray(store, "b", doc, false));
        assertTrue(e.getMessage().contains("already exists at '/b'"), e.getMessage());
        assertArrayEquals(new long[] {9}, ZARR.openArray(store.memory, "b").shape(), "the other creator's array");
    }

    @Test
    void aMissingAncestorGroupCreatedMeanwhileKeepsItsAttributes() {
        InterleavingStore store = new InterleavingStore();
        ObjectNode attributes = JsonNodeFactory.instance.objectNode().put("owner", "other");
        store.watched = "g/zarr.json";
        store.interloper = () -> ZARR.createGroup(store.memory, "g", attributes);
        ZARR.array(DataTypes.INT32, 4).create(store, "g/a");
        assertEquals(attributes, ZARR.openGroup(store.memory, "g").attributes(), metadataOf(store.memory, "g/zarr.json"));
    }

    @Test
    void withoutOverwriteAnExistingArrayIsStillRefusedAndWithOverwriteReplaced() {
        InterleavingStore store = new InterleavingStore();
        ZARR.array(DataTypes.INT32, 9).create(store, "b");
        assertThrows(InvalidMetadataException.class, () -> ZARR.array(DataTypes.INT32, 4).create(store, "b"));
        ZARR.array(DataTypes.INT32, 4).overwrite(true).create(store, "b");
        assertArrayEquals(new long[] {4}, ZARR.openArray(store, "b").shape());
    }
}
