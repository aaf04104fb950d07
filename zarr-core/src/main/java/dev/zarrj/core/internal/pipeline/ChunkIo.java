package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.Region;
import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InsufficientMemoryException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayPartialEncoder;
import dev.zarrj.api.codec.ArrayRegionEncoder;
import dev.zarrj.api.codec.BufferLender;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.WriteEmptyChunks;
import dev.zarrj.core.internal.metadata.ArrayMetadata;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Reads and writes rectangular regions of an array chunk by chunk: the data flow of DESIGN.md.
 *
 * <p>Region → chunks it touches (grid) → keys (key encoding) → store → codec chain → copy of the
 * touched part. Chunks are processed in parallel ({@link ParallelTasks}: the caller and the
 * executor's threads), a bounded number at a time, so a large read holds a bounded number of
 * decoded chunks. A partial update of a chunk (read, modify, write) holds a lock for that key so
 * that concurrent writers of different regions of one chunk in this process lose nothing.
 */
public final class ChunkIo {
    private static final int LOCK_STRIPES = 1024;
    private static final ReentrantLock[] LOCKS = new ReentrantLock[LOCK_STRIPES];

    static {
        for (int i = 0; i < LOCK_STRIPES; i++) {
            LOCKS[i] = new ReentrantLock();
        }
    }

    private final ParallelTasks tasks;
    private final WriteEmptyChunks writeEmptyChunks;

    /**
     * @param tasks            where chunks are encoded and decoded; its parallelism is how many
     *                         chunks of one read or write are in progress at once
     * @param writeEmptyChunks what to do with chunks that are all fill value
     */
    public ChunkIo(ParallelTasks tasks, WriteEmptyChunks writeEmptyChunks) {
        this.tasks = tasks;
        this.writeEmptyChunks = writeEmptyChunks;
    }

    /** The store key of a chunk. */
    public static StoreKey chunkKey(ArrayMetadata meta, String prefix, long[] coords) {
        return StoreKey.of(prefix + meta.keyEncoding().encode(coords));
    }

    /** One chunk's share of a region. */
    private record Part(long[] coords, long[] inChunk, long[] inRegion, long[] extent, boolean wholeChunk) {}

    /**
     * Reads the region {@code [offset, offset + dst.shape)} into {@code dst}.
     *
     * @param dstZeroed whether {@code dst} is known to hold zeros, so absent chunks with a zero
     *                  fill value need no copying
     * @throws ChunkDecodeException naming the key of a chunk that cannot be decoded
     */
    public void read(Store store, String prefix, ArrayMetadata meta, long[] offset, NdArray dst, boolean dstZeroed) {
        long[] shape = dst.shape();
        ChunkBox box = ChunkBox.of(meta, offset, shape);
        if (box == null) {
            return;
        }
        Runnable fill = dstZeroed && meta.fillValue().isZero() ? null : () -> dst.fill(meta.fillValue());
        SparseRead.read(tasks, store, prefix, meta, box,
                (s, i) -> readPart(s, prefix, meta, part(meta, box.coords(i), offset, shape), dst, dstZeroed), fill);
    }

    /** Writes {@code src} into the region at {@code offset}. */
    public void write(Store store, String prefix, ArrayMetadata meta, long[] offset, NdArray src) {
        run(meta, offset, src.shape(), part -> {
            try {
                writePart(store, prefix, meta, part, src);
            } catch (InsufficientMemoryException e) {
                throw e.reading(describe("writing", prefix, chunkKey(meta, prefix, part.coords)));
            } catch (OutOfMemoryError e) {
                throw new InsufficientMemoryException(describe("writing", prefix, chunkKey(meta, prefix, part.coords)),
                        meta.chunkSpec(part.coords).byteSize(), e);
            }
        });
    }

    private void readPart(Store store, String prefix, ArrayMetadata meta, Part part, NdArray dst, boolean dstZeroed) {
        StoreKey key = chunkKey(meta, prefix, part.coords);
        ChunkSpec spec = meta.chunkSpec(part.coords);
        DefaultCodecChain chain = meta.codecs();
        try {
            Optional<ArrayPartialDecoder> partial = part.wholeChunk ? Optional.empty()
                    : chain.partialDecoder(new StoreByteSource(store, key), spec);
            if (partial.isPresent()) {
                if (!partial.get().decodeInto(Region.of(part.inChunk, part.extent), dst, part.inRegion)) {
                    fillRegion(dst, part.inRegion, part.extent, meta, dstZeroed);
                }
                return;
            }
            // Every buffer the store asked for goes back, even from a store that asks twice (S23).
            List<ByteBuffer> leased = new ArrayList<>(1);
            try {
                Optional<ByteBuffer> bytes = store.get(key, size -> {
                    ByteBuffer b = ChunkBuffers.take(size);
                    leased.add(b);
                    return b;
                });
                if (bytes.isEmpty()) {
                    fillRegion(dst, part.inRegion, part.extent, meta, dstZeroed);
                    return;
                }
                chain.decodeInto(bytes.get(), spec, Region.of(part.inChunk, part.extent), dst, part.inRegion);
            } finally {
                leased.forEach(ChunkBuffers::give);
            }
        } catch (StoreException | ChunkDecodeException e) {
            throw e;
        } catch (InsufficientMemoryException e) {
            throw e.reading(describe("reading", prefix, key));
        } catch (OutOfMemoryError e) {
            throw new InsufficientMemoryException(describe("reading", prefix, key), spec.byteSize(), e);
        } catch (ZarrException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new ChunkDecodeException(key.value(), e);
        }
    }

    /** A chunk for messages: {@code "reading chunk 'a/c/0' of array '/a'"}. */
    private static String describe(String doing, String prefix, StoreKey key) {
        String array = "/" + (prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix);
        return doing + " chunk '" + key.value() + "' of array '" + array + "'";
    }

    /**
     * Reads one whole chunk as the codec chain decodes it, without copying it into a separate
     * array: with {@code bytes} alone the result is the store's own (caller-owned) buffer.
     *
     * <p>With a bytes→bytes codec (compression, a checksum) the stored bytes are only an
     * intermediate: they go into a reused buffer ({@link ChunkBuffers}), so that the read leaves
     * the decoded chunk as its only new memory. Fresh heap costs more than its allocation: the
     * first write to each page of a heap the collector has just grown is a page fault, and a
     * small read that allocated twice its size paid twice the faults (docs/performance.md). A
     * decoded chunk that still shares memory with that buffer is copied out before the buffer
     * goes back.
     *
     * @throws ChunkDecodeException naming the key when it cannot be decoded
     */
    public NdArray readChunk(Store store, String prefix, ArrayMetadata meta, long[] coords) {
        StoreKey key = chunkKey(meta, prefix, coords);
        ChunkSpec spec = meta.chunkSpec(coords);
        DefaultCodecChain chain = meta.codecs();
        List<ByteBuffer> leased = new ArrayList<>(1);
        try {
            Optional<ByteBuffer> bytes = chain.hasBytesToBytes()
                    ? store.get(key, size -> {
                        ByteBuffer b = ChunkBuffers.take(size);
                        leased.add(b);
                        return b;
                    })
                    : store.get(key);
            if (bytes.isEmpty()) {
                NdArray fill = Memory.array(spec.dataType(), spec.shape(), () -> describe("reading", prefix, key));
                if (!spec.fillValue().isZero()) {
                    fill.fill(spec.fillValue());
                }
                return fill;
            }
            NdArray chunk = chain.decode(bytes.get(), spec);
            CodecChain.checkDecodedShape("codecs", chunk, spec);
            if (chunk.bytes().isDirect() && leased.stream().anyMatch(ByteBuffer::isDirect)) {
                // A codec that returns a view of its input (crc32c strips its checksum so) left
                // the chunk in pooled memory; heap leases never go back to the pool.
                NdArray own = NdArray.allocate(chunk.dataType(), chunk.shape());
                RegionCopy.copy(chunk, Region.of(new long[chunk.shape().length], chunk.shape()), own, new long[chunk.shape().length]);
                chunk = own;
            }
            return chunk;
        } catch (StoreException | ChunkDecodeException e) {
            throw e;
        } catch (InsufficientMemoryException e) {
            throw e.reading(describe("reading", prefix, key));
        } catch (OutOfMemoryError e) {
            throw new InsufficientMemoryException(describe("reading", prefix, key), spec.byteSize(), e);
        } catch (ZarrException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new ChunkDecodeException(key.value(), e);
        } finally {
            leased.forEach(ChunkBuffers::give);
        }
    }

    private static void fillRegion(NdArray dst, long[] at, long[] extent, ArrayMetadata meta, boolean dstZeroed) {
        if (dstZeroed && meta.fillValue().isZero()) {
            return;
        }
        dst.fill(meta.fillValue(), Region.of(at, extent));
    }

    private void writePart(Store store, String prefix, ArrayMetadata meta, Part part, NdArray src) {
        StoreKey key = chunkKey(meta, prefix, part.coords);
        ChunkSpec spec = meta.chunkSpec(part.coords);
        DefaultCodecChain chain = meta.codecs();
        if (part.wholeChunk) {
            boolean edge = !Arrays.equals(part.extent, spec.shape());
            NdArray view = edge ? null : contiguousView(src, part.inRegion, part.extent);
            if (view != null) {
                // Codecs leave their input unchanged and stores copy what they are given.
                store(store, key, chain, spec, view);
                return;
            }
            Optional<ArrayRegionEncoder> gather = edge ? Optional.empty() : chain.regionEncoder(spec);
            if (gather.isPresent()) {
                Region region = Region.of(part.inRegion, part.extent);
                if (writeEmptyChunks == WriteEmptyChunks.SKIP && src.isAll(spec.fillValue(), region)) {
                    store.erase(key);
                } else {
                    setEncoded(store, key, lender -> gather.get().encode(src, region, lender));
                }
                return;
            }
            withChunk(spec, prefix, key, chunk -> {
                if (edge) {
                    chunk.fill(spec.fillValue()); // the part outside the array
                }
                RegionCopy.copy(src, Region.of(part.inRegion, part.extent), chunk, part.inChunk);
                store(store, key, chain, spec, chunk);
            });
            return;
        }
        ReentrantLock lock = LOCKS[Math.floorMod(System.identityHashCode(store) * 31 + key.hashCode(), LOCK_STRIPES)];
        lock.lock();
        try {
            Optional<ByteBuffer> bytes = store.get(key);
            Optional<ArrayPartialEncoder> partialEncoder = chain.partialEncoder(spec);
            if (partialEncoder.isPresent()) {
                Optional<ByteBuffer> updated;
                try {
                    updated = partialEncoder.get().encode(bytes, src.region(Region.of(part.inRegion, part.extent)),
                            part.inChunk);
                } catch (ZarrException | IllegalArgumentException | IndexOutOfBoundsException e) {
                    if (e instanceof StoreException) {
                        throw e;
                    }
                    throw new ChunkDecodeException(key.value(), e);
                }
                if (updated.isPresent()) {
                    store.set(key, updated.get());
                } else {
                    store(store, key, chain, spec, NdArray.filled(meta.dataType(), meta.fillValue(), spec.shape()));
                }
                return;
            }
            withChunk(spec, prefix, key, chunk -> {
                if (bytes.isEmpty()) {
                    chunk.fill(spec.fillValue());
                } else {
                    long[] origin = new long[spec.rank()];
                    try {
                        chain.decodeInto(bytes.get(), spec, Region.whole(spec.shape()), chunk, origin);
                    } catch (ZarrException | IllegalArgumentException | IndexOutOfBoundsException e) {
                        if (e instanceof StoreException) {
                            throw e;
                        }
                        throw new ChunkDecodeException(key.value(), e);
                    }
                }
                RegionCopy.copy(src, Region.of(part.inRegion, part.extent), chunk, part.inChunk);
                store(store, key, chain, spec, chunk);
            });
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code body} with a chunk-sized array in reused memory ({@link ChunkBuffers}) whose
     * content is unspecified; the array must not be used after {@code body} returns.
     */
    private static void withChunk(ChunkSpec spec, String prefix, StoreKey key, Consumer<NdArray> body) {
        if (spec.byteSize() > Integer.MAX_VALUE - 16) {
            throw new ZarrException("ZARR-CODEC", describe("writing", prefix, key) + ": the chunk holds "
                    + spec.byteSize() + " bytes, more than one Java buffer (2 GiB), so zarrj cannot write it; use"
                    + " smaller chunks");
        }
        ByteBuffer buffer = ChunkBuffers.take((int) spec.byteSize());
        try {
            body.accept(NdArray.wrap(spec.dataType(), buffer, spec.shape()));
        } finally {
            ChunkBuffers.give(buffer);
        }
    }

    /**
     * A view of the region {@code [offset, offset + shape)} of {@code src} when its elements are
     * one contiguous run, else null.
     */
    static NdArray contiguousView(NdArray src, long[] offset, long[] shape) {
        int es = src.dataType().size();
        long at = contiguousStart(src.shape(), offset, shape);
        if (at < 0) {
            return null;
        }
        return NdArray.wrap(src.dataType(), src.bytes().slice((int) (at * es), (int) (elementCount(shape) * es)),
                shape);
    }

    /**
     * The element index where the region {@code [offset, offset + region)} of a C-ordered array
     * of shape {@code shape} starts when its elements are one contiguous run (some leading
     * dimensions of extent 1, then one partial dimension, then whole ones), else -1.
     */
    static long contiguousStart(long[] shape, long[] offset, long[] region) {
        int rank = region.length;
        int d = 0;
        while (d < rank && region[d] == 1) {
            d++;
        }
        for (int k = d + 1; k < rank; k++) {
            if (region[k] != shape[k]) {
                return -1;
            }
        }
        long[] strides = RegionCopy.strides(shape);
        long at = 0;
        for (int k = 0; k < rank; k++) {
            at += offset[k] * strides[k];
        }
        return at;
    }

    private static long elementCount(long[] shape) {
        long n = 1;
        for (long s : shape) {
            n *= s;
        }
        return n;
    }

    /** Encodes and stores one whole chunk, or erases it when it is all fill value and that is configured. */
    public void store(Store store, StoreKey key, DefaultCodecChain chain, ChunkSpec spec, NdArray chunk) {
        if (writeEmptyChunks == WriteEmptyChunks.SKIP && chunk.isAll(spec.fillValue())) {
            store.erase(key);
            return;
        }
        setEncoded(store, key, lender -> chain.encode(chunk, spec, lender));
    }

    /**
     * Stores what {@code encode} returns, lending it reused memory ({@link ChunkBuffers}) for its
     * output and taking all of it back once the store has the value: stores copy what they are
     * given (S18). Codecs may ask for memory from several threads (sharding's inner chunks).
     */
    private static void setEncoded(Store store, StoreKey key, Function<BufferLender, ByteBuffer> encode) {
        Queue<ByteBuffer> lent = new ConcurrentLinkedQueue<>();
        try {
            store.set(key, encode.apply(size -> {
                ByteBuffer b = ChunkBuffers.take(size);
                lent.add(b);
                return b;
            }));
        } finally {
            for (ByteBuffer b : lent) {
                ChunkBuffers.give(b);
            }
        }
    }

    @FunctionalInterface
    private interface PartTask {
        void run(Part part);
    }

    /** Splits a region into per-chunk parts and runs them, in parallel when there are several. */
    private void run(ArrayMetadata meta, long[] offset, long[] shape, PartTask task) {
        ChunkBox box = ChunkBox.of(meta, offset, shape);
        if (box != null) {
            tasks.forEachLong(box.count(), i -> task.run(part(meta, box.coords(i), offset, shape)));
        }
    }

    private static Part part(ArrayMetadata meta, long[] coords, long[] offset, long[] shape) {
        int rank = coords.length;
        long[] arrayShape = meta.shape();
        long[] inChunk = new long[rank];
        long[] inRegion = new long[rank];
        long[] extent = new long[rank];
        boolean whole = true;
        for (int d = 0; d < rank; d++) {
            long cs = meta.chunkGrid().chunkStart(d, coords[d]);
            long cl = meta.chunkGrid().chunkLength(d, coords[d]);
            long start = Math.max(offset[d], cs);
            long end = Math.min(offset[d] + shape[d], cs + cl);
            inChunk[d] = start - cs;
            inRegion[d] = start - offset[d];
            extent[d] = end - start;
            // Whole: the region covers every element of this chunk that lies inside the array.
            long inArrayEnd = Math.min(cs + cl, arrayShape[d]);
            if (start != cs || end != inArrayEnd) {
                whole = false;
            }
        }
        return new Part(coords, inChunk, inRegion, extent, whole);
    }
}
