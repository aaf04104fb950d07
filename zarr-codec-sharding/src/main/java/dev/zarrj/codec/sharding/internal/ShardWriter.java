package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.Region;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ZarrException;
import dev.zarrj.codec.sharding.IndexLocation;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntFunction;

/**
 * Writes shards: a whole shard from an array, or an existing shard with a region replaced.
 *
 * <p>Every shard written is compact: the index at the configured end, inner chunks in C order
 * with no gaps, inner chunks that hold only the fill value left out. Inner chunks are encoded in
 * parallel (see {@link ShardingCodec#tasks()}); the shard is assembled in one buffer.
 */
final class ShardWriter {
    /** The largest buffer the JVM reliably allocates. */
    private static final long MAX_BUFFER = Integer.MAX_VALUE - 8;

    private ShardWriter() {}

    /**
     * Encodes the whole shard that is the region of {@code source} at {@code at}; a region of only
     * fill values gives a shard with an empty index. Each inner chunk is gathered straight from the
     * source, and only when it holds something other than the fill value.
     *
     * @param allocate lends memory for gathered inner chunks, their encodings and the shard (see
     *                 {@code BytesToBytesCodec.encode(ByteBuffer, IntFunction)}), or null to
     *                 allocate it here
     */
    static ByteBuffer encode(ShardingCodec codec, ShardLayout layout, NdArray source, long[] at,
                             IntFunction<ByteBuffer> allocate) {
        int n = layout.count();
        ChunkSpec inner = layout.innerSpec();
        long[] innerShape = layout.innerShape();
        ByteBuffer[] encoded = new ByteBuffer[n];
        if (n == 1 && Arrays.equals(source.shape(), innerShape)) {
            encoded[0] = source.isAll(inner.fillValue()) ? null : codec.encodeInner(source, layout, allocate);
            return assemble(codec, layout, i -> encoded[i], allocate);
        }
        int gatherBytes = Math.toIntExact(inner.byteSize());
        IntFunction<ByteBuffer> memory = allocate != null ? allocate : ByteBuffer::allocate;
        // A bytes→bytes codec's output never shares its input's memory, so a gather buffer can be
        // reused from one inner chunk to the next (one per thread at work). Without one, the
        // encoding may be a view of the gather buffer, which then must stay as it is.
        boolean reuse = codec.innerEndsInBytesToBytes();
        Queue<NdArray> spare = new ConcurrentLinkedQueue<>();
        long[] zero = new long[layout.rank()];
        codec.tasks().forEach(n, i -> {
            long[] from = layout.origin(i);
            for (int d = 0; d < from.length; d++) {
                from[d] += at[d];
            }
            if (source.isAll(inner.fillValue(), Region.of(from, innerShape))) {
                return;
            }
            NdArray chunk = reuse ? spare.poll() : null;
            if (chunk == null) {
                chunk = NdArray.wrap(inner.dataType(), memory.apply(gatherBytes).slice(0, gatherBytes), innerShape);
            }
            RegionCopy.copy(source, Region.of(from, innerShape), chunk, zero);
            encoded[i] = codec.encodeInner(chunk, layout, allocate);
            if (reuse) {
                spare.add(chunk);
            }
        });
        return assemble(codec, layout, i -> encoded[i], allocate);
    }

    /**
     * Writes {@code region} at {@code offset} into an existing shard: only the index of the old
     * shard is decoded; inner chunks the region covers whole are encoded from it, inner chunks it
     * covers in part are decoded, overlaid and encoded again, and every other inner chunk's bytes
     * are copied unchanged.
     *
     * @return the new shard, or empty when it holds no inner chunk any more
     */
    static Optional<ByteBuffer> encodePartial(ShardingCodec codec, ShardLayout layout, Optional<ByteBuffer> existing,
                                              NdArray region, long[] offset) {
        long[] shape = region.shape();
        layout.checkRegion(offset, shape);
        ByteBuffer old = existing.map(ByteBuffer::slice).orElse(null);
        ShardIndex oldIndex = old == null ? ShardIndex.empty(layout.count()) : codec.readIndex(old, layout);
        int[] touched = layout.touched(offset, shape);
        ChunkSpec inner = layout.innerSpec();
        long[] innerShape = layout.innerShape();
        long[] zero = new long[layout.rank()];
        ByteBuffer[] fresh = new ByteBuffer[layout.count()];
        boolean[] replaced = new boolean[layout.count()];
        for (int i : touched) {
            replaced[i] = true;
        }
        codec.tasks().forEach(touched.length, k -> {
            int i = touched[k];
            long[][] o = layout.overlap(i, offset, shape);
            NdArray chunk;
            if (layout.isWhole(o[2])) {
                chunk = region.region(Region.of(o[1], innerShape));
            } else {
                chunk = NdArray.filled(inner.dataType(), inner.fillValue(), innerShape);
                if (!oldIndex.isEmpty(i)) {
                    // A decoded chunk may view the old shard's buffer: copy it into a private one.
                    NdArray before = codec.decodeInner(ShardingCodec.innerBytes(old, oldIndex, i), layout, oldIndex, i);
                    RegionCopy.copy(before, Region.of(zero, innerShape), chunk, zero);
                }
                RegionCopy.copy(region, Region.of(o[1], o[2]), chunk, o[0]);
            }
            if (!chunk.isAll(inner.fillValue())) {
                fresh[i] = codec.encodeInner(chunk, layout, null);
            }
        });
        boolean any = false;
        for (int i = 0; i < layout.count() && !any; i++) {
            any = replaced[i] ? fresh[i] != null : !oldIndex.isEmpty(i);
        }
        if (!any) {
            return Optional.empty();
        }
        return Optional.of(assemble(codec, layout, i -> replaced[i] ? fresh[i]
                : oldIndex.isEmpty(i) ? null : ShardingCodec.innerBytes(old, oldIndex, i), null));
    }

    /**
     * Lays out a shard: the encoded inner chunks in C order and the index.
     *
     * @param bytes    the encoded bytes of inner chunk {@code i}, or null when it is empty
     * @param allocate lends the shard's memory, or null to allocate it here
     */
    private static ByteBuffer assemble(ShardingCodec codec, ShardLayout layout, IntFunction<ByteBuffer> bytes,
                                       IntFunction<ByteBuffer> allocate) {
        int n = layout.count();
        long indexSize = layout.indexSize();
        long total = indexSize;
        for (int i = 0; i < n; i++) {
            ByteBuffer b = bytes.apply(i);
            total += b == null ? 0 : b.remaining();
        }
        if (total > MAX_BUFFER) {
            throw new ZarrException("ZARR-CODEC", ShardingCodec.NAME + ": the encoded shard of shape "
                    + Arrays.toString(layout.shardShape()) + " would hold " + total + " bytes, more than one buffer can ("
                    + MAX_BUFFER + "); use smaller shards");
        }
        // Every byte is written below (data without gaps, then the index), so lent memory's old
        // content never shows.
        ByteBuffer out = allocate != null ? allocate.apply((int) total).slice(0, (int) total)
                : ByteBuffer.allocate((int) total);
        ShardIndex index = ShardIndex.empty(n);
        int pos = (int) layout.dataStart();
        for (int i = 0; i < n; i++) {
            ByteBuffer b = bytes.apply(i);
            if (b != null) {
                int len = b.remaining();
                out.put(pos, b, b.position(), len);
                index.set(i, pos, len);
                pos += len;
            }
        }
        ByteBuffer encodedIndex = index.encode(layout, codec.indexCodecs());
        int at = layout.location() == IndexLocation.START ? 0 : pos;
        out.put(at, encodedIndex, encodedIndex.position(), encodedIndex.remaining());
        return out;
    }
}
