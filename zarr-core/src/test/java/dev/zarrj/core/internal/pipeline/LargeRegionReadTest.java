package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.InsufficientMemoryException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Regions of at least {@link ChunkReader#ALLOCATE_BESIDE_FROM} bytes of compressed-like chunks
 * ({@code bytes} + {@code crc32c}), whose array is allocated as one piece of the read while the
 * other pieces decode chunks aside (a row group at a time, {@link RowGroup}, when the region is
 * cut along chunk boundaries) or, chunks too large to park decoded, fetch them: every
 * element comes out right (whole chunks, chunks cut by the region, absent chunks with a fill
 * value), a corrupt chunk fails the read naming its key, and no pooled memory is kept either way.
 */
class LargeRegionReadTest {
    private static final String CHAIN = "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
            + "{\"name\":\"crc32c\"}]";
    /** int32 [1040, 2048] in chunks of [256, 512]: 8.5 MB, 25 chunks, the last row of them cut by the array. */
    private static final long[] SHAPE = {1040, 2048};
    private static final long[] CHUNKS = {256, 512};
    private static final int FILL = 7;

    private static int[] values() {
        int[] v = new int[(int) (SHAPE[0] * SHAPE[1])];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 31 + 5;
        }
        return v;
    }

    /** The array with every chunk written but those whose first coordinate is 2 and second odd. */
    private static ZarrArray written(Zarr zarr, Store store, int[] all) {
        ZarrArray a = zarr.array(DataTypes.INT32, SHAPE).chunks(CHUNKS).codecs(CHAIN).fillValue(FILL).create(store, "/a");
        a.write(new long[2], NdArray.copyOf(DataTypes.INT32, all, SHAPE));
        for (int c = 1; c < 4; c += 2) {
            store.erase(StoreKey.of("a/c/2/" + c));
        }
        return a;
    }

    private static int[] expected(int[] all, long[] offset, long[] extent) {
        int[] out = new int[(int) (extent[0] * extent[1])];
        int k = 0;
        for (long i = offset[0]; i < offset[0] + extent[0]; i++) {
            for (long j = offset[1]; j < offset[1] + extent[1]; j++) {
                boolean erased = i / CHUNKS[0] == 2 && (j / CHUNKS[1]) % 2 == 1;
                out[k++] = erased ? FILL : all[(int) (i * SHAPE[1] + j)];
            }
        }
        return out;
    }

    /** The array's chunk reader, to hand readNew an allocation that takes its time. */
    static ChunkReader reader(ZarrArray a) throws ReflectiveOperationException {
        Field bound = ZarrArray.class.getDeclaredField("bound");
        bound.setAccessible(true);
        Object b = bound.get(a);
        Method reader = b.getClass().getDeclaredMethod("reader");
        reader.setAccessible(true);
        return (ChunkReader) reader.invoke(b);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 20})
    void everyElementComesOutRightWhileTheArrayIsAllocated(int allocationMillis) throws Exception {
        int[] all = values();
        long[][] regions = {{0, 0, SHAPE[0], SHAPE[1]}, {8, 3, 1030, 2040}};
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            ZarrArray a = written(zarr, zarr.openStore("memory:"), all);
            ChunkReader reader = reader(a);
            long lent = BufferLease.outstanding();
            long pooled = ChunkBuffers.bytesInUse();
            long parkedBefore = PendingResult.parkedSoFar();
            long groupsBefore = RowGroup.copiedSoFar();
            for (int round = 0; round < 5; round++) {
                for (long[] r : regions) {
                    long[] offset = {r[0], r[1]};
                    long[] extent = {r[2], r[3]};
                    assertEquals(ChunkReader.SetAside.DECODED, reader.setAside(offset, extent));
                    NdArray got = reader.readNew(offset, extent, () -> {
                        sleep(allocationMillis);
                        return NdArray.allocate(DataTypes.INT32, extent);
                    });
                    assertArrayEquals(expected(all, offset, extent), got.toIntArray(), "region " + java.util.Arrays.toString(r));
                }
            }
            if (allocationMillis >= 20) {
                // Over a shorter allocation, whether a chunk or a row group (four chunks) is
                // decoded in time depends on the machine's load.
                assertTrue(PendingResult.parkedSoFar() > parkedBefore, "chunks were decoded aside while allocating");
            }
            assertTrue(RowGroup.copiedSoFar() > groupsBefore, "the whole region went a row group at a time");
            assertArrayEquals(expected(all, new long[2], SHAPE), a.read().toIntArray(), "read()");
            assertEquals(lent, BufferLease.outstanding(), "pooled buffers lent and not given back");
            assertEquals(pooled, ChunkBuffers.bytesInUse(), "pooled memory in use");
        }
    }

    @Test
    void aCorruptChunkFailsTheReadNamingItsKeyAndKeepsNoMemory() throws Exception {
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            Store store = zarr.openStore("memory:");
            assertACorruptChunkFailsTheRead(store, written(zarr, store, values()), "a/c/3/2");
        }
    }

    /**
     * Flips a byte of the chunk at {@code key}; then a whole read of {@code a}, with the
     * allocation instant and slow, fails naming the key, and keeps no pooled memory.
     */
    private static void assertACorruptChunkFailsTheRead(Store store, ZarrArray a, String key) throws Exception {
        ByteBuffer stored = store.get(StoreKey.of(key)).orElseThrow();
        byte[] bad = new byte[stored.remaining()];
        stored.get(bad);
        bad[100] ^= 1;
        store.set(StoreKey.of(key), ByteBuffer.wrap(bad));
        ChunkReader reader = reader(a);
        long lent = BufferLease.outstanding();
        long pooled = ChunkBuffers.bytesInUse();
        long[] shape = a.shape();
        for (int millis : new int[] {0, 20}) {
            ChunkDecodeException e = assertThrows(ChunkDecodeException.class, () -> reader.readNew(new long[2], shape,
                    () -> {
                        sleep(millis);
                        return NdArray.allocate(DataTypes.INT32, shape);
                    }));
            assertTrue(e.getMessage().contains(key), e.getMessage());
        }
        assertEquals(lent, BufferLease.outstanding(), "pooled buffers lent and not given back");
        assertEquals(pooled, ChunkBuffers.bytesInUse(), "pooled memory in use");
    }

    @Test
    void aFailedAllocationKeepsNoMemoryAndComesBack() throws Exception {
        int[] all = values();
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            ZarrArray a = written(zarr, zarr.openStore("memory:"), all);
            ChunkReader reader = reader(a);
            long lent = BufferLease.outstanding();
            long pooled = ChunkBuffers.bytesInUse();
            InsufficientMemoryException refused = new InsufficientMemoryException("the region", 1L << 40, null);
            for (int round = 0; round < 5; round++) {
                assertSame(refused, assertThrows(InsufficientMemoryException.class,
                        () -> reader.readNew(new long[2], SHAPE, () -> {
                            sleep(20); // chunks park meanwhile
                            throw refused;
                        })));
            }
            assertEquals(lent, BufferLease.outstanding(), "pooled buffers lent and not given back");
            assertEquals(pooled, ChunkBuffers.bytesInUse(), "pooled memory in use");
        }
    }

    /** Rows of 1,024 int32 in one chunk of {@link #largeChunks}: just more than it parks decoded. */
    private static final long LARGE_ROWS = ChunkReader.PARK_BUDGET / 4 / 4096 + 1;

    /**
     * int32 [3 * LARGE_ROWS, 1024] in chunks of [LARGE_ROWS, 1024], each too large to park
     * decoded; element (i, j) is {@code i * 1024 + j}, but for the absent middle chunk (fill 7).
     */
    private static ZarrArray largeChunks(Zarr zarr, Store store) {
        long[] shape = {3 * LARGE_ROWS, 1024};
        ZarrArray a = zarr.array(DataTypes.INT32, shape).chunks(LARGE_ROWS, 1024).codecs(CHAIN).fillValue(FILL)
                .create(store, "/big");
        int[] v = new int[(int) (shape[0] * shape[1])];
        for (int i = 0; i < v.length; i++) {
            v[i] = i;
        }
        a.write(new long[2], NdArray.copyOf(DataTypes.INT32, v, shape));
        store.erase(StoreKey.of("big/c/1/0"));
        return a;
    }

    private static void assertLargeChunksRegion(long[] offset, NdArray got) {
        long[] extent = got.shape();
        int[] values = got.toIntArray();
        int k = 0;
        for (long i = offset[0]; i < offset[0] + extent[0]; i++) {
            for (long j = offset[1]; j < offset[1] + extent[1]; j++, k++) {
                int want = i / LARGE_ROWS == 1 ? FILL : (int) (i * 1024 + j);
                if (values[k] != want) {
                    throw new AssertionError("element (" + i + ", " + j + ") of a region at "
                            + java.util.Arrays.toString(offset) + ": " + values[k] + ", expected " + want);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 20})
    void chunksTooLargeToParkDecodedAreFetchedAsideAndComeOutRight(int allocationMillis) throws Exception {
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            ZarrArray a = largeChunks(zarr, zarr.openStore("memory:"));
            ChunkReader reader = reader(a);
            long lent = BufferLease.outstanding();
            long pooled = ChunkBuffers.bytesInUse();
            long parkedBefore = PendingResult.parkedSoFar();
            long[][] regions = {{0, 0, 3 * LARGE_ROWS, 1024}, {5, 3, 3 * LARGE_ROWS - 9, 1020}};
            for (long[] r : regions) {
                long[] offset = {r[0], r[1]};
                long[] extent = {r[2], r[3]};
                assertEquals(ChunkReader.SetAside.FETCHED, reader.setAside(offset, extent));
                for (int round = 0; round < 3; round++) {
                    assertLargeChunksRegion(offset, reader.readNew(offset, extent, () -> {
                        sleep(allocationMillis);
                        return NdArray.allocate(DataTypes.INT32, extent);
                    }));
                }
            }
            if (allocationMillis > 0) {
                assertTrue(PendingResult.parkedSoFar() > parkedBefore, "chunks were fetched aside while allocating");
            }
            assertEquals(lent, BufferLease.outstanding(), "pooled buffers lent and not given back");
            assertEquals(pooled, ChunkBuffers.bytesInUse(), "pooled memory in use");
        }
    }

    @Test
    void aCorruptChunkFetchedAsideFailsTheReadNamingItsKeyAndKeepsNoMemory() throws Exception {
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            Store store = zarr.openStore("memory:");
            assertACorruptChunkFailsTheRead(store, largeChunks(zarr, store), "big/c/2/0");
        }
    }

    private static void sleep(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
