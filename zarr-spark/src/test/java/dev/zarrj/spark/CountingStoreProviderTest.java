package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test store the pruning tests count requests with: found by scheme, and counting what zarrj reads. */
class CountingStoreProviderTest {
    @TempDir
    Path dir;

    @Test
    void zarrjFindsTheSchemeAndEveryChunkReadIsCounted() {
        Zarr zarr = Zarr.defaults();
        try (ZarrArray a = zarr.array(DataTypes.INT32, 4, 4).chunks(2, 2).create(dir.toString(), "/x")) {
            a.write(new long[2], new long[] {4, 4}, new int[16]);
            a.write(new long[2], new long[] {1, 1}, new int[] {7});
        }
        CountingStoreProvider.reset(dir);
        try (ZarrArray a = zarr.openArray(CountingStoreProvider.uri(dir), "/x", true)) {
            assertArrayEquals(new int[] {7, 0, 0, 0}, a.read(new long[2], new long[] {2, 2}).toIntArray());
        }
        Map<String, Integer> perKey = CountingStoreProvider.requestsPerKey(dir);
        assertEquals(1, perKey.get("x/c/0/0"), perKey.toString());
        assertEquals(null, perKey.get("x/c/1/1"), perKey.toString());
    }
}
