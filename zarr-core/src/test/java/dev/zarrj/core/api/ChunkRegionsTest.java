package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.api.Region;
import dev.zarrj.core.ChunkRegion;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** {@link ZarrArray#chunkRegions()} and {@link ZarrArray#storedChunkRegions()}. */
class ChunkRegionsTest {
    private static final Zarr ZARR = Zarr.builder().threads(2).build();

    @AfterAll
    static void close() {
        ZARR.close();
    }

    @Test
    void everyChunkInRowMajorOrderClippedToTheArray() {
        ZarrArray a = ZARR.array(DataTypes.INT16, 10, 7).chunks(4, 3).create(ZARR.openStore("memory:"), "/a");
        List<ChunkRegion> all = a.chunkRegions().collect(Collectors.toList());
        assertEquals(9, all.size());
        assertArrayEquals(new long[] {0, 0}, all.get(0).coords());
        assertArrayEquals(new long[] {0, 1}, all.get(1).coords(), "the last dimension varies fastest");
        assertEquals(Region.of(new long[] {4, 3}, new long[] {4, 3}), all.get(4).region());
        assertArrayEquals(new long[] {2, 2}, all.get(8).coords());
        assertEquals(Region.of(new long[] {8, 6}, new long[] {2, 1}), all.get(8).region(), "clipped at both edges");
        long elements = all.stream().mapToLong(c -> c.region().elementCount()).sum();
        assertEquals(70, elements, "the regions tile the array");
    }

    @Test
    void aTrillionChunksAreNotMaterialised() {
        ZarrArray a = ZARR.array(DataTypes.UINT8, 1_000_000_000L, 1_000_000L).chunks(1000, 1)
                .create(ZARR.openStore("memory:"), "/huge");
        assertEquals(1_000_000_000_000L, a.chunkRegions().count(), "sized without walking the chunks");
        List<ChunkRegion> first = a.chunkRegions().skip(999_999).limit(2).collect(Collectors.toList());
        assertArrayEquals(new long[] {0, 999_999}, first.get(0).coords());
        assertArrayEquals(new long[] {1, 0}, first.get(1).coords());
        assertEquals(Region.of(new long[] {1000, 0}, new long[] {1000, 1}), first.get(1).region());
    }

    @Test
    void aScalarArrayHasOneChunk() {
        ZarrArray a = ZARR.array(DataTypes.INT32).create(ZARR.openStore("memory:"), "/s");
        List<ChunkRegion> all = a.chunkRegions().collect(Collectors.toList());
        assertEquals(1, all.size());
        assertEquals(0, all.get(0).coords().length);
    }

    @Test
    void storedChunksOnlyFromTheListing() {
        ZarrArray a = ZARR.array(DataTypes.INT32, 10, 10).chunks(4, 4).create(ZARR.openStore("memory:"), "/a");
        a.write(new long[] {8, 0}, new long[] {2, 1}, new int[] {1, 2});
        a.write(new long[] {0, 9}, new long[] {1, 1}, new int[] {3});
        List<ChunkRegion> stored = a.storedChunkRegions().collect(Collectors.toList());
        assertEquals(2, stored.size());
        assertEquals(List.of(Region.of(new long[] {0, 8}, new long[] {4, 2}), Region.of(new long[] {8, 0},
                new long[] {2, 4})), stored.stream().map(ChunkRegion::region).sorted((x, y) ->
                Long.compare(x.offset(0), y.offset(0))).collect(Collectors.toList()));
    }
}
