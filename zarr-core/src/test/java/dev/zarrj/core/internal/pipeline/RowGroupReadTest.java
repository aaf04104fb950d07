package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Region reads cut along chunk boundaries whose chunks lie several across the last dimension:
 * each chunk is decoded whole into reused memory and the chunks side by side are copied into the
 * result together, row after row ({@link RowGroup}). Every element comes out right, whether the
 * chunks are compressed-like ({@code crc32c}) or only copied ({@code bytes}), of rank 2 to 4, cut
 * short by the array's end or absent (read as the fill value, also into an array that does not
 * hold zeros), on one thread or several; nothing pooled is kept; a chunk of the wrong size fails
 * naming its key.
 */
class RowGroupReadTest {
    private static final String CRC = "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
            + "{\"name\":\"crc32c\"}]";
    private static final String BYTES = "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]";

    static Stream<Arguments> layouts() {
        return Stream.of(
                Arguments.of(CRC, new long[] {300, 1000}, new long[] {64, 128}),
                Arguments.of(BYTES, new long[] {300, 1000}, new long[] {64, 128}),
                Arguments.of(CRC, new long[] {20, 70, 90}, new long[] {8, 16, 32}),
                Arguments.of(BYTES, new long[] {3, 5, 40, 50}, new long[] {2, 2, 8, 16}));
    }

    /** Element i (C order) of the written array. */
    private static int value(long i) {
        return (int) (i * 31 + 5);
    }

    /** Writes every element, then erases every third chunk (by the sum of its grid coordinates). */
    private static ZarrArray written(Zarr zarr, Store store, String chain, long[] shape, long[] chunks, int fill) {
        ZarrArray a = zarr.array(DataTypes.INT32, shape).chunks(chunks).codecs(chain).fillValue(fill).create(store, "/a");
        int[] all = new int[(int) count(shape)];
        for (int i = 0; i < all.length; i++) {
            all[i] = value(i);
        }
        a.write(new long[shape.length], NdArray.copyOf(DataTypes.INT32, all, shape));
        long[] grid = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            grid[d] = (shape[d] + chunks[d] - 1) / chunks[d];
        }
        for (long c = 0; c < count(grid); c++) {
            long[] coords = unravel(c, grid);
            if (Arrays.stream(coords).sum() % 3 == 1) {
                StringBuilder key = new StringBuilder("a/c");
                for (long x : coords) {
                    key.append('/').append(x);
                }
                assertTrue(store.get(StoreKey.of(key.toString())).isPresent(), key::toString);
                store.erase(StoreKey.of(key.toString()));
            }
        }
        return a;
    }

    private static long count(long[] shape) {
        return Arrays.stream(shape).reduce(1, Math::multiplyExact);
    }

    private static long[] unravel(long i, long[] shape) {
        long[] at = new long[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            at[d] = i % shape[d];
            i /= shape[d];
        }
        return at;
    }

    /** Checks each element of {@code got}, the region at {@code offset} of the array {@link #written} wrote. */
    private static void assertRegion(long[] shape, long[] chunks, int fill, long[] offset, NdArray got) {
        long[] extent = got.shape();
        int[] values = got.toIntArray();
        for (int k = 0; k < values.length; k++) {
            long[] in = unravel(k, extent);
            long flat = 0;
            long chunkSum = 0;
            for (int d = 0; d < shape.length; d++) {
                long x = offset[d] + in[d];
                flat = flat * shape[d] + x;
                chunkSum += x / chunks[d];
            }
            int want = chunkSum % 3 == 1 ? fill : value(flat);
            if (values[k] != want) {
                throw new AssertionError("element " + Arrays.toString(in) + " of the region at " + Arrays.toString(offset)
                        + ": " + values[k] + ", expected " + want);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void everyElementOfRegionsCutAlongChunkBoundariesComesOutRight(String chain, long[] shape, long[] chunks)
            throws Exception {
        for (int threads : new int[] {1, 2, 4}) {
            for (int fill : new int[] {0, 7}) {
                try (Zarr zarr = Zarr.builder().threads(threads).build()) {
                    ZarrArray a = written(zarr, zarr.openStore("memory:"), chain, shape, chunks, fill);
                    ChunkReader reader = LargeRegionReadTest.reader(a);
                    long lent = BufferLease.outstanding();
                    long pooled = ChunkBuffers.bytesInUse();
                    long copied = RowGroup.copiedSoFar();
                    // The whole array, and a block from the second chunk on each axis to the array's end.
                    long[] zero = new long[shape.length];
                    long[] second = chunks.clone();
                    long[] rest = new long[shape.length];
                    for (int d = 0; d < shape.length; d++) {
                        rest[d] = shape[d] - chunks[d];
                    }
                    for (long[][] r : new long[][][] {{zero, shape}, {second, rest}}) {
                        String what = threads + " threads, fill " + fill + ", region at " + Arrays.toString(r[0]);
                        assertTrue(reader.readsRowGroups(r[0], r[1]), what);
                        assertRegion(shape, chunks, fill, r[0], a.read(r[0], r[1]));
                        // Into an array holding something else than zeros: absent chunks are filled.
                        int[] minusThree = new int[(int) count(r[1])];
                        Arrays.fill(minusThree, -3);
                        NdArray dirty = NdArray.copyOf(DataTypes.INT32, minusThree, r[1]);
                        reader.read(r[0], dirty, false);
                        assertRegion(shape, chunks, fill, r[0], dirty);
                    }
                    assertTrue(RowGroup.copiedSoFar() > copied, "row groups were copied");
                    assertEquals(lent, BufferLease.outstanding(), "pooled buffers lent and not given back");
                    assertEquals(pooled, ChunkBuffers.bytesInUse(), "pooled memory in use");
                }
            }
        }
    }

    @Test
    void regionsNotCutAlongChunkBoundariesAndChunksAloneAcrossAreReadChunkByChunk() throws Exception {
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            Store store = zarr.openStore("memory:");
            ChunkReader reader = LargeRegionReadTest.reader(written(zarr, store, CRC, new long[] {300, 1000},
                    new long[] {64, 128}, 0));
            assertTrue(reader.readsRowGroups(new long[] {64, 0}, new long[] {236, 1000}));
            assertFalse(reader.readsRowGroups(new long[] {1, 0}, new long[] {200, 1000}), "cut inside a chunk");
            assertFalse(reader.readsRowGroups(new long[] {0, 0}, new long[] {64, 127}), "cut inside a chunk");
            assertFalse(reader.readsRowGroups(new long[] {0, 128}, new long[] {300, 128}), "one chunk across");
            String bigEndian = "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}},{\"name\":\"crc32c\"}]";
            ZarrArray swapped = zarr.array(DataTypes.INT32, 300, 1000).chunks(64, 128).codecs(bigEndian)
                    .create(store, "/swapped");
            assertFalse(LargeRegionReadTest.reader(swapped).readsRowGroups(new long[2], new long[] {300, 1000}),
                    "chunks decoded with their bytes swapped");
            ZarrArray flat = zarr.array(DataTypes.INT32, 300, 1000).chunks(1, 128).codecs(CRC).create(store, "/flat");
            assertFalse(LargeRegionReadTest.reader(flat).readsRowGroups(new long[2], new long[] {300, 1000}),
                    "chunks of one row, each decoded straight into the result");
        }
    }

    @Test
    void aStoredChunkOfTheWrongSizeFailsTheReadNamingItsKeyAndKeepsNoMemory() throws Exception {
        for (String chain : new String[] {BYTES, CRC}) {
            try (Zarr zarr = Zarr.builder().threads(2).build()) {
                Store store = zarr.openStore("memory:");
                long[] shape = {300, 1000};
                ZarrArray a = written(zarr, store, chain, shape, new long[] {64, 128}, 0);
                ByteBuffer stored = store.get(StoreKey.of("a/c/2/3")).orElseThrow();
                store.set(StoreKey.of("a/c/2/3"), stored.slice(0, stored.remaining() - 4));
                long lent = BufferLease.outstanding();
                long pooled = ChunkBuffers.bytesInUse();
                ChunkDecodeException e = assertThrows(ChunkDecodeException.class, a::read, chain);
                assertTrue(e.getMessage().contains("a/c/2/3"), e.getMessage());
                assertEquals(lent, BufferLease.outstanding(), "pooled buffers lent and not given back");
                assertEquals(pooled, ChunkBuffers.bytesInUse(), "pooled memory in use");
            }
        }
    }
}
