package dev.zarrj.api.codec;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import java.nio.ByteBuffer;
import org.apiguardian.api.API;

/**
 * Encodes a chunk gathered straight out of a larger array, without first copying the chunk into
 * an array of its own (sharding gathers each inner chunk from the caller's array). What
 * {@link ArrayToBytesCodec#regionEncoder} gives a codec that can. Thread-safe.
 *
 * @since 0.1
 */
@FunctionalInterface
@API(status = EXPERIMENTAL, since = "0.1")
public interface ArrayRegionEncoder {
    /**
     * Encodes the chunk that is {@code region} of {@code source}: the same bytes as
     * {@link ArrayToBytesCodec#encode(NdArray, dev.zarrj.api.ChunkSpec)} of a copy of that region.
     * {@code source} is left unchanged; the result may lie in memory from {@code lender}.
     *
     * @throws IllegalArgumentException when the region's shape is not the chunk's, it lies outside
     *                                  {@code source}, or the element sizes differ
     */
    ByteBuffer encode(NdArray source, Region region, BufferLender lender);
}
