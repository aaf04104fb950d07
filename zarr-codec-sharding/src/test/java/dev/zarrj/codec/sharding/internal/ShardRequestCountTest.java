package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.Region;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What reads cost in store requests, counted by a wrapper around the file store (each ranged read
 * and each range of {@code getPartialValues} is one request): a single inner chunk, or part of one,
 * costs two (the index, then the chunk); so do neighbouring inner chunks; a whole shard costs one.
 *
 * <p>Array 16×16 int16, shards 8×8, inner chunks 2×2: a 4×4 grid of inner chunks per shard.
 */
class ShardRequestCountTest {
    private static final Zarr ZARR = Zarr.builder().threads(4).build();

    @AfterAll
    static void close() {
        ZARR.close();
    }

    private static String codecs(String location, boolean gzip) {
        String le = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
        String inner = gzip ? le + ",{\"name\":\"gzip\",\"configuration\":{\"level\":1}}" : le;
        return "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[2,2],\"codecs\":[" + inner
                + "],\"index_codecs\":[" + le + ",{\"name\":\"crc32c\"}],\"index_location\":\"" + location + "\"}}]";
    }

    private record Fixture(CountingStore store, ZarrArray array, NdArray data) {}

    private static Fixture fixture(Path dir, String location, boolean gzip) {
        CountingStore store = new CountingStore(ZARR.openStore(dir.toString()));
        ZarrArray a = ZARR.array(DataTypes.INT16, 16, 16).chunks(8, 8).codecs(codecs(location, gzip))
                .fillValue(0).create(store, "/a");
        short[] v = new short[256];
        Random rnd = new Random(7);
        for (int i = 0; i < v.length; i++) {
            v[i] = (short) (1 + rnd.nextInt(30000));
        }
        NdArray data = NdArray.copyOf(DataTypes.INT16, v, 16, 16);
        a.write(data);
        ZarrArray reopened = ZARR.openArray(store, "/a");
        store.take();
        return new Fixture(store, reopened, data);
    }

    private static int readCost(Fixture f, long[] offset, long[] shape) {
        f.store.take();
        NdArray got = f.array.read(offset, shape);
        int cost = f.store.requests.get();
        assertTrue(got.contentEquals(f.data.region(Region.of(offset, shape))), "values of region " + java.util.Arrays.toString(offset));
        return cost;
    }

    @ParameterizedTest(name = "index at the {0}, gzip inner chunks: {1}")
    @CsvSource({"end, false", "start, false", "end, true", "start, true"})
    void oneInnerChunkCostsTwoRequests(String location, boolean gzip, @TempDir Path dir) {
        Fixture f = fixture(dir, location, gzip);
        assertEquals(2, readCost(f, new long[] {2, 2}, new long[] {2, 2}), "exactly inner chunk (1, 1)");
        assertEquals(2, readCost(f, new long[] {3, 2}, new long[] {1, 1}), "one element of it");
        assertEquals(2, readCost(f, new long[] {14, 14}, new long[] {2, 2}), "the last inner chunk of the last shard");
    }

    @ParameterizedTest(name = "index at the {0}, gzip inner chunks: {1}")
    @CsvSource({"end, false", "start, false", "end, true", "start, true"})
    void neighbouringInnerChunksCostTwoRequests(String location, boolean gzip, @TempDir Path dir) {
        Fixture f = fixture(dir, location, gzip);
        assertEquals(2, readCost(f, new long[] {2, 0}, new long[] {2, 8}), "a row of 4 inner chunks");
        assertEquals(2, readCost(f, new long[] {2, 2}, new long[] {2, 6}), "3 inner chunks of a row");
        assertEquals(2, readCost(f, new long[] {2, 2}, new long[] {4, 4}), "a 2x2 block (ranges a small gap apart)");
        assertEquals(2, readCost(f, new long[] {1, 1}, new long[] {5, 6}), "parts of 3x4 inner chunks");
    }

    @ParameterizedTest(name = "index at the {0}, gzip inner chunks: {1}")
    @CsvSource({"end, false", "start, false", "end, true", "start, true"})
    void aWholeShardCostsOneRequest(String location, boolean gzip, @TempDir Path dir) {
        Fixture f = fixture(dir, location, gzip);
        assertEquals(1, readCost(f, new long[] {8, 0}, new long[] {8, 8}));
        f.store.take();
        f.array.read();
        assertEquals(4, f.store.wholeGets.get(), "the whole array: one get per shard");
        assertEquals(4, f.store.requests.get());
        assertEquals(8, readCost(f, new long[] {6, 6}, new long[] {4, 4}), "a corner of each of four shards: two each");
    }

    @ParameterizedTest(name = "index at the {0}")
    @CsvSource({"end", "start"})
    void anAbsentShardCostsOneRequestAndReadsAsFill(String location, @TempDir Path dir) {
        CountingStore store = new CountingStore(ZARR.openStore(dir.toString()));
        ZarrArray a = ZARR.array(DataTypes.INT16, 16, 16).chunks(8, 8).codecs(codecs(location, false))
                .fillValue(-3).create(store, "/a");
        a.write(new long[] {0, 0}, new long[] {1, 1}, new short[] {5});
        store.take();
        NdArray got = a.read(new long[] {10, 10}, new long[] {2, 3});
        assertEquals(1, store.take());
        for (long i = 0; i < got.elementCount(); i++) {
            assertEquals(-3, got.getLong(i));
        }
        got = a.read(new long[] {2, 2}, new long[] {2, 2});
        assertEquals(1, store.take(), "an empty inner chunk of a present shard: the index only");
        assertEquals(-3, got.getLong(0));
        got = a.read(new long[] {0, 0}, new long[] {1, 2});
        assertEquals(2, store.take());
        assertEquals(5, got.getLong(0));
        assertEquals(-3, got.getLong(1));
    }

    private static String nestedCodecs(String location, long[] outer, long[] nested) {
        String le = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
        String inner = "{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[" + nested[0] + ","
                + nested[1] + "],\"codecs\":[" + le + "],\"index_codecs\":[" + le + "],\"index_location\":\""
                + location + "\"}}";
        return "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[" + outer[0] + "," + outer[1]
                + "],\"codecs\":[" + inner + "],\"index_codecs\":[" + le + "],\"index_location\":\"" + location
                + "\"}}]";
    }

    private static Fixture nested(Path dir, String location, long[] shape, long[] outer, long[] nested) {
        CountingStore store = new CountingStore(ZARR.openStore(dir.toString()));
        ZarrArray a = ZARR.array(DataTypes.INT16, shape).chunks(shape).codecs(nestedCodecs(location, outer, nested))
                .fillValue(0).create(store, "/a");
        short[] v = new short[Math.toIntExact(shape[0] * shape[1])];
        for (int i = 0; i < v.length; i++) {
            v[i] = (short) (1 + i % 30000);
        }
        NdArray data = NdArray.copyOf(DataTypes.INT16, v, shape);
        a.write(data);
        return new Fixture(store, a, data);
    }

    /**
     * An inner chunk that is itself a shard, of more than {@value ShardReader#READ_WHOLE_UP_TO} bytes, is
     * read in part: the outer index, its index, then its touched inner chunk — three requests, not
     * a read of the whole 2 MiB nested shard.
     */
    @ParameterizedTest(name = "index at the {0}")
    @CsvSource({"end", "start"})
    void aLargeNestedShardIsReadInPart(String location, @TempDir Path dir) {
        Fixture f = nested(dir, location, new long[] {1024, 2048}, new long[] {1024, 1024}, new long[] {32, 32});
        assertEquals(3, readCost(f, new long[] {96, 1056}, new long[] {32, 32}), "one innermost chunk");
        assertTrue(f.store.bytes.get() < 32 * 1024, f.store.bytes.get() + " bytes: two indexes and one 2 KiB chunk");
        assertEquals(3, readCost(f, new long[] {96, 1024}, new long[] {32, 256}), "a row of innermost chunks");
        assertEquals(2, readCost(f, new long[] {0, 1024}, new long[] {1024, 1024}), "a whole nested shard: outer index + it");
    }

    /**
     * A small nested shard is read whole with the other touched inner chunks: one more request
     * would cost more than the few bytes it saves, so it costs two requests like any inner chunk.
     */
    @ParameterizedTest(name = "index at the {0}")
    @CsvSource({"end", "start"})
    void aSmallNestedShardIsReadWhole(String location, @TempDir Path dir) {
        Fixture f = nested(dir, location, new long[] {16, 16}, new long[] {8, 8}, new long[] {2, 2});
        assertEquals(2, readCost(f, new long[] {10, 12}, new long[] {2, 2}), "one innermost chunk");
        assertEquals(2, readCost(f, new long[] {10, 8}, new long[] {2, 8}), "a row of innermost chunks");
        assertEquals(2, readCost(f, new long[] {6, 6}, new long[] {4, 4}), "parts of four nested shards");
        assertEquals(2, readCost(f, new long[] {8, 8}, new long[] {8, 8}), "a whole nested shard: outer index + it");
    }
}
