package dev.zarrj.codec.sharding.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.api.NdArray;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code Zarr.builder().coalesceGap(n)} inside a shard: the inner chunks a region needs are merged
 * into one request only as far as the gap allows; and an uncompressed inner chunk larger than the
 * shard reader reads whole (1 MiB) is read in part through the {@code bytes} codec's partial
 * decoder, whose strided runs are ranges of the shard; runs closer than the gap cost one request.
 *
 * <p>One shard of 512 × 1280 int32 with inner chunks of 512 × 640 (1.3 MB, uncompressed, index at
 * the end); two columns of rows 0..99 of the first inner chunk are 100 runs of 8 bytes, 2552
 * bytes apart.
 */
class ShardCoalescingTest {
    private static final int ROWS = 512;
    private static final int COLS = 1280;
    private static final int READ_ROWS = 100;
    private static final String CODECS = "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[512,640],"
            + "\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}],"
            + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}]}}]";

    private static int[] values() {
        int[] v = new int[ROWS * COLS];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 11 + 2;
        }
        return v;
    }

    /** Reads the two columns and checks them; the store's requests and bytes are left counted. */
    private static void readColumns(Zarr zarr, CountingStore store) {
        ZarrArray a = zarr.array(DataTypes.INT32, ROWS, COLS).chunks(ROWS, COLS).codecs(CODECS).fillValue(0)
                .create(store, "/a");
        int[] v = values();
        a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, v, ROWS, COLS));
        store.take();
        int[] got = a.read(new long[] {0, 10}, new long[] {READ_ROWS, 2}).toIntArray();
        int[] expected = new int[READ_ROWS * 2];
        for (int r = 0; r < READ_ROWS; r++) {
            expected[2 * r] = v[r * COLS + 10];
            expected[2 * r + 1] = v[r * COLS + 11];
        }
        assertArrayEquals(expected, got);
    }

    @Test
    void runsCloserThanTheGapCostOneRequest() {
        try (Zarr zarr = Zarr.builder().threads(2).build()) {
            CountingStore store = new CountingStore(zarr.openStore("memory:"));
            readColumns(zarr, store);
            assertEquals(2, store.requests.get(), "the index, then the 100 runs in one request");
            long index = 2 * 2 * 8 + 4; // 2 inner chunks × (offset, nbytes), crc32c
            assertEquals(index + (READ_ROWS - 1) * 640L * 4 + 8, store.bytes.get(), "from the first run to the end of the last");
        }
    }

    @Test
    void runsFartherApartThanTheGapAreRequestedSeparately() {
        try (Zarr zarr = Zarr.builder().threads(2).coalesceGap(2000).build()) {
            CountingStore store = new CountingStore(zarr.openStore("memory:"));
            readColumns(zarr, store);
            assertEquals(1 + READ_ROWS, store.requests.get(), "the index, then one request per run");
            assertEquals(2 * 2 * 8 + 4 + READ_ROWS * 8L, store.bytes.get(), "only the runs' bytes");
        }
    }

    private static final String GRID_CODECS = "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[64,64],"
            + "\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}],"
            + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}]}}]";

    /**
     * The inner chunks a region needs are asked of the source range by range, and the source
     * merges them as the gap says: one shard of 128 × 128 int32 on a file store, inner chunks of
     * 64 × 64 (16 KiB) stored in C order; the left column of inner chunks is inner chunks 0 and 2,
     * with inner chunk 1 between them in the file. With a gap below 16 KiB they cost two requests
     * and only their own bytes; with the default gap (64 KiB), one request that also reads inner
     * chunk 1. Either way the file store reads them into the memory the read lends.
     */
    @ParameterizedTest(name = "coalesceGap {0}")
    @CsvSource({"0, 2, 2", "16383, 2, 2", "16384, 1, 3", "65536, 1, 3"})
    void innerChunksAreMergedOnlyWithinTheGap(long gap, int dataRequests, int innerChunksRead, @TempDir Path dir) {
        try (Zarr zarr = Zarr.builder().threads(2).coalesceGap(gap).build()) {
            CountingStore store = new CountingStore(zarr.openStore(dir.toString()));
            ZarrArray a = zarr.array(DataTypes.INT32, 128, 128).chunks(128, 128).codecs(GRID_CODECS).fillValue(0)
                    .create(store, "/a");
            int[] v = new int[128 * 128];
            for (int i = 0; i < v.length; i++) {
                v[i] = i * 7 - 3;
            }
            a.write(new long[] {0, 0}, NdArray.copyOf(DataTypes.INT32, v, 128, 128));
            store.take();
            int[] got = a.read(new long[] {0, 0}, new long[] {128, 64}).toIntArray();
            int[] expected = new int[128 * 64];
            for (int r = 0; r < 128; r++) {
                System.arraycopy(v, r * 128, expected, r * 64, 64);
            }
            assertArrayEquals(expected, got);
            assertEquals(1 + dataRequests, store.requests.get(), "the index, then the inner chunks");
            long index = 4 * 2 * 8 + 4; // 4 inner chunks × (offset, nbytes), crc32c
            assertEquals(index + innerChunksRead * 64L * 64 * 4, store.bytes.get(), "bytes read");
            assertEquals(dataRequests, store.intoLent.get(), "inner chunk ranges read into lent memory");
        }
    }
}
