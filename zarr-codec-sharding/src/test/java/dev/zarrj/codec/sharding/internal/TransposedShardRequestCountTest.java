package dev.zarrj.codec.sharding.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A {@code transpose} in a chain with sharding no longer turns off partial reads (issue 13):
 * through zarr-core's pipeline and a store that counts requests and bytes ({@link CountingStore}),
 * a region inside one inner chunk costs the index request and one request for that inner chunk
 * (or part of it), never a read of the whole shard or of a whole large inner chunk.
 */
class TransposedShardRequestCountTest {
    private static final Zarr ZARR = Zarr.builder().threads(4).build();
    private static final String LE = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
    private static final String TRANSPOSE = "{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}}";

    @AfterAll
    static void close() {
        ZARR.close();
    }

    private static String sharding(long[] chunkShape, String codecs, String location) {
        return "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[" + chunkShape[0] + ","
                + chunkShape[1] + "],\"codecs\":[" + codecs + "],\"index_codecs\":[" + LE
                + ",{\"name\":\"crc32c\"}],\"index_location\":\"" + location + "\"}}";
    }

    private record Fixture(CountingStore store, ZarrArray array, short[] values, long[] shape) {}

    /** A 2-d int16 array in one chunk per {@code chunks}, every element set (none is the fill value). */
    private static Fixture fixture(Path dir, long[] shape, long[] chunks, String codecs) {
        CountingStore store = new CountingStore(ZARR.openStore(dir.toString()));
        ZarrArray a = ZARR.array(DataTypes.INT16, shape).chunks(chunks).codecs("[" + codecs + "]").fillValue(0)
                .create(store, "/a");
        short[] v = new short[Math.toIntExact(shape[0] * shape[1])];
        for (int i = 0; i < v.length; i++) {
            v[i] = (short) (1 + (i * 7919L) % 30000);
        }
        a.write(NdArray.copyOf(DataTypes.INT16, v, shape));
        store.take();
        return new Fixture(store, ZARR.openArray(store, "/a"), v, shape);
    }

    /** Reads a region, checks its values, and returns the requests it cost (and leaves the bytes in the store). */
    private static int readCost(Fixture f, long[] offset, long[] extent) {
        f.store.take();
        short[] got = f.array.read(offset, extent).toShortArray();
        int requests = f.store.requests.get();
        short[] want = new short[Math.toIntExact(extent[0] * extent[1])];
        for (int r = 0; r < extent[0]; r++) {
            for (int c = 0; c < extent[1]; c++) {
                want[Math.toIntExact(r * extent[1] + c)] =
                        f.values[Math.toIntExact((offset[0] + r) * f.shape[1] + offset[1] + c)];
            }
        }
        assertArrayEquals(want, got, "values of " + Arrays.toString(extent) + " at " + Arrays.toString(offset));
        return requests;
    }

    /**
     * Codecs {@code [transpose, sharding_indexed]}: the transpose asks the shard for the transposed
     * region, so one inner chunk costs the index and that inner chunk, as without the transpose.
     * Before issue 13 the whole shard was read (one request of all its bytes).
     */
    @ParameterizedTest(name = "index at the {0}")
    @CsvSource({"end", "start"})
    void transposeThenShardingReadsOneInnerChunk(String location, @TempDir Path dir) {
        // 16×16 array, 8×8 shards, 2×2 inner chunks: a shard is 128 elements = 256 bytes of inner chunks.
        Fixture f = fixture(dir, new long[] {16, 16}, new long[] {8, 8},
                TRANSPOSE + "," + sharding(new long[] {2, 2}, LE, location));
        assertEquals(2, readCost(f, new long[] {2, 4}, new long[] {2, 2}), "exactly one inner chunk");
        assertEquals(0, f.store.wholeGets.get(), "no read of a whole shard");
        assertEquals(2, readCost(f, new long[] {3, 5}, new long[] {1, 1}), "one element");
        assertEquals(0, f.store.wholeGets.get(), "no read of a whole shard");
        assertEquals(2, readCost(f, new long[] {10, 8}, new long[] {2, 8}), "a column of inner chunks once transposed");
        assertEquals(1, readCost(f, new long[] {8, 8}, new long[] {8, 8}), "a whole shard: one read");
    }

    /**
     * Sharding whose inner codecs are {@code [transpose, bytes]}: one inner chunk costs the index
     * and that inner chunk; and part of a large inner chunk (more than {@value ShardReader#READ_WHOLE_UP_TO}
     * bytes) is read partially through the transpose, a few bytes rather than the whole inner chunk.
     */
    @ParameterizedTest(name = "index at the {0}")
    @CsvSource({"end", "start"})
    void shardingWithTransposedInnerChunksReadsOneInnerChunk(String location, @TempDir Path dir) {
        Fixture small = fixture(dir.resolve("small"), new long[] {16, 16}, new long[] {8, 8},
                sharding(new long[] {2, 2}, TRANSPOSE + "," + LE, location));
        assertEquals(2, readCost(small, new long[] {2, 4}, new long[] {2, 2}), "exactly one inner chunk");
        assertEquals(2, readCost(small, new long[] {3, 5}, new long[] {1, 1}), "one element");

        // One shard of two 1024×1024 inner chunks, 2 MiB each.
        Fixture large = fixture(dir.resolve("large"), new long[] {1024, 2048}, new long[] {1024, 2048},
                sharding(new long[] {1024, 1024}, TRANSPOSE + "," + LE, location));
        assertEquals(2, readCost(large, new long[] {5, 1033}, new long[] {2, 1}), "two elements of one inner chunk");
        assertTrue(large.store.bytes.get() < 1024, "the index and the elements, not the 2 MiB inner chunk: "
                + large.store.bytes.get() + " bytes");
        assertEquals(2, readCost(large, new long[] {0, 100}, new long[] {1024, 1}), "a column: a stored row");
        assertTrue(large.store.bytes.get() < 4096, "the index and the column, not the 2 MiB inner chunk: "
                + large.store.bytes.get() + " bytes");
    }

    /**
     * A shard whose inner chunks are shards behind a transpose (inner codecs
     * {@code [transpose, sharding_indexed]}), large enough to be worth reading in part: one
     * innermost chunk costs the outer index, the nested index and that chunk. Before issue 13 the
     * transpose made the whole 2 MiB nested shard be read.
     */
    @ParameterizedTest(name = "index at the {0}")
    @CsvSource({"end", "start"})
    void shardingOverTransposedNestedShardsReadsInPart(String location, @TempDir Path dir) {
        String nested = sharding(new long[] {32, 32}, LE, location);
        Fixture f = fixture(dir, new long[] {1024, 2048}, new long[] {1024, 2048},
                sharding(new long[] {1024, 1024}, TRANSPOSE + "," + nested, location));
        // The nested index: 32×32 entries of 16 bytes plus a checksum, read whole.
        long nestedIndex = 32 * 32 * 16 + 4;
        assertEquals(3, readCost(f, new long[] {32, 1056}, new long[] {32, 32}), "one innermost chunk");
        long innermost = 32 * 32 * 2;
        assertTrue(f.store.bytes.get() <= 64 + nestedIndex + innermost, "outer index, nested index, one chunk: "
                + f.store.bytes.get() + " bytes");
        assertEquals(3, readCost(f, new long[] {70, 1030}, new long[] {3, 2}), "part of one innermost chunk");
        assertTrue(f.store.bytes.get() <= 64 + nestedIndex + innermost, "outer index, nested index, one chunk: "
                + f.store.bytes.get() + " bytes");
        assertEquals(2, readCost(f, new long[] {0, 1024}, new long[] {1024, 1024}), "a whole nested shard");
    }
}
