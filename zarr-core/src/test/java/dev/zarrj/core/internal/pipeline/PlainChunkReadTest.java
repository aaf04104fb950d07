package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chunks stored as their elements' own bytes ({@code bytes} alone, native order): a region's
 * large share of a chunk is read whole into pooled memory on a local store, a small share through
 * the partial decoder; a whole chunk read on its own, bare or behind a bytes→bytes codec, comes
 * out right however it is split between threads, and no pooled memory is kept or handed to the
 * caller.
 */
class PlainChunkReadTest {
    private static final String BYTES = "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]";

    /** A memory store that reads values into the buffers it is lent, as the file store does, and counts its reads. */
    static final class LendingStore implements Store {
        private final Store memory;
        final AtomicInteger wholeReads = new AtomicInteger();
        final AtomicInteger lentReads = new AtomicInteger();
        final AtomicInteger rangedReads = new AtomicInteger();

        LendingStore(Store memory) {
            this.memory = memory;
        }

        @Override public StoreCapabilities capabilities() { return memory.capabilities(); }
        @Override public String describe() { return "lending(" + memory.describe() + ")"; }
        @Override public void set(StoreKey key, ByteBuffer value) { memory.set(key, value); }
        @Override public void erase(StoreKey key) { memory.erase(key); }
        @Override public List<StoreKey> listPrefix(String prefix) { return memory.listPrefix(prefix); }
        @Override public ListDirResult listDir(String prefix) { return memory.listDir(prefix); }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            if (key.value().contains("c/")) {
                wholeReads.incrementAndGet();
            }
            return memory.get(key);
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
            lentReads.incrementAndGet();
            return memory.get(key).map(v -> allocate.apply(v.remaining()).put(v.duplicate()).flip());
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
            rangedReads.incrementAndGet();
            return memory.get(key, range);
        }

        void reset() {
            wholeReads.set(0);
            lentReads.set(0);
            rangedReads.set(0);
        }
    }

    private static int[] values(int n) {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = i * 7 + 1;
        }
        return v;
    }

    private static int[] expected(int[] all, long[] shape, long[] offset, long[] extent) {
        int[] out = new int[(int) (extent[0] * extent[1] * extent[2])];
        int k = 0;
        for (long i = 0; i < extent[0]; i++) {
            for (long j = 0; j < extent[1]; j++) {
                for (long l = 0; l < extent[2]; l++) {
                    out[k++] = all[(int) (((offset[0] + i) * shape[1] + offset[1] + j) * shape[2] + offset[2] + l)];
                }
            }
        }
        return out;
    }

    /** One 16 × 64 × 64 int32 chunk (256 KiB) and a region of it, read through the store. */
    private static void readRegion(Zarr zarr, long[] offset, long[] extent, int wantLent, int wantRanged) {
        long[] shape = {16, 64, 64};
        LendingStore store = new LendingStore(zarr.openStore("memory:"));
        ZarrArray a = zarr.array(DataTypes.INT32, shape).chunks(shape).codecs(BYTES).fillValue(0).create(store, "/a");
        int[] all = values(16 * 64 * 64);
        a.write(new long[3], NdArray.copyOf(DataTypes.INT32, all, shape));
        long before = BufferLease.outstanding();
        store.reset();
        assertArrayEquals(expected(all, shape, offset, extent), a.read(offset, extent).toIntArray());
        assertEquals(wantLent, store.lentReads.get(), "whole reads into lent memory");
        assertEquals(wantRanged, store.rangedReads.get(), "ranged reads");
        assertEquals(before, BufferLease.outstanding(), "pooled buffers lent and not given back");
    }

    @Test
    void aLargeShareOfAChunkIsReadWholeIntoPooledMemory() {
        // Runs of 55 elements, 13 × 47 of them, spanning most of the chunk's planes: one read of the whole value.
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            readRegion(zarr, new long[] {2, 3, 5}, new long[] {13, 47, 55}, 1, 0);
        }
    }

    @Test
    void aLargeShareOfSomePlanesReadsOnlyThosePlanes() {
        // 6 of the 16 planes: one ranged read of those planes, not the whole value.
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            readRegion(zarr, new long[] {2, 3, 5}, new long[] {6, 47, 55}, 0, 1);
            readRegion(zarr, new long[] {4, 0, 0}, new long[] {12, 64, 63}, 0, 1);
        }
    }

    @Test
    void aShortValueReadByPlanesIsRefusedNamingTheKey() {
        long[] shape = {16, 64, 64};
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            LendingStore store = new LendingStore(zarr.openStore("memory:"));
            ZarrArray a = zarr.array(DataTypes.INT32, shape).chunks(shape).codecs(BYTES).fillValue(0).create(store, "/a");
            a.write(new long[3], NdArray.copyOf(DataTypes.INT32, values(16 * 64 * 64), shape));
            store.set(StoreKey.of("a/c/0/0/0"), ByteBuffer.allocate(10 * 64 * 64 * 4));
            ChunkDecodeException e = assertThrows(ChunkDecodeException.class,
                    () -> a.read(new long[] {8, 0, 0}, new long[] {6, 64, 63}));
            assertTrue(e.getMessage().contains("a/c/0/0/0"), e.getMessage());
        }
    }

    @Test
    void aSmallShareOfAChunkIsReadInRanges() {
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            readRegion(zarr, new long[] {1, 2, 3}, new long[] {2, 2, 2}, 0, 1);
        }
    }

    @Test
    void withFetchingAheadALargeShareStillReadsOnlyItsSpan() {
        // ioConcurrency above the threads: a remote store, where bytes not needed cost transfer time.
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(16).build()) {
            readRegion(zarr, new long[] {2, 3, 5}, new long[] {12, 47, 55}, 0, 1);
        }
    }

    private static final String BYTES_CRC32C = "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
            + "{\"name\":\"crc32c\"}]";

    /**
     * Two 1 × 512 × 512 int32 chunks (1 MiB each), the second never written; fill value 9. With a
     * bytes→bytes codec ({@code crc32c}) the stored bytes always go into lent memory, and with more
     * than one thread are decoded straight into the result allocated meanwhile.
     */
    private static void readChunks(int threads, String codecs) {
        boolean plain = codecs.equals(BYTES);
        long[] shape = {2, 512, 512};
        long[] chunk = {1, 512, 512};
        try (Zarr zarr = Zarr.builder().threads(threads).build()) {
            LendingStore store = new LendingStore(zarr.openStore("memory:"));
            ZarrArray a = zarr.array(DataTypes.INT32, shape).chunks(chunk).codecs(codecs).fillValue(9).create(store, "/a");
            int[] all = values(512 * 512);
            a.write(new long[3], NdArray.copyOf(DataTypes.INT32, all, chunk));
            long before = BufferLease.outstanding();
            store.reset();

            NdArray got = a.readChunk(0, 0, 0);
            assertArrayEquals(all, got.toIntArray());
            assertFalse(got.bytes().isDirect(), "the chunk is not in pooled memory");
            assertEquals(threads > 1 || !plain ? 1 : 0, store.lentReads.get(), "reads into lent memory");
            assertEquals(threads > 1 || !plain ? 0 : 1, store.wholeReads.get(), "reads into memory of the store's own");
            // The caller owns what it got: writing into it changes nothing read later.
            got.bytes().putInt(0, -1);
            assertEquals(all[0], a.readChunk(0, 0, 0).bytes().getInt(0));

            NdArray absent = a.readChunk(1, 0, 0);
            assertEquals(512 * 512, absent.toIntArray().length);
            for (int v : absent.toIntArray()) {
                assertEquals(9, v);
            }

            if (!plain) {
                ByteBuffer stored = store.get(StoreKey.of("a/c/0/0/0")).orElseThrow();
                ByteBuffer flipped = ByteBuffer.allocate(stored.remaining()).put(stored).flip();
                flipped.put(12345, (byte) (flipped.get(12345) ^ 1));
                store.set(StoreKey.of("a/c/0/0/0"), flipped);
                ChunkDecodeException e = assertThrows(ChunkDecodeException.class, () -> a.readChunk(0, 0, 0));
                assertTrue(e.getMessage().contains("a/c/0/0/0") && e.getMessage().contains("crc32c"), e.getMessage());
            }
            store.set(StoreKey.of("a/c/0/0/0"), ByteBuffer.allocate(100));
            ChunkDecodeException e = assertThrows(ChunkDecodeException.class, () -> a.readChunk(0, 0, 0));
            assertTrue(e.getMessage().contains("a/c/0/0/0"), e.getMessage());
            assertEquals(before, BufferLease.outstanding(), "pooled buffers lent and not given back");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {BYTES, BYTES_CRC32C})
    void aWholeChunkIsReadWithTheThreadBudget(String codecs) {
        readChunks(2, codecs);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {BYTES, BYTES_CRC32C})
    void aWholeChunkIsReadOnOneThread(String codecs) {
        readChunks(1, codecs);
    }

    /**
     * Chunk sizes that do not divide evenly among the copying threads, whose share is a whole
     * number of pages: every byte is copied, the last ones included.
     */
    @Test
    void everyByteOfAnUnevenChunkIsCopied() {
        for (int threads : new int[] {2, 3, 8}) {
            for (long size : new long[] {1_048_577, (1 << 20) + 4096 * 3 + 1, 3 * (1 << 20) + 2}) {
                try (Zarr zarr = Zarr.builder().threads(threads).build()) {
                    LendingStore store = new LendingStore(zarr.openStore("memory:"));
                    ZarrArray a = zarr.array(DataTypes.UINT8, size).chunks(size).codecs(BYTES).create(store, "/u");
                    byte[] values = new byte[(int) size];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = (byte) (i * 31 + 7);
                    }
                    values[values.length - 1] = 7;
                    a.write(new long[1], NdArray.copyOf(DataTypes.UINT8, values, size));
                    store.reset();
                    byte[] got = a.readChunk(0).toByteArray();
                    assertEquals(1, store.lentReads.get(), "read through the threads' shared path");
                    assertArrayEquals(values, got, size + " bytes on " + threads + " threads");
                }
            }
        }
    }
}
