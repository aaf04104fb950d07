package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.BufferLender;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.codec.sharding.IndexLocation;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntFunction;

/**
 * Writes shards: a whole shard from an array, or an existing shard with a region replaced.
 *
 * <p>Every shard written is compact: the index at the configured end, inner chunks in C order
 * with no gaps, inner chunks that hold only the fill value left out. Inner chunks are encoded in
 * parallel (see {@link ShardingCodec#tasks()}); the shard is assembled in one buffer, and the
 * memory the inner chunks were gathered and encoded in is given back to the lender then
 * ({@link BufferLender#giveBack}): a write awaiting the store holds the shard, not its pieces too.
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
     * @param lender lends memory for gathered inner chunks, their encodings and the shard
     */
    static ByteBuffer encode(ShardingCodec codec, ShardLayout layout, NdArray source, long[] at, BufferLender lender) {
        int n = layout.count();
        ChunkSpec inner = layout.innerSpec();
        long[] innerShape = layout.innerShape();
        ByteBuffer[] encoded = new ByteBuffer[n];
        Pieces pieces = new Pieces(lender);
        if (n == 1 && Arrays.equals(source.shape(), innerShape)) {
            encoded[0] = source.isAll(inner.fillValue()) ? null : encodeInner(codec, layout, source, pieces);
            return pieces.giveBackAfter(assemble(codec, layout, i -> encoded[i], lender));
        }
        int gatherBytes = Math.toIntExact(inner.byteSize());
        // A bytes→bytes codec's output never shares its input's memory, so a gather buffer can be
        // reused from one inner chunk to the next (one per thread at work). Without one, the
        // encoding may be a view of the gather buffer, which then must stay as it is.
        boolean reuse = endsInBytesToBytes(codec);
        Queue<NdArray> spare = new ConcurrentLinkedQueue<>();
        long[] zero = new long[layout.rank()];
        codec.tasks().forEach(n, i -> {
            Region from = layout.innerRegion(i).translate(at);
            if (source.isAll(inner.fillValue(), from)) {
                return;
            }
            NdArray chunk = reuse ? spare.poll() : null;
            if (chunk == null) {
                chunk = inner.dataType().kind().isVariableLength() ? NdArray.allocate(inner.dataType(), innerShape)
                        : NdArray.wrap(inner.dataType(), pieces.borrow(gatherBytes).slice(0, gatherBytes), innerShape);
            }
            RegionCopy.copy(source, from, chunk, zero);
            encoded[i] = encodeInner(codec, layout, chunk, pieces);
            if (reuse) {
                spare.add(chunk);
            }
        });
        return pieces.giveBackAfter(assemble(codec, layout, i -> encoded[i], lender));
    }

    /**
     * The lender's memory one shard's inner chunks are gathered and encoded in, recorded so that
     * all of it goes back to the lender once the shard is assembled from it.
     */
    private static final class Pieces implements BufferLender {
        private final BufferLender lender;
        /** By identity: ByteBuffer.equals compares contents. */
        private final Set<ByteBuffer> lent = Collections.newSetFromMap(new IdentityHashMap<>());

        Pieces(BufferLender lender) {
            this.lender = lender;
        }

        @Override
        public ByteBuffer borrow(int size) {
            ByteBuffer b = lender.borrow(size);
            synchronized (lent) {
                lent.add(b);
            }
            return b;
        }

        /** An inner codec giving back early (a shard nested in a shard): passed on. */
        @Override
        public void giveBack(ByteBuffer buffer) {
            boolean ours;
            synchronized (lent) {
                ours = lent.remove(buffer);
            }
            if (!ours) {
                throw new IllegalArgumentException(
                        "a buffer given back that this shard's writer did not lend, or already has back");
            }
            lender.giveBack(buffer);
        }

        /** Gives back everything lent, now that {@code shard} holds a copy of what matters of it. */
        ByteBuffer giveBackAfter(ByteBuffer shard) {
            List<ByteBuffer> all;
            synchronized (lent) {
                all = List.copyOf(lent);
                lent.clear();
            }
            all.forEach(lender::giveBack);
            return shard;
        }
    }

    /**
     * Writes {@code values} at {@code offset} into an existing shard: only the index of the old
     * shard is decoded; inner chunks the block covers whole are encoded from it, inner chunks it
     * covers in part are decoded, overlaid and encoded again, and every other inner chunk's bytes
     * are copied unchanged.
     *
     * @return the new shard, or empty when it holds no inner chunk any more
     */
    static Optional<ByteBuffer> encodePartial(ShardingCodec codec, ShardLayout layout, Optional<ByteBuffer> existing,
                                              NdArray values, long[] offset) {
        Region block = Region.of(offset, values.shape());
        layout.checkRegion(block);
        Optional<ShardReader> old = existing.map(b -> ShardReader.inMemory(codec, layout, b));
        int[] touched = layout.touched(block);
        ChunkSpec inner = layout.innerSpec();
        long[] innerShape = layout.innerShape();
        long[] zero = new long[layout.rank()];
        ByteBuffer[] fresh = new ByteBuffer[layout.count()];
        boolean[] replaced = new boolean[layout.count()];
        for (int i : touched) {
            replaced[i] = true;
        }
        BufferLender lender = BufferLender.allocating();
        codec.tasks().forEach(touched.length, k -> {
            int i = touched[k];
            ShardLayout.Overlap o = layout.overlap(i, block);
            NdArray chunk;
            if (layout.isWhole(o)) {
                chunk = values.region(o.inRegion());
            } else {
                chunk = NdArray.filled(inner.dataType(), inner.fillValue(), innerShape);
                if (old.isPresent() && old.get().isPresent(i)) {
                    // Decoded into a private chunk: a decoded one could view the old shard's buffer.
                    old.get().decodeInnerInto(i, old.get().innerBytes(i), Region.whole(innerShape), chunk, zero);
                }
                RegionCopy.copy(values, o.inRegion(), chunk, o.inChunk().offset());
            }
            if (!chunk.isAll(inner.fillValue())) {
                fresh[i] = encodeInner(codec, layout, chunk, lender);
            }
        });
        boolean any = false;
        for (int i = 0; i < layout.count() && !any; i++) {
            any = replaced[i] ? fresh[i] != null : old.isPresent() && old.get().isPresent(i);
        }
        if (!any) {
            return Optional.empty();
        }
        return Optional.of(assemble(codec, layout, i -> replaced[i] ? fresh[i]
                : old.isPresent() && old.get().isPresent(i) ? old.get().innerBytes(i) : null, lender));
    }

    /** Encodes one inner chunk with the inner codecs, into memory from {@code lender}. */
    private static ByteBuffer encodeInner(ShardingCodec codec, ShardLayout layout, NdArray chunk, BufferLender lender) {
        return codec.innerCodecs().encode(chunk, layout.innerSpec(), lender);
    }

    /** Whether the inner chain ends in a bytes→bytes codec, whose output never shares its input's memory. */
    private static boolean endsInBytesToBytes(ShardingCodec codec) {
        List<Codec> c = codec.innerCodecs().codecs();
        return !c.isEmpty() && c.get(c.size() - 1) instanceof BytesToBytesCodec;
    }

    /**
     * Lays out a shard: the encoded inner chunks in C order and the index.
     *
     * @param bytes    the encoded bytes of inner chunk {@code i}, or null when it is empty
     * @param lender lends the shard's memory
     */
    private static ByteBuffer assemble(ShardingCodec codec, ShardLayout layout, IntFunction<ByteBuffer> bytes,
                                       BufferLender lender) {
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
        ByteBuffer out = lender.borrow((int) total).slice(0, (int) total);
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
