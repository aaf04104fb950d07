package dev.zarrj.core.api;

import dev.zarrj.api.Region;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Reads and writes go through reused chunk memory, through views of the caller's array, and
 * straight into the destination: whichever path a chunk takes, no element of one chunk may leak
 * into another, and no element outside the written region may change. {@code crc32c} after
 * {@code bytes} makes every chunk take the bytes→bytes paths, and checks each stored chunk.
 */
class ChunkMemoryReuseTest {
    private static final Zarr ZARR = Zarr.builder().threads(3).maxChunksInFlight(4).build();
    private static final int FILL = -1;

    @AfterAll
    static void close() {
        ZARR.close();
    }

    private static ZarrArray array(Store store, long[] shape, long... chunks) {
        return ZARR.array(DataTypes.INT32, shape).chunks(chunks).fillValue(FILL).codec("crc32c").create(store, "/a");
    }

    private static int[] random(int n, long seed) {
        Random r = new Random(seed);
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.nextInt(1_000_000);
        }
        return v;
    }

    /** The elements of a stored chunk: little-endian int32 followed by the 4-byte checksum. */
    private static int[] storedChunk(Store store, String key, int elements) {
        ByteBuffer b = store.get(StoreKey.of(key)).orElseThrow().order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(elements * 4 + 4, b.remaining(), key);
        int[] out = new int[elements];
        for (int i = 0; i < elements; i++) {
            out[i] = b.getInt(b.position() + 4 * i);
        }
        return out;
    }

    @Test
    void edgeChunksHoldOnlyTheFillValueBeyondTheEdgeWhateverChunkUsedTheMemoryBefore() {
        Store store = ZARR.openStore("memory:");
        // Chunks [3, 4] of a [7, 10] array: no chunk is contiguous in the source, so every one is
        // assembled in reused memory; the last row and column of chunks overhang the array.
        ZarrArray a = array(store, new long[] {7, 10}, 3, 4);
        int[] values = random(70, 1);
        for (int round = 0; round < 3; round++) {
            a.write(new long[2], new long[] {7, 10}, values);
        }
        assertArrayEquals(values, a.read().toIntArray());
        // Chunk (2, 2) covers rows 6..8 and columns 8..11: only [6][8] and [6][9] are in the array.
        int[] edge = storedChunk(store, "a/c/2/2", 12);
        assertArrayEquals(new int[] {values[68], values[69], FILL, FILL, FILL, FILL, FILL, FILL, FILL, FILL, FILL,
                FILL}, edge);
        // Chunk (0, 2): rows 0..2, columns 8..11.
        int[] right = storedChunk(store, "a/c/0/2", 12);
        for (int r = 0; r < 3; r++) {
            assertArrayEquals(new int[] {values[r * 10 + 8], values[r * 10 + 9], FILL, FILL},
                    java.util.Arrays.copyOfRange(right, r * 4, r * 4 + 4), "row " + r);
        }
    }

    @Test
    void partialUpdatesKeepEveryUntouchedElement() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = array(store, new long[] {9, 8}, 3, 4);
        int[] reference = random(72, 2);
        a.write(new long[2], new long[] {9, 8}, reference);
        Random r = new Random(3);
        for (int i = 0; i < 40; i++) {
            int y = r.nextInt(9);
            int x = r.nextInt(8);
            int v = -1000 - i;
            a.write(new long[] {y, x}, new long[] {1, 1}, new int[] {v});
            reference[y * 8 + x] = v;
        }
        assertArrayEquals(reference, a.read().toIntArray());
    }

    @Test
    void chunksDecodedStraightIntoTheDestinationAndThroughReusedMemoryAgree() {
        Store store = ZARR.openStore("memory:");
        // Chunks [2, 6] of a [9, 6] array are contiguous in a whole read (decoded in place);
        // regions that cut chunks are decoded into reused memory and copied.
        ZarrArray a = array(store, new long[] {9, 6}, 2, 6);
        int[] values = random(54, 4);
        a.write(new long[2], new long[] {9, 6}, values);
        assertArrayEquals(values, a.read().toIntArray());
        int[] middle = a.read(new long[] {1, 1}, new long[] {7, 4}).toIntArray();
        for (int y = 0; y < 7; y++) {
            for (int x = 0; x < 4; x++) {
                assertEquals(values[(y + 1) * 6 + x + 1], middle[y * 4 + x], "[" + (y + 1) + "][" + (x + 1) + "]");
            }
        }
        NdArray dst = NdArray.allocate(DataTypes.INT32, 4, 6);
        a.readInto(new long[] {4, 0}, dst);
        assertArrayEquals(java.util.Arrays.copyOfRange(values, 24, 48), dst.toIntArray());
        assertArrayEquals(java.util.Arrays.copyOfRange(values, 48, 54), a.readChunk(4, 0).region(Region.of(new long[2], new long[] {1, 6})).toIntArray());
    }

    @Test
    void aCorruptChunkFailsNamingItsKeyAndTheOthersStillRead() {
        Store store = ZARR.openStore("memory:");
        ZarrArray a = array(store, new long[] {4, 6}, 2, 6);
        int[] values = random(24, 5);
        a.write(new long[2], new long[] {4, 6}, values);
        StoreKey key = StoreKey.of("a/c/1/0");
        ByteBuffer bad = store.get(key).orElseThrow();
        bad.put(bad.position() + 3, (byte) (bad.get(bad.position() + 3) ^ 0x10));
        store.set(key, bad);
        ChunkDecodeException e = assertThrows(ChunkDecodeException.class, a::read);
        assertTrue(e.getMessage().contains("a/c/1/0"), e.getMessage());
        assertArrayEquals(java.util.Arrays.copyOfRange(values, 0, 12),
                a.read(new long[2], new long[] {2, 6}).toIntArray());
    }

    /**
     * A store that reads every value into the memory its caller lends, as the file store does,
     * and counts the reads that asked to lend it.
     */
    private static final class LendingStore implements Store {
        private final Store values;
        int lentReads;

        LendingStore(Store values) {
            this.values = values;
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
            lentReads++;
            return values.get(key).map(v -> {
                ByteBuffer b = allocate.apply(v.remaining());
                b.duplicate().put(v.duplicate());
                return b.limit(b.position() + v.remaining());
            });
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            return values.get(key);
        }

        @Override
        public void set(StoreKey key, ByteBuffer value) {
            values.set(key, value);
        }

        @Override
        public StoreCapabilities capabilities() {
            return values.capabilities();
        }

        @Override
        public String describe() {
            return "lending " + values.describe();
        }

        @Override
        public List<StoreKey> listPrefix(String prefix) {
            return values.listPrefix(prefix);
        }
    }

    /**
     * readChunk of a chain with a bytes→bytes codec reads the stored bytes into memory it lends
     * (reused from chunk to chunk) rather than having the store allocate them: a small read then
     * leaves only the decoded chunk as new memory (docs/performance.md). Plain {@code bytes} still
     * hands back the store's own buffer.
     */
    @Test
    void readChunkLendsTheStoreMemoryForTheStoredBytesOfATransformedChain() {
        LendingStore store = new LendingStore(ZARR.openStore("memory:"));
        ZarrArray checked = array(store, new long[] {4, 6}, 2, 6);
        checked.write(new long[2], new long[] {4, 6}, random(24, 6));
        int before = store.lentReads;
        checked.readChunk(1, 0);
        assertEquals(before + 1, store.lentReads, "the crc32c chain's stored bytes go into lent memory");

        ZarrArray plain = ZARR.array(DataTypes.INT32, new long[] {4, 6}).chunks(2, 6).create(store, "/plain");
        plain.write(new long[2], new long[] {4, 6}, random(24, 7));
        before = store.lentReads;
        plain.readChunk(1, 0);
        assertEquals(before, store.lentReads, "plain bytes: the store's own buffer is the chunk");
    }

    /**
     * crc32c decodes to a view of its input: a chunk readChunk returns must not stay in memory
     * that goes back to the pool, or the next read (which reuses it) would change it. Chunks of
     * 64 KiB and more are read into pooled direct memory.
     */
    @Test
    void chunksFromReadChunkKeepTheirValuesWhileLaterReadsReuseTheMemory() {
        LendingStore store = new LendingStore(ZARR.openStore("memory:"));
        ZarrArray a = array(store, new long[] {128, 256}, 128, 128);
        int[] values = random(128 * 256, 8);
        a.write(new long[2], new long[] {128, 256}, values);
        NdArray first = a.readChunk(0, 0);
        NdArray second = a.readChunk(0, 1);
        NdArray third = a.readChunk(0, 0);
        int[] left = first.toIntArray();
        int[] right = second.toIntArray();
        for (int y = 0; y < 128; y++) {
            for (int x = 0; x < 128; x++) {
                assertEquals(values[y * 256 + x], left[y * 128 + x], "chunk (0, 0) at [" + y + "][" + x + "]");
                assertEquals(values[y * 256 + 128 + x], right[y * 128 + x], "chunk (0, 1) at [" + y + "][" + x + "]");
            }
        }
        assertArrayEquals(left, third.toIntArray());
    }
}
