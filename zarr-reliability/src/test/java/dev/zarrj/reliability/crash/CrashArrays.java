package dev.zarrj.reliability.crash;

import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.util.Map;

/**
 * The two arrays the crash tests write, and what each element holds in each generation: the
 * value encodes the generation and the element's index, so a read tells apart an element of the
 * previous write, of the new one, and a damaged one.
 */
final class CrashArrays {
    /** Unsharded: int32 chunks of 32 × 32 with a crc32c, one stored object per chunk. */
    static final String UNSHARDED = "/u";
    /** Sharded: shards of 128 × 128 holding gzip-compressed chunks of 32 × 32. */
    static final String SHARDED = "/s";

    private CrashArrays() {}

    /** Creates both arrays, {@code n} × {@code n}, in the hierarchy at {@code location} (a root group first). */
    static void create(Zarr zarr, String location, int n) {
        zarr.createGroup(location, "/").close();
        try (ZarrArray a = zarr.array(DataTypes.INT32, n, n).chunks(32, 32).codec("crc32c").create(location, UNSHARDED)) {
            assert a.rank() == 2;
        }
        try (ZarrArray a = zarr.array(DataTypes.INT32, n, n).chunks(32, 32).shards(128, 128)
                .codec("gzip", Map.of("level", 1)).create(location, SHARDED)) {
            assert a.rank() == 2;
        }
    }

    /** The shape of one stored object of an array: the unit a write replaces whole. */
    static int unit(String path) {
        return path.equals(SHARDED) ? 128 : 32;
    }

    /**
     * What element {@code index} (row-major) holds after a write of generation {@code generation};
     * 0 (the fill value) before any.
     */
    static int value(int generation, int index) {
        if (generation < 0 || generation >= 1 << 9 || index < 0 || index >= 1 << 22) {
            throw new IllegalArgumentException("generation " + generation + " or index " + index + " out of range");
        }
        return generation == 0 ? 0 : generation << 22 | index;
    }

    /**
     * The values of generation {@code generation} in rows {@code r0..r1} and columns
     * {@code c0..c1} of an array {@code n} wide.
     */
    static int[] region(int generation, int n, int r0, int c0, int r1, int c1) {
        int w = c1 - c0;
        int[] out = new int[(r1 - r0) * w];
        for (int r = r0; r < r1; r++) {
            for (int c = c0; c < c1; c++) {
                out[(r - r0) * w + c - c0] = value(generation, r * n + c);
            }
        }
        return out;
    }
}
