package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.Region;
import dev.zarrj.codec.sharding.IndexLocation;
import java.util.Arrays;

/**
 * The geometry of one shard: its shape, the inner chunk grid inside it (C order), the
 * representations the inner and index codecs see, and the size and place of the encoded index.
 * Computed per operation from the shard's {@link ChunkSpec}; immutable.
 */
final class ShardLayout {
    /**
     * The most inner chunks in one shard: the index array (16 bytes per inner chunk) must fit in
     * one buffer.
     */
    static final long MAX_INNER_CHUNKS = (Integer.MAX_VALUE - 8) / 16;

    private final long[] shardShape;
    private final long[] innerShape;
    private final long[] perShard;
    private final int count;
    private final ChunkSpec innerSpec;
    private final ChunkSpec indexSpec;
    private final long indexSize;
    private final IndexLocation location;

    private ShardLayout(long[] shardShape, long[] innerShape, long[] perShard, int count, ChunkSpec innerSpec,
                        ChunkSpec indexSpec, long indexSize, IndexLocation location) {
        this.shardShape = shardShape;
        this.innerShape = innerShape;
        this.perShard = perShard;
        this.count = count;
        this.innerSpec = innerSpec;
        this.indexSpec = indexSpec;
        this.indexSize = indexSize;
        this.location = location;
    }

    /**
     * The layout of a shard of {@code shard}'s representation.
     *
     * @throws InvalidMetadataException naming {@code chunk_shape} when its rank differs from the
     *         shard's or it does not divide the shard shape, or {@code index_codecs} when their
     *         encoded size is not fixed
     */
    static ShardLayout of(ShardingCodec codec, ChunkSpec shard) {
        long[] shape = shard.shape();
        long[] inner = codec.innerChunkShape();
        if (inner.length != shape.length) {
            throw new InvalidMetadataException(codec.pointer("chunk_shape"), ShardingCodec.NAME + ": chunk_shape "
                    + Arrays.toString(inner) + " has " + inner.length + " dimensions, but the shard shape "
                    + Arrays.toString(shape) + " has " + shape.length + "; give one inner chunk length per dimension");
        }
        long[] per = new long[shape.length];
        long n = 1;
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] % inner[d] != 0) {
                throw new InvalidMetadataException(codec.pointer("chunk_shape") + "/" + d, ShardingCodec.NAME
                        + ": the inner chunk shape " + Arrays.toString(inner) + " must evenly divide the shard shape "
                        + Arrays.toString(shape) + ", but " + shape[d] + " is not a multiple of " + inner[d]
                        + " in dimension " + d);
            }
            per[d] = shape[d] / inner[d];
            n = per[d] == 0 ? 0 : n <= MAX_INNER_CHUNKS / per[d] ? n * per[d] : MAX_INNER_CHUNKS + 1;
        }
        if (n > MAX_INNER_CHUNKS) {
            throw new InvalidMetadataException(codec.pointer("chunk_shape"), ShardingCodec.NAME + ": a shard of shape "
                    + Arrays.toString(shape) + " would hold more than " + MAX_INNER_CHUNKS + " inner chunks of shape "
                    + Arrays.toString(inner) + "; use larger inner chunks or smaller shards");
        }
        long[] indexShape = Arrays.copyOf(per, per.length + 1);
        indexShape[per.length] = 2;
        ChunkSpec indexSpec = new ChunkSpec(IndexDataType.UINT64, indexShape, IndexDataType.EMPTY_MARKER);
        long indexSize = fixedIndexSize(codec, indexSpec);
        return new ShardLayout(shape, inner, per, (int) n, shard.withShape(inner), indexSpec, indexSize,
                codec.indexLocation());
    }

    /**
     * The encoded size of the index, which the spec requires to be fixed.
     *
     * @throws InvalidMetadataException naming {@code index_codecs} when it is not
     */
    static long fixedIndexSize(ShardingCodec codec, ChunkSpec indexSpec) {
        EncodedSize size = codec.indexCodecs().encodedSize(indexSpec);
        if (size instanceof EncodedSize.Fixed f) {
            return f.bytes();
        }
        throw new InvalidMetadataException(codec.pointer("index_codecs"), ShardingCodec.NAME
                + ": index_codecs must encode the index to a fixed size, so that it can be read with one ranged "
                + "request, but " + codec.indexCodecs().toJson() + " gives " + describe(size)
                + "; use fixed-size codecs only, for example [{\"name\": \"bytes\", \"configuration\": "
                + "{\"endian\": \"little\"}}, {\"name\": \"crc32c\"}] (no compressors)");
    }

    private static String describe(EncodedSize size) {
        return size instanceof EncodedSize.Bounded b ? "a size of at most " + b.maxBytes() + " bytes" : "an unknown size";
    }

    long[] shardShape() {
        return shardShape.clone();
    }

    long[] innerShape() {
        return innerShape.clone();
    }

    int rank() {
        return shardShape.length;
    }

    /** The number of inner chunks. */
    int count() {
        return count;
    }

    ChunkSpec innerSpec() {
        return innerSpec;
    }

    ChunkSpec indexSpec() {
        return indexSpec;
    }

    /** The encoded index's size in bytes. */
    long indexSize() {
        return indexSize;
    }

    IndexLocation location() {
        return location;
    }

    /** Where inner chunk data may begin: after the index when it is at the start. */
    long dataStart() {
        return location == IndexLocation.START ? indexSize : 0;
    }

    /** Where inner chunk data must end in a shard of {@code size} bytes; -1 when the size is unknown. */
    long dataEnd(long size) {
        if (size < 0) {
            return -1;
        }
        return location == IndexLocation.END ? size - indexSize : size;
    }

    /** The grid coordinates of inner chunk {@code i} (C order). */
    long[] coords(int i) {
        long[] c = new long[perShard.length];
        long rest = i;
        for (int d = perShard.length - 1; d >= 0; d--) {
            c[d] = rest % perShard[d];
            rest /= perShard[d];
        }
        return c;
    }

    /** Where inner chunk {@code i} starts in the shard. */
    long[] origin(int i) {
        long[] c = coords(i);
        for (int d = 0; d < c.length; d++) {
            c[d] *= innerShape[d];
        }
        return c;
    }

    /** Inner chunk {@code i} for messages: {@code "inner chunk [0, 1]"}. */
    String describe(int i) {
        return "inner chunk " + Arrays.toString(coords(i));
    }

    /** Inner chunk {@code i} as a region of the shard. */
    Region innerRegion(int i) {
        return Region.of(origin(i), innerShape);
    }

    /** The inner chunks that {@code region} touches, in C order; none when the region is empty. */
    int[] touched(Region region) {
        int rank = perShard.length;
        long[] first = new long[rank];
        long[] last = new long[rank];
        long n = 1;
        for (int d = 0; d < rank; d++) {
            if (region.shape(d) == 0) {
                return new int[0];
            }
            first[d] = region.offset(d) / innerShape[d];
            last[d] = (region.end(d) - 1) / innerShape[d];
            n *= last[d] - first[d] + 1;
        }
        int[] out = new int[(int) n];
        long[] c = first.clone();
        for (int k = 0; k < out.length; k++) {
            long linear = 0;
            for (int d = 0; d < rank; d++) {
                linear = linear * perShard[d] + c[d];
            }
            out[k] = (int) linear;
            for (int d = rank - 1; d >= 0; d--) {
                if (++c[d] <= last[d]) {
                    break;
                }
                c[d] = first[d];
            }
        }
        return out;
    }

    /**
     * The part of an inner chunk that a region of the shard covers, twice: {@code inChunk}
     * relative to the inner chunk, {@code inRegion} relative to the region (same shape).
     */
    record Overlap(Region inChunk, Region inRegion) {
        /** Where the part lands in a destination that holds the region at {@code regionAt}. */
        long[] at(long[] regionAt) {
            return inRegion.translate(regionAt).offset();
        }
    }

    /** The part of inner chunk {@code i} that {@code region} covers; {@code i} must be {@link #touched} by it. */
    Overlap overlap(int i, Region region) {
        Region part = innerRegion(i).intersect(region).orElseThrow();
        long[] start = part.offset();
        long[] inChunk = start.clone();
        long[] inRegion = start.clone();
        for (int d = 0; d < start.length; d++) {
            inChunk[d] -= innerShape[d] * (start[d] / innerShape[d]);
            inRegion[d] -= region.offset(d);
        }
        return new Overlap(part.at(inChunk), part.at(inRegion));
    }

    /** Whether a part from {@link #overlap} is the whole inner chunk. */
    boolean isWhole(Overlap part) {
        return part.inChunk().isWhole(innerShape);
    }

    /**
     * Fails unless {@code region} lies inside the shard.
     *
     * @throws IllegalArgumentException naming the region and the shard shape
     */
    void checkRegion(Region region) {
        if (!region.isWithin(shardShape)) {
            throw new IllegalArgumentException(ShardingCodec.NAME + ": region " + Arrays.toString(region.shape())
                    + " at " + Arrays.toString(region.offset()) + " lies outside the shard "
                    + Arrays.toString(shardShape));
        }
    }
}
