package dev.zarrj.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.Region;
import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * One chunk of an array: its coordinates in the chunk grid and the part of the array it covers,
 * clipped to the array's shape (an edge chunk's overhang is not part of the region). Lets a caller
 * walk an array chunk by chunk, reading each with {@link ZarrArray#read(Region)} or
 * {@link ZarrArray#readChunk}, without working out the grid itself.
 *
 * @see ZarrArray#chunkRegions()
 * @see ZarrArray#storedChunkRegions()
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ChunkRegion {
    private final long[] coords;
    private final Region region;

    ChunkRegion(long[] coords, Region region) {
        this.coords = coords;
        this.region = region;
    }

    /** A copy of the chunk's grid coordinates. */
    public long[] coords() {
        return coords.clone();
    }

    /** The part of the array the chunk covers, clipped to the array. */
    public Region region() {
        return region;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkRegion c && Arrays.equals(coords, c.coords) && region.equals(c.region);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(coords) + region.hashCode();
    }

    @Override
    public String toString() {
        return "chunk " + Arrays.toString(coords) + " " + region;
    }
}
