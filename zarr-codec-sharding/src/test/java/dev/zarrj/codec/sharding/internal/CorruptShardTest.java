package dev.zarrj.codec.sharding.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad shards read through zarr-core: each is a {@link ChunkDecodeException} naming the store key,
 * whose message names the inner chunk (or the shard index) — never an out-of-bounds exception or a
 * wrong value. Each case is read whole (the codec sees the whole value) and in part (ranged reads
 * of a value whose size the codec does not know).
 *
 * <p>Array 4×4 int16 in one shard, inner chunks 2×2 stored with {@code bytes} (8 bytes each),
 * index with {@code bytes} (64 bytes) unless a case needs a checksum.
 */
class CorruptShardTest {
    private static final Zarr ZARR = Zarr.builder().threads(2).build();
    private static final String LE = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
    private static final String CRC = "{\"name\":\"crc32c\"}";
    private static final long E = -1L;

    @AfterAll
    static void close() {
        ZARR.close();
    }

    private record Fixture(Store store, ZarrArray array, StoreKey key) {}

    private static Fixture fixture(Store store, String location, String indexCodecs, String innerCodecs) {
        ZarrArray a = ZARR.array(DataTypes.INT16, 4, 4).chunks(4, 4).codecs("[{\"name\":\"sharding_indexed\","
                + "\"configuration\":{\"chunk_shape\":[2,2],\"codecs\":[" + innerCodecs + "],\"index_codecs\":["
                + indexCodecs + "],\"index_location\":\"" + location + "\"}}]").fillValue(0).create(store, "/a");
        return new Fixture(store, a, StoreKey.of(a.chunkKey(0, 0)));
    }

    private static Fixture fixture(String location) {
        return fixture(ZARR.openStore("memory:"), location, LE, LE);
    }

    /** A shard with 32 data bytes (four 8-byte inner chunks' worth) and the given raw index. */
    private static ByteBuffer shard(String location, long... entries) {
        ByteBuffer index = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        index.asLongBuffer().put(entries);
        byte[] data = new byte[32];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i % 2 == 0 ? i / 2 + 1 : 0);
        }
        ByteBuffer out = ByteBuffer.allocate(96);
        if (location.equals("start")) {
            out.put(index).put(data);
        } else {
            out.put(data).put(index);
        }
        return out.flip();
    }

    private static ChunkDecodeException fails(Runnable read, Fixture f, String... mentions) {
        ChunkDecodeException e = assertThrows(ChunkDecodeException.class, read::run);
        assertInstanceOf(CorruptDataException.class, e.getCause(), e.getMessage());
        assertTrue(e.getMessage().contains(f.key.value()), e.getMessage());
        for (String m : mentions) {
            assertTrue(e.getMessage().contains(m), "'" + m + "' in: " + e.getMessage());
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            assertTrue(!(t instanceof IndexOutOfBoundsException), "no out-of-bounds exception: " + e);
        }
        return e;
    }

    /** Reads the whole shard, then the inner chunk (1, 1) alone, then one element of inner chunk (0, 1). */
    private static void bothPaths(Fixture f, String whole, String part) {
        fails(() -> f.array.read(), f, whole);
        fails(() -> f.array.read(new long[] {2, 2}, new long[] {2, 2}), f, part);
    }

    @ParameterizedTest
    @ValueSource(strings = {"start", "end"})
    void aValidHandBuiltShardReads(String location) {
        Fixture f = fixture(location);
        long base = location.equals("start") ? 64 : 0;
        f.store.set(f.key, shard(location, base, 8, E, E, base + 16, 8, base + 24, 8));
        short[] got = f.array.read().toShortArray();
        assertArrayEquals(new short[] {1, 2, 0, 0, 3, 4, 0, 0, 9, 10, 13, 14, 11, 12, 15, 16}, got);
    }

    @ParameterizedTest
    @ValueSource(strings = {"start", "end"})
    void aShardShorterThanItsIndex(String location) {
        Fixture f = fixture(location);
        f.store.set(f.key, ByteBuffer.wrap(new byte[10]));
        bothPaths(f, "shorter than its 64-byte index", "shorter than its 64-byte index");
    }

    @ParameterizedTest
    @ValueSource(strings = {"start", "end"})
    void anEntryPointingPastTheEnd(String location) {
        Fixture f = fixture(location);
        long base = location.equals("start") ? 64 : 0;
        f.store.set(f.key, shard(location, base, 8, E, E, base + 16, 8, base + 30, 100));
        bothPaths(f, "inner chunk [1, 1]", "inner chunk [1, 1]");
    }

    @Test
    void aTruncatedShardWithTheIndexFirst() {
        Fixture f = fixture("start");
        f.array.write(new long[] {0, 0}, new long[] {4, 4}, new short[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
        ByteBuffer whole = f.store.get(f.key).orElseThrow();
        f.store.set(f.key, whole.limit(whole.limit() - 3));
        bothPaths(f, "inner chunk [1, 1]", "inner chunk [1, 1]");
    }

    @Test
    void aTruncatedShardWithTheIndexLastFailsItsChecksum() {
        Fixture f = fixture(ZARR.openStore("memory:"), "end", LE + "," + CRC, LE);
        f.array.write(new long[] {0, 0}, new long[] {4, 4}, new short[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
        ByteBuffer whole = f.store.get(f.key).orElseThrow();
        f.store.set(f.key, whole.limit(whole.limit() - 3));
        bothPaths(f, "shard index", "shard index");
    }

    @Test
    void anIndexWhoseChecksumDoesNotMatch() {
        Fixture f = fixture(ZARR.openStore("memory:"), "end", LE + "," + CRC, LE);
        f.array.write(new long[] {0, 0}, new long[] {1, 1}, new short[] {5});
        ByteBuffer b = f.store.get(f.key).orElseThrow();
        b.put(b.limit() - 10, (byte) (b.get(b.limit() - 10) ^ 1));
        f.store.set(f.key, b);
        ChunkDecodeException e = fails(() -> f.array.read(), f, "the shard index is corrupt", "crc32c");
        assertInstanceOf(ChecksumMismatchException.class, e.getCause());
        fails(() -> f.array.read(new long[] {0, 0}, new long[] {1, 1}), f, "the shard index is corrupt");
    }

    @ParameterizedTest
    @ValueSource(strings = {"start", "end"})
    void entriesWithOnlyOneEmptyMarker(String location) {
        Fixture f = fixture(location);
        long base = location.equals("start") ? 64 : 0;
        f.store.set(f.key, shard(location, base, 8, E, E, base + 16, 8, E, 8));
        bothPaths(f, "inner chunk [1, 1]", "only one of offset and nbytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"start", "end"})
    void absurdRanges(String location) {
        long base = location.equals("start") ? 64 : 0;
        long[][] bad = {
                {Long.MAX_VALUE - 4, 8},           // offset + nbytes overflows
                {Long.MIN_VALUE, 8},               // offset beyond 2^63
                {base, Long.MIN_VALUE + 5},        // nbytes beyond 2^63
                {base + 8, 1L << 40},              // nbytes far more than what remains
        };
        for (long[] entry : bad) {
            Fixture f = fixture(location);
            f.store.set(f.key, shard(location, base, 8, E, E, base + 16, 8, entry[0], entry[1]));
            bothPaths(f, "inner chunk [1, 1]", "inner chunk [1, 1]");
        }
    }

    @Test
    void anEntryPointingIntoTheIndexAtTheStart() {
        Fixture f = fixture("start");
        f.store.set(f.key, shard("start", 64, 8, E, E, 80, 8, 8, 8));
        bothPaths(f, "inner chunk [1, 1]", "starts inside the shard index");
    }

    @Test
    void overlappingInnerChunks() {
        Fixture f = fixture("end");
        f.store.set(f.key, shard("end", 0, 8, E, E, 16, 8, 4, 8));
        fails(() -> f.array.read(), f, "inner chunk [0, 0] and inner chunk [1, 1] overlap");
        // Partial writes start from the whole old shard, and refuse it too.
        fails(() -> f.array.write(new long[] {0, 2}, new long[] {1, 1}, new short[] {1}), f, "overlap");
    }

    @Test
    void aCorruptInnerChunkIsNamed() {
        Fixture f = fixture(ZARR.openStore("memory:"), "end", LE, LE + ",{\"name\":\"gzip\",\"configuration\":{\"level\":1}}");
        f.array.write(new long[] {0, 0}, new long[] {4, 4}, new short[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
        ByteBuffer b = f.store.get(f.key).orElseThrow();
        long offset = b.duplicate().order(ByteOrder.LITTLE_ENDIAN).getLong(b.limit() - 16);
        b.put((int) offset, (byte) 0x55); // the gzip magic of inner chunk (1, 1)
        f.store.set(f.key, b);
        bothPaths(f, "inner chunk [1, 1]", "gzip");
        short[] ok = f.array.read(new long[] {0, 0}, new long[] {2, 4}).toShortArray();
        assertArrayEquals(new short[] {1, 2, 3, 4, 5, 6, 7, 8}, ok, "the other inner chunks still read");
    }

    @Test
    void anInnerChunkOfTheWrongSizeIsNamed() {
        Fixture f = fixture("end");
        f.store.set(f.key, shard("end", 0, 8, E, E, 16, 8, 24, 6));
        bothPaths(f, "inner chunk [1, 1]", "6 bytes");
    }

    /** The file store reports ranges outside the value its own way; the error must still be clear. */
    @ParameterizedTest
    @ValueSource(strings = {"start", "end"})
    void pastTheEndOnTheFileStore(String location, @TempDir Path dir) {
        Fixture f = fixture(ZARR.openStore(dir.toString()), location, LE, LE);
        long base = location.equals("start") ? 64 : 0;
        f.store.set(f.key, shard(location, base, 8, E, E, base + 16, 8, base + 30, 100));
        bothPaths(f, "inner chunk [1, 1]", "points past the end of the shard");
        f.store.set(f.key, ByteBuffer.wrap(new byte[3]));
        bothPaths(f, "shorter than its 64-byte index", "shorter than its 64-byte index");
    }

    @Test
    void writesOverACorruptShardFailWithoutChangingIt() {
        Fixture f = fixture("end");
        ByteBuffer bad = shard("end", 0, 8, E, E, 16, 8, 30, 100);
        f.store.set(f.key, bad.duplicate());
        fails(() -> f.array.write(new long[] {0, 0}, new long[] {1, 1}, new short[] {1}), f, "inner chunk [1, 1]");
        assertTrue(Arrays.equals(bytes(bad), bytes(f.store.get(f.key).orElseThrow())), "the shard is left as it was");
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
