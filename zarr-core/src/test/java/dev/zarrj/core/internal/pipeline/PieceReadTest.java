package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Large shares of chunks stored as their elements' own bytes, read in pieces of at most
 * {@link ChunkReader#PIECE} bytes through one range reader of a local store: every element lands
 * in its place, whatever dimension the pieces cut; only the pieces a part touches are read; whole
 * chunks are read in one request; a stored value of the wrong size is refused naming the key; an
 * absent chunk reads as the fill value; a reader that cannot promise one version makes the chunk
 * be read whole; no pooled memory is kept.
 */
class PieceReadTest {
    private static final String BYTES = "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]";

    /** A memory store whose range readers count the ranges read and can disown their versions. */
    static final class CountingReaders implements Store {
        private final Store memory;
        final AtomicInteger ranges = new AtomicInteger();
        final AtomicInteger wholeReads = new AtomicInteger();
        volatile boolean versioned = true;

        CountingReaders(Store memory) {
            this.memory = memory;
        }

        @Override public StoreCapabilities capabilities() { return memory.capabilities(); }
        @Override public String describe() { return "counting(" + memory.describe() + ")"; }
        @Override public void set(StoreKey key, ByteBuffer value) { memory.set(key, value); }
        @Override public void erase(StoreKey key) { memory.erase(key); }
        @Override public List<StoreKey> listPrefix(String prefix) { return memory.listPrefix(prefix); }
        @Override public ListDirResult listDir(String prefix) { return memory.listDir(prefix); }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            if (key.value().contains("/c/")) {
                wholeReads.incrementAndGet();
            }
            return memory.get(key);
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
            wholeReads.incrementAndGet();
            return memory.get(key, allocate);
        }

        @Override
        public RangeReader rangeReader(StoreKey key) {
            RangeReader reader = memory.rangeReader(key);
            return new RangeReader() {
                @Override
                public Optional<ByteBuffer> get(ByteRange range) {
                    ranges.incrementAndGet();
                    return reader.get(range);
                }

                @Override
                public List<Optional<ByteBuffer>> getAll(List<ByteRange> rs, IntFunction<ByteBuffer> allocate) {
                    // Into the caller's buffers, as the file store reads.
                    List<Optional<ByteBuffer>> out = new ArrayList<>();
                    for (ByteRange r : rs) {
                        out.add(get(r).map(v -> allocate.apply(v.remaining()).put(v).flip()));
                    }
                    return out;
                }

                @Override
                public boolean versioned() {
                    return versioned;
                }

                @Override
                public void close() {
                    reader.close();
                }
            };
        }
    }

    private Zarr zarr;
    private CountingReaders store;
    private long leased;

    @BeforeEach
    void open() {
        zarr = Zarr.builder().threads(2).build();
        store = new CountingReaders(zarr.openStore("memory:"));
        leased = BufferLease.outstanding();
    }

    @AfterEach
    void close() {
        zarr.close();
        assertEquals(leased, BufferLease.outstanding(), "pooled buffers lent and not given back");
    }

    private static int[] values(int n) {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = i * 13 - 5;
        }
        return v;
    }

    private ZarrArray written(long[] shape, long[] chunks, int[] data) {
        ZarrArray a = zarr.array(DataTypes.INT32, shape).chunks(chunks).codecs(BYTES).fillValue(9).create(store, "/a");
        a.write(new long[shape.length], NdArray.copyOf(DataTypes.INT32, data, shape));
        store.ranges.set(0);
        store.wholeReads.set(0);
        return a;
    }

    /** All but the last column of every chunk of a whole-array region. */
    private static NdArray allButLastColumn(ZarrArray a, long[] shape) {
        long[] extent = shape.clone();
        extent[extent.length - 1]--;
        return a.read(new long[shape.length], extent);
    }

    /** Planes of 256 KiB, more than a piece: pieces of 128 rows, four per 512 KiB chunk. */
    @Test
    void piecesOfRowsWithinPlanes() {
        long[] shape = {4, 256, 256};
        int[] data = values(4 * 256 * 256);
        ZarrArray a = written(shape, new long[] {2, 256, 256}, data);
        NdArray all = NdArray.copyOf(DataTypes.INT32, data, shape);
        assertArrayEquals(all.region(Region.of(new long[3], new long[] {4, 256, 255})).toIntArray(),
                allButLastColumn(a, shape).toIntArray());
        assertEquals(8, store.ranges.get(), "4 pieces for each of 2 chunks");
        assertEquals(0, store.wholeReads.get());
    }

    /** Rows of 1.2 MB, longer than a piece: pieces cut the rows, the last one short. */
    @Test
    void piecesWithinRowsLongerThanAPiece() {
        long[] shape = {2, 300_000};
        int[] data = values(600_000);
        ZarrArray a = written(shape, new long[] {1, 300_000}, data);
        NdArray all = NdArray.copyOf(DataTypes.INT32, data, shape);
        assertArrayEquals(all.region(Region.of(new long[2], new long[] {2, 299_999})).toIntArray(),
                allButLastColumn(a, shape).toIntArray());
        int perChunk = (300_000 * 4 + ChunkReader.PIECE - 1) / ChunkReader.PIECE;
        assertEquals(2 * perChunk, store.ranges.get());
    }

    /** A whole chunk is one request of the whole value, into pooled memory. */
    @Test
    void aWholeChunkIsReadInOneRequest() {
        long[] shape = {4, 256, 256};
        int[] data = values(4 * 256 * 256);
        ZarrArray a = written(shape, new long[] {2, 256, 256}, data);
        assertArrayEquals(data, a.read().toIntArray());
        assertEquals(0, store.ranges.get());
        assertEquals(2, store.wholeReads.get());
    }

    /** A large share of one chunk (planes of 64 KiB, two per piece): only the pieces it touches. */
    @Test
    void aPartReadsOnlyThePiecesItTouches() {
        long[] shape = {8, 128, 128};
        int[] data = values(8 * 128 * 128);
        ZarrArray a = written(shape, shape, data);
        long[] offset = {1, 0, 20};
        long[] extent = {3, 128, 100};
        NdArray all = NdArray.copyOf(DataTypes.INT32, data, shape);
        assertArrayEquals(all.region(Region.of(offset, extent)).toIntArray(), a.read(offset, extent).toIntArray());
        assertEquals(2, store.ranges.get(), "planes 1..3: the pieces of planes 0-1 and 2-3");
        assertEquals(0, store.wholeReads.get());
    }

    @Test
    void anAbsentChunkReadsAsTheFillValue() {
        long[] shape = {2, 256, 256};
        ZarrArray a = zarr.array(DataTypes.INT32, shape).chunks(1, 256, 256).codecs(BYTES).fillValue(9)
                .create(store, "/a");
        a.write(new long[3], NdArray.copyOf(DataTypes.INT32, values(256 * 256), 1, 256, 256));
        NdArray got = a.read(new long[] {1, 0, 0}, new long[] {1, 256, 255});
        for (int v : got.toIntArray()) {
            assertEquals(9, v);
        }
    }

    @Test
    void aStoredValueOfTheWrongSizeIsRefusedNamingTheKey() {
        long[] shape = {4, 256, 256};
        int[] data = values(4 * 256 * 256);
        ZarrArray a = written(shape, new long[] {2, 256, 256}, data);
        StoreKey key = StoreKey.of("a/c/1/0/0");
        int size = 2 * 256 * 256 * 4;
        for (int stored : new int[] {size - 100, size + 100, size - ChunkReader.PIECE - 4}) {
            store.set(key, ByteBuffer.allocate(stored));
            ChunkDecodeException e = assertThrows(ChunkDecodeException.class, () -> allButLastColumn(a, shape));
            assertTrue(e.getMessage().contains("a/c/1/0/0"), e.getMessage());
        }
        assertTrue(store.ranges.get() > 0, "read in pieces");
        assertEquals(0, store.wholeReads.get());
    }

    @Test
    void aReaderWithoutVersionsMakesTheChunkBeReadWhole() {
        store.versioned = false;
        long[] shape = {4, 256, 256};
        int[] data = values(4 * 256 * 256);
        ZarrArray a = written(shape, new long[] {2, 256, 256}, data);
        NdArray all = NdArray.copyOf(DataTypes.INT32, data, shape);
        assertArrayEquals(all.region(Region.of(new long[3], new long[] {4, 256, 255})).toIntArray(),
                allButLastColumn(a, shape).toIntArray());
        assertEquals(2, store.wholeReads.get(), "each chunk read whole after its first piece");
    }
}
