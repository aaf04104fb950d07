package dev.zarrj.api.codec;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.RegionCopy;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.function.BiFunction;
import org.apiguardian.api.API;

/**
 * Decodes regions of one encoded chunk without necessarily decoding all of it: the spec's
 * {@code partial_decode} for array outputs. An absent value is an answer, not an error: both
 * methods say so and leave the fill value to the caller. Thread-safe.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface ArrayPartialDecoder {
    /**
     * Decodes a region of the decoded chunk.
     *
     * @return a new array of the region's shape, owned by the caller, or empty when no value is
     *         stored
     * @throws dev.zarrj.api.CorruptDataException when the stored value cannot be decoded
     * @throws IllegalArgumentException           when the region lies outside the chunk
     */
    Optional<NdArray> decode(Region region);

    /**
     * Decodes a region of the decoded chunk into {@code destination} at
     * {@code destinationOffset}, so that a read needs no intermediate array. The default decodes
     * the region and copies it.
     *
     * @return false when no value is stored; {@code destination} is then unchanged
     */
    default boolean decodeInto(Region region, NdArray destination, long[] destinationOffset) {
        Optional<NdArray> part = decode(region);
        part.ifPresent(p -> RegionCopy.copy(p, Region.whole(region.shape()), destination, destinationOffset));
        return part.isPresent();
    }

    /**
     * The shape of the pieces this decoder reads independently (the inner chunks of a shard), so
     * that a caller selecting scattered elements can ask only for the pieces holding them; empty
     * (the default) when the chunk is decoded as a whole or by element ranges.
     *
     * <p>When present it has the chunk's rank, each entry is positive and divides the chunk's
     * shape, and decoding the region of one piece equals that part of the whole decode.
     *
     * @since 0.9
     */
    default Optional<long[]> innerChunkShape() {
        return Optional.empty();
    }

    /**
     * The fallback for codecs without partial decoding: reads the whole value on first use,
     * decodes it in full, and serves regions from the decoded array.
     */
    static ArrayPartialDecoder fullDecode(ByteSource input, ChunkSpec spec,
                                          BiFunction<ByteBuffer, ChunkSpec, NdArray> decoder) {
        return new ArrayPartialDecoder() {
            private volatile Optional<NdArray> whole;

            @Override
            public Optional<NdArray> decode(Region region) {
                return whole().map(w -> w.region(region));
            }

            @Override
            public boolean decodeInto(Region region, NdArray destination, long[] destinationOffset) {
                Optional<NdArray> w = whole();
                w.ifPresent(a -> RegionCopy.copy(a, region, destination, destinationOffset));
                return w.isPresent();
            }

            private Optional<NdArray> whole() {
                Optional<NdArray> w = whole;
                if (w == null) {
                    synchronized (this) {
                        w = whole;
                        if (w == null) {
                            w = input.read(ByteRange.all()).map(bytes -> decoder.apply(bytes, spec));
                            whole = w;
                        }
                    }
                }
                return w;
            }
        };
    }
}
