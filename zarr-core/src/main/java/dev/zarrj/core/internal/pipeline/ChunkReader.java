package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ChunkDecodeException;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ValueChangedException;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.BufferLender;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.internal.metadata.ArrayMetadata;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;
import java.util.function.Supplier;

/**
 * Where the chunks of one array are read and decoded: a region (the data flow of DESIGN.md) or
 * one whole chunk.
 *
 * <p>Region → chunks it touches (grid, {@link ChunkBox}) → their share of the region
 * ({@link ChunkPart}) → keys (key encoding) → store → codec chain → the touched part, decoded
 * into the caller's array. Chunks are read in parallel ({@link ParallelTasks}: the caller and the
 * executor's threads), a bounded number at a time, so that a large read holds a bounded number of
 * decoded chunks; a mostly absent region asks only for the chunks a listing shows
 * ({@link SparseRead}). An absent chunk reads as the fill value. A region cut along chunk
 * boundaries with several chunks across its last dimension goes a {@link RowGroup} at a time:
 * the chunks side by side are decoded whole, then copied into the result together, row after row.
 *
 * <p>When {@code ioConcurrency} exceeds the executor's parallelism, the whole chunks of a region
 * are fetched ahead of their decoding with that many requests outstanding ({@link Prefetch},
 * through {@link Store#getAsync(StoreKey)}), their undecoded bytes bounded by
 * {@link ChunkBuffers#BUDGET}; chunks read in part go through their partial decoder, whose several
 * ranges of one value are then requested at once through the store's asynchronous operations
 * ({@link StoreByteSource}). Otherwise each chunk task reads its own chunk, as it always has.
 *
 * <p>With a {@link ChunkCache}, a chunk's decode first looks there (region reads, whole chunks,
 * and whatever reads through them), chunks found there are not fetched ahead, and a chunk
 * decoded on a miss is decoded whole and kept (unless larger than a quarter of the budget, which
 * then reads as without a cache).
 *
 * <p>Selections read chosen chunks through {@link #readChunks}: each chunk task decodes what it
 * needs through one {@link ChunkSource}, the one place where a selection's chunks are fetched and
 * decoded.
 *
 * <p>Bound to one array's metadata: a handle whose metadata changes makes a new reader.
 * Immutable and thread-safe.
 */
public final class ChunkReader {
    private final Store store;
    private final String prefix;
    private final ArrayMetadata meta;
    private final ParallelTasks tasks;
    private final ChunkErrors errors;
    private final int ioConcurrency;
    private final long coalesceGap;
    /**
     * The last chunk spec for which the chain had no partial decoder, or null: the chain's answer
     * depends on the spec alone (creating a decoder reads nothing, and a store-backed source
     * never knows its size), so it is asked once per spec rather than once per chunk, which
     * spares working out the chain's specs and sizes for every chunk read in part. Chunks of a
     * regular grid share one spec.
     */
    private volatile ChunkSpec noPartialDecoder;
    /** Decoded chunks kept between reads, or null. */
    private final ChunkCache cache;
    /** The store the cache knows the chunks by: the one beneath any storage transformers. */
    private final Store cacheStore;
    /** The metadata that decide how a chunk decodes, as cache entries record them. */
    private final String layout;

    /** A chunk's stored value fetched ahead, and the cache's version of its key taken before the request. */
    private record Fetched(Optional<ByteBuffer> bytes, long version) {}

    /**
     * @param store  the store the array's chunks are read from, through any storage transformers
     * @param prefix the array's key prefix ({@code ""} for a root array, else ending in {@code /})
     * @param meta   the array's metadata
     * @param tasks  where chunks are decoded; its parallelism is how many chunks of one read are
     *               in progress at once
     */
    public ChunkReader(Store store, String prefix, ArrayMetadata meta, ParallelTasks tasks) {
        this(store, prefix, meta, tasks, tasks.parallelism());
    }

    /**
     * @param ioConcurrency how many store requests one read keeps outstanding; above
     *                      {@code tasks.parallelism()}, chunks are fetched ahead of decoding
     */
    public ChunkReader(Store store, String prefix, ArrayMetadata meta, ParallelTasks tasks, int ioConcurrency) {
        this(store, prefix, meta, tasks, ioConcurrency, 0);
    }

    /**
     * @param coalesceGap ranges of one stored value that partial decoders read, at most this many
     *                    bytes apart, are read in one request ({@link StoreByteSource})
     */
    public ChunkReader(Store store, String prefix, ArrayMetadata meta, ParallelTasks tasks, int ioConcurrency,
                       long coalesceGap) {
        this(store, prefix, meta, tasks, ioConcurrency, coalesceGap, null, null);
    }

    /**
     * @param cache      decoded chunks kept between reads, or null
     * @param cacheStore the store beneath any storage transformers, by which the cache knows the
     *                   chunks (and writers invalidate them)
     */
    public ChunkReader(Store store, String prefix, ArrayMetadata meta, ParallelTasks tasks, int ioConcurrency,
                       long coalesceGap, ChunkCache cache, Store cacheStore) {
        this.cache = cache;
        this.cacheStore = cacheStore != null ? cacheStore : store;
        if (cache != null) {
            com.fasterxml.jackson.databind.node.ObjectNode doc = meta.document().deepCopy();
            doc.remove(java.util.List.of("attributes", "shape", "dimension_names"));
            this.layout = doc.toString();
        } else {
            this.layout = null;
        }
        this.ioConcurrency = ioConcurrency;
        this.coalesceGap = coalesceGap;
        this.store = store;
        this.prefix = prefix;
        this.meta = meta;
        this.tasks = tasks;
        this.errors = new ChunkErrors(prefix);
    }

    /**
     * Reads the region {@code [offset, offset + dst.shape)} into {@code dst}.
     *
     * @param dstZeroed whether {@code dst} is known to hold zeros, so absent chunks with a zero
     *                  fill value need no copying
     * @throws ChunkDecodeException naming the key of a chunk that cannot be decoded
     */
    public void read(long[] offset, NdArray dst, boolean dstZeroed) {
        long[] shape = dst.shape();
        ChunkBox box = ChunkBox.of(meta, offset, shape);
        if (box == null) {
            return;
        }
        if (readsRowGroups(box, offset, shape)) {
            try (PendingResult ready = new PendingResult(() -> dst, 0)) {
                readRowGroups(box, offset, shape, ready, dstZeroed);
            }
            return;
        }
        Runnable fill = dstZeroed && NdArray.holdsAfterAllocate(meta.dataType(), meta.fillValue()) ? null
                : () -> dst.fill(meta.fillValue());
        SparseRead.ChunkRead read =
                (s, i) -> readPart(s, ChunkPart.of(meta, box.coords(i), offset, shape), dst, dstZeroed, null);
        if (ioConcurrency <= tasks.parallelism()) {
            SparseRead.read(tasks, store, prefix, meta, box, read, fill);
            return;
        }
        SparseRead.read(tasks, store, prefix, meta, box, read, fill, (s, n, index) -> {
            // The cache's version of each key requested, taken before its request.
            Map<Long, Long> versions = cache == null ? null : new ConcurrentHashMap<>();
            Prefetch ahead = new Prefetch(s, n, j -> {
                ChunkPart part = ChunkPart.of(meta, box.coords(index.applyAsLong(j)), offset, shape);
                return part.wholeChunk() ? aheadKey(part.coords(), j, versions) : null;
            }, ioConcurrency, ChunkBuffers.BUDGET);
            try {
                ahead.pump();
                tasks.forEachLong(n, j -> {
                    ChunkPart part = ChunkPart.of(meta, box.coords(index.applyAsLong(j)), offset, shape);
                    try {
                        readPart(s, part, dst, dstZeroed, part.wholeChunk() ? () -> taken(ahead, j, versions) : null);
                    } catch (RuntimeException | Error e) {
                        ahead.stop(e);
                        throw e;
                    } finally {
                        ahead.release(j);
                    }
                });
            } finally {
                ahead.stop();
            }
        });
    }

    /** Regions from this size are read by {@link #readNew} with the allocation beside the chunks. */
    static final long ALLOCATE_BESIDE_FROM = 8 << 20;

    /**
     * What {@link #readNew} does with a chunk read before the array it goes to exists: decode it
     * into pooled memory, or only fetch its stored bytes, or nothing (the array is allocated
     * first).
     */
    enum SetAside { DECODED, FETCHED, NONE }

    /**
     * Reads the region {@code [offset, offset + shape)} into a new array from {@code allocate}.
     * For a region of at least {@link #ALLOCATE_BESIDE_FROM} bytes of a few chunks read where they
     * are decoded (a local store, no cache), allocating is the read's first piece
     * ({@link PendingResult}): rather than wait while the JVM zeroes the array on one thread, the
     * other threads set chunks aside meanwhile: decoded, up to {@link #PARK_BUDGET}, or, for
     * chunks that decode to more than a quarter of it (shards), only fetched, up to
     * {@link #FETCH_BUDGET}, to be decoded into the array once it exists. Chunks that are only
     * copied (their elements' bytes) gain nothing from it, and are read into the array once it
     * exists.
     *
     * @throws ChunkDecodeException naming the key of a chunk that cannot be decoded
     */
    public NdArray readNew(long[] offset, long[] shape, Supplier<NdArray> allocate) {
        ChunkBox box = ChunkBox.of(meta, offset, shape);
        SetAside aside = setAside(box, shape);
        if (aside == SetAside.NONE) {
            NdArray dst = allocate.get();
            read(offset, dst, true);
            return dst;
        }
        try (PendingResult pending = new PendingResult(allocate,
                aside == SetAside.DECODED ? PARK_BUDGET : FETCH_BUDGET)) {
            if (aside == SetAside.DECODED && readsRowGroups(box, offset, shape)) {
                readRowGroups(box, offset, shape, pending, true);
                return pending.result();
            }
            tasks.forEachLong(box.count() + 1, j -> {
                if (j == 0) {
                    pending.allocateAndDrain();
                    return;
                }
                ChunkPart part = ChunkPart.of(meta, box.coords(j - 1), offset, shape);
                if (part.wholeChunk() && pending.worthParking()) {
                    pending.park(setAside(part, aside == SetAside.DECODED));
                    return;
                }
                NdArray dst = pending.await();
                pending.help();
                if (dst != null) {
                    readPart(store, part, dst, true, null);
                }
            });
            return pending.result();
        }
    }

    /** How much decoded memory {@link #readNew} parks while it allocates. */
    static final long PARK_BUDGET = ChunkBuffers.BUDGET / 4;

    /**
     * How many stored bytes {@link #readNew} fetches ahead while it allocates: more than it parks
     * decoded, since a fetch takes about a quarter of a decode's time and holds no decoded copy
     * (zarr bench's sharded whole read, eight 28 MB shards: 203 ms with none fetched ahead, 194
     * with a quarter of the pool, 188 with half).
     */
    private static final long FETCH_BUDGET = ChunkBuffers.BUDGET / 2;

    /**
     * What {@link #readNew} sets aside while it allocates: see there. Decoded only when a chunk
     * decodes to at most a quarter of {@link #PARK_BUDGET}; a larger one (a 32 MiB shard of zarr
     * bench) would park alone and be copied in on one thread where its decode into the array
     * runs its inner chunks in parallel (parked decoded, zarr bench's sharded whole read gained
     * nothing: 1,286 and 1,234 MB/s before, 1,284 and 1,193 after), so it is only fetched.
     */
    SetAside setAside(long[] offset, long[] shape) {
        return setAside(ChunkBox.of(meta, offset, shape), shape);
    }

    private SetAside setAside(ChunkBox box, long[] shape) {
        double bytes = meta.dataType().size();
        for (long n : shape) {
            bytes *= n;
        }
        if (box == null || box.count() < 2 || box.count() >= SparseRead.MIN_CHUNKS || bytes < ALLOCATE_BESIDE_FROM
                || tasks.parallelism() < 2 || ioConcurrency > tasks.parallelism() || cache != null
                || meta.dataType().kind().isVariableLength()) {
            return SetAside.NONE;
        }
        ChunkSpec first = meta.chunkSpec(box.coords(0));
        if (meta.codecs().decodesByCopying(first)) {
            return SetAside.NONE;
        }
        return first.byteSize() <= PARK_BUDGET / 4 ? SetAside.DECODED : SetAside.FETCHED;
    }

    /**
     * A whole chunk read before the array exists, for {@link PendingResult} to put into the array
     * once it does: decoded into reused memory and copied in, or fetched and decoded in. An absent
     * chunk with a zero fill value needs nothing, since the new array holds zeros.
     * ({@link #setAside} leaves chunks that are only copied to {@link #readPart}, so no
     * store-lent memory is held here.)
     */
    private PendingResult.Parked setAside(ChunkPart part, boolean decode) {
        StoreKey key = meta.chunkKey(prefix, part.coords());
        ChunkSpec spec = meta.chunkSpec(part.coords());
        BufferLease lease = new BufferLease();
        try {
            Optional<ByteBuffer> stored = store.get(key, lease::borrow);
            NdArray decoded = decode && stored.isPresent() ? decodeWhole(stored.get(), spec, lease) : null;
            long held = stored.isEmpty() ? 0 : decode ? spec.byteSize() : stored.get().remaining();
            return new PendingResult.Parked() {
                @Override
                public long bytes() {
                    return held;
                }

                @Override
                public void putInto(NdArray result) {
                    if (!decode) {
                        readPart(store, part, result, true, () -> new Fetched(stored, -1));
                        return;
                    }
                    try {
                        if (decoded == null) {
                            fillRegion(result, part, true);
                        } else {
                            RegionCopy.copy(decoded, part.ofChunk(), result, part.inRegion());
                        }
                    } catch (RuntimeException | OutOfMemoryError e) {
                        throw errors.reading(key, spec.byteSize(), e);
                    }
                }

                @Override
                public void release() {
                    lease.close();
                }
            };
        } catch (RuntimeException | OutOfMemoryError e) {
            lease.close();
            throw errors.reading(key, spec.byteSize(), e);
        } catch (Error e) {
            lease.close();
            throw e;
        }
    }

    /** A whole chunk decoded from its stored bytes into memory {@code memory} lends. */
    private NdArray decodeWhole(ByteBuffer stored, ChunkSpec spec, BufferLender memory) {
        int size = (int) spec.byteSize();
        NdArray chunk = NdArray.wrap(spec.dataType(), memory.borrow(size).slice(0, size), spec.shape());
        meta.codecs().decodeInto(stored, spec, Region.whole(spec.shape()), chunk, new long[spec.rank()]);
        return chunk;
    }

    /**
     * Whether a region read goes through {@link #readRowGroups}: chunks that decompress into reused
     * memory on their way into the result, or that are stored as their elements' own bytes (then
     * viewed where the store puts them), more than one of them across the region's last dimension
     * and each more than one row, the region cut along chunk boundaries (or the array's end: a
     * chunk cut short would be decoded whole for a part of it), read where they are decoded (a
     * local store, no cache), a group of them taking at most half of {@link #PARK_BUDGET}.
     */
    boolean readsRowGroups(long[] offset, long[] shape) {
        return readsRowGroups(ChunkBox.of(meta, offset, shape), offset, shape);
    }

    private boolean readsRowGroups(ChunkBox box, long[] offset, long[] shape) {
        int last = shape.length - 1;
        if (box == null || last < 1 || box.extents()[last] < 2 || box.count() >= SparseRead.MIN_CHUNKS
                || cache != null || ioConcurrency > tasks.parallelism()
                || meta.dataType().kind().isVariableLength()) {
            return false;
        }
        ChunkSpec first = meta.chunkSpec(box.coords(0));
        long rows = 1;
        for (int d = 0; d < last; d++) {
            rows *= first.shape()[d];
        }
        DefaultCodecChain chain = meta.codecs();
        return rows >= 2 && (chain.decompressesInPlace(first) || chain.decodesByCopying(first))
                && first.byteSize() * box.extents()[last] <= PARK_BUDGET / 2
                && ChunkPart.of(meta, box.coords(0), offset, shape).wholeChunk()
                && ChunkPart.of(meta, box.coords(box.count() - 1), offset, shape).wholeChunk();
    }

    /**
     * Reads a region {@link #readsRowGroups} accepts into {@code pending}'s array, a
     * {@link RowGroup} at a time: the first piece allocates the array (or takes it, when it
     * exists), each other piece reads one chunk and decodes it whole into its group's memory, and
     * the piece that completes a group copies the group into the array, or parks it while the
     * array is being allocated and the budget has room.
     */
    private void readRowGroups(ChunkBox box, long[] offset, long[] shape, PendingResult pending, boolean dstZeroed) {
        int across = (int) box.extents()[shape.length - 1];
        RowGroup[] groups = new RowGroup[(int) (box.count() / across)];
        BiConsumer<NdArray, ChunkPart> fill = (dst, part) -> fillRegion(dst, part, dstZeroed);
        boolean lent = meta.codecs().decodesByCopying(meta.chunkSpec(box.coords(0)));
        for (int g = 0; g < groups.length; g++) {
            ChunkPart[] parts = new ChunkPart[across];
            StoreKey[] keys = new StoreKey[across];
            for (int m = 0; m < across; m++) {
                parts[m] = ChunkPart.of(meta, box.coords((long) g * across + m), offset, shape);
                keys[m] = meta.chunkKey(prefix, parts[m].coords());
            }
            groups[g] = new RowGroup(parts, fill, copy -> copyLent(keys, lent, copy));
        }
        boolean[] parked = new boolean[groups.length];
        try {
            tasks.forEachLong(box.count() + 1, j -> {
                if (j == 0) {
                    pending.allocateAndDrain();
                    return;
                }
                int g = (int) ((j - 1) / across);
                int member = (int) ((j - 1) % across);
                RowGroup group = groups[g];
                if (!group.decoded(member, readDecoded(group.part(member), group.memory()))) {
                    return;
                }
                if (pending.worthParking()) {
                    parked[g] = true;
                    pending.park(group);
                    return;
                }
                NdArray dst = pending.await();
                pending.help();
                try {
                    if (dst != null) {
                        group.putInto(dst);
                    }
                } finally {
                    group.release();
                }
            });
        } finally {
            releaseUnparked(groups, parked);
        }
    }

    /**
     * Gives back the memory of the groups not parked: those a failure left unfinished (the others
     * have given it back already, and then this does nothing), each even when another fails.
     */
    private static void releaseUnparked(RowGroup[] groups, boolean[] parked) {
        RuntimeException failure = null;
        for (int g = 0; g < groups.length; g++) {
            try {
                if (!parked[g]) {
                    groups[g].release();
                }
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * A whole chunk read and decoded into {@code memory}; null when it is absent. A chunk that is
     * only copied (its elements' own bytes) is a view of its stored value, which the store may lend
     * ({@link Store#getLent}) until {@code memory} is closed.
     */
    private NdArray readDecoded(ChunkPart part, BufferLease memory) {
        StoreKey key = meta.chunkKey(prefix, part.coords());
        ChunkSpec spec = meta.chunkSpec(part.coords());
        try {
            if (meta.codecs().decodesByCopying(spec)) {
                Optional<ByteBuffer> bytes = store.getLent(key, memory);
                if (bytes.isEmpty()) {
                    return null;
                }
                ByteBuffer b = bytes.get();
                // The wrong size fails in the codec, naming both sizes.
                return b.remaining() == spec.byteSize() ? NdArray.wrap(spec.dataType(), b.duplicate(), spec.shape())
                        : decodeWhole(b, spec, memory);
            }
            try (BufferLease stored = new BufferLease()) {
                Optional<ByteBuffer> bytes = store.get(key, stored::borrow);
                return bytes.isEmpty() ? null : decodeWhole(bytes.get(), spec, memory);
            }
        } catch (RuntimeException | OutOfMemoryError e) {
            throw errors.reading(key, spec.byteSize(), e);
        }
    }

    /**
     * Runs a copy out of a chunk's stored bytes, turning a fault on memory a store lent (a mapped
     * file truncated meanwhile, reported by the JDK as an {@link InternalError}) into a
     * {@link StoreException} naming the key. The JDK may report a fault in compiled code later than
     * the copy, at the thread's next call into native code at the latest: {@code copy} also
     * gives the lent memory back (unmapping it is such a call).
     */
    private void copyLent(StoreKey key, boolean lent, Runnable copy) {
        copyLent(new StoreKey[] {key}, lent, copy);
    }

    /** {@link #copyLent(StoreKey, boolean, Runnable)} out of several chunks' stored bytes at once. */
    private void copyLent(StoreKey[] keys, boolean lent, Runnable copy) {
        try {
            copy.run();
        } catch (InternalError e) {
            if (!lent) {
                throw e;
            }
            throw new StoreException(errors.describe("reading", keys) + (keys.length == 1 ? ": the" : ": a")
                    + " stored value became unreadable"
                    + " while it was copied (truncated in place by another writer?): " + e.getMessage(), e);
        }
    }

    /**
     * @param fetched the chunk's stored value, fetched ahead; null to read it here
     */
    private void readPart(Store from, ChunkPart part, NdArray dst, boolean dstZeroed, Supplier<Fetched> fetched) {
        StoreKey key = meta.chunkKey(prefix, part.coords());
        ChunkSpec spec = meta.chunkSpec(part.coords());
        DefaultCodecChain chain = meta.codecs();
        try {
            Fetched ahead = fetched == null ? null : fetched.get(); // null: not fetched ahead after all
            if (cache != null && cache.fits(spec.byteSize())) {
                readCached(from, key, spec, part, dst, dstZeroed, ahead);
                return;
            }
            if (ahead != null) {
                Optional<ByteBuffer> bytes = ahead.bytes();
                if (bytes.isEmpty()) {
                    fillRegion(dst, part, dstZeroed);
                } else {
                    chain.decodeInto(bytes.get(), spec, part.ofChunk(), dst, part.inRegion());
                }
                return;
            }
            if (!part.wholeChunk() && !spec.equals(noPartialDecoder) && !readWhole(spec, part)) {
                for (int attempt = 1; ; attempt++) {
                    try (StoreByteSource source = source(from, key, true)) {
                        Optional<ArrayPartialDecoder> partial = chain.partialDecoder(source, spec);
                        if (partial.isEmpty()) {
                            noPartialDecoder = spec;
                            break;
                        }
                        if (!partial.get().decodeInto(part.ofChunk(), dst, part.inRegion())) {
                            fillRegion(dst, part, dstZeroed);
                        }
                        return;
                    } catch (RuntimeException e) {
                        startOver(from, key, attempt, e);
                    }
                }
            }
            if (!part.wholeChunk() && readWhole(spec, part) && readPlanes(from, key, spec, part, dst, dstZeroed)) {
                return;
            }
            // Memory a store lends (a mapped file) only where Java code copies it (decodesByCopying).
            boolean lent = chain.decodesByCopying(spec);
            copyLent(key, lent, () -> {
                try (BufferLease lease = new BufferLease()) {
                    Optional<ByteBuffer> bytes = lent ? from.getLent(key, lease) : from.get(key, lease::borrow);
                    if (bytes.isEmpty()) {
                        fillRegion(dst, part, dstZeroed);
                        return;
                    }
                    chain.decodeInto(bytes.get(), spec, part.ofChunk(), dst, part.inRegion());
                }
            });
        } catch (RuntimeException | OutOfMemoryError e) {
            throw errors.reading(key, spec.byteSize(), e);
        }
    }

    /**
     * A part {@link #readWhole} chose that spans at most three quarters of the chunk's planes (its
     * first dimension): those planes are read in one ranged request into reused memory and the
     * part is copied from there, rather than the whole chunk.
     *
     * @return false when the part spans more of the planes: the caller reads the chunk whole
     */
    private boolean readPlanes(Store from, StoreKey key, ChunkSpec spec, ChunkPart part, NdArray dst,
                               boolean dstZeroed) {
        long[] shape = spec.shape();
        long planes = part.extent()[0];
        if (shape.length == 0 || planes * 4 > shape[0] * 3) {
            return false;
        }
        long planeBytes = spec.byteSize() / shape[0];
        ByteRange range = ByteRange.of(part.inChunk()[0] * planeBytes, planes * planeBytes);
        try (BufferLease lease = new BufferLease(); RangeReader reader = from.rangeReader(key)) {
            List<Optional<ByteBuffer>> got;
            try {
                got = reader.getAll(List.of(range), lease::borrow);
            } catch (StoreException e) {
                if (e.getCause() instanceof IllegalArgumentException) {
                    throw new CorruptDataException("bytes: the encoded chunk is shorter than the " + spec.byteSize()
                            + " bytes its shape needs: " + e.getMessage(), e);
                }
                throw e;
            }
            if (got.size() != 1 || got.get(0).isEmpty()) {
                fillRegion(dst, part, dstZeroed);
                return true;
            }
            ByteBuffer bytes = got.get(0).get();
            if (bytes.remaining() != planes * planeBytes) {
                throw new CorruptDataException("bytes: reading " + range + " of the encoded chunk returned "
                        + bytes.remaining() + " bytes");
            }
            long[] viewShape = shape.clone();
            viewShape[0] = planes;
            long[] inView = part.inChunk().clone();
            inView[0] = 0;
            RegionCopy.copy(NdArray.wrap(spec.dataType(), bytes, viewShape), Region.of(inView, part.extent()), dst,
                    part.inRegion());
            return true;
        }
    }

    /**
     * Whether a part of a chunk stored as its elements' own bytes is better read whole than
     * through the partial decoder: when chunks are read where they are decoded (no fetching
     * ahead, the way of a local store), the part is a span the {@code bytes} codec's partial
     * decoder reads in one request anyway (more than {@link #MANY_RUNS} runs, or runs covering at
     * least half of their span), and that span is at least a quarter of the chunk. The whole chunk
     * (or only the planes the part spans, {@link #readPlanes}) then goes into reused memory and
     * the part is copied from there into the caller's array,
     * where the partial decoder reads the span into new memory, gathers its runs into more new
     * memory and copies that in turn: reading up to four times the bytes in the same one request
     * costs less than those copies and allocations.
     */
    private boolean readWhole(ChunkSpec spec, ChunkPart part) {
        if (ioConcurrency > tasks.parallelism() || !meta.codecs().encodesAsInMemory(spec)) {
            return false;
        }
        long[] chunk = spec.shape();
        long[] at = part.inChunk();
        long[] extent = part.extent();
        int rank = chunk.length;
        // A run: the innermost dimension with every trailing dimension the part holds whole.
        int inner = Math.max(rank - 1, 0);
        while (inner > 0 && extent[inner] == chunk[inner]) {
            inner--;
        }
        long stride = 1;
        long first = 0;
        long last = 0;
        long needed = 1;
        long runs = 1;
        for (int d = rank - 1; d >= 0; d--) {
            if (extent[d] == 0) {
                return false;
            }
            first += at[d] * stride;
            last += (at[d] + extent[d] - 1) * stride;
            needed *= extent[d];
            if (d < inner) {
                runs *= extent[d];
            }
            stride *= chunk[d];
        }
        long span = last - first + 1;
        return (runs > MANY_RUNS || span <= 2 * needed) && span * 4 >= stride;
    }

    /** Above this many runs the {@code bytes} codec's partial decoder reads their whole span in one request. */
    private static final int MANY_RUNS = 1024;

    /**
     * {@link #readPart} through the cache: the part copied from the cached chunk, else the chunk
     * fetched (or taken as {@code ahead} fetched it), decoded whole, kept, and its part copied.
     */
    private void readCached(Store from, StoreKey key, ChunkSpec spec, ChunkPart part, NdArray dst, boolean dstZeroed,
                            Fetched ahead) {
        ChunkCache.Key ck = new ChunkCache.Key(cacheStore, key.value());
        if (ahead != null) {
            if (ahead.bytes().isEmpty()) {
                fillRegion(dst, part, dstZeroed);
                return;
            }
            NdArray chunk = decodeWhole(ahead.bytes().get(), spec);
            cache.put(ck, layout, ahead.version(), chunk);
            RegionCopy.copy(chunk, part.ofChunk(), dst, part.inRegion());
            return;
        }
        if (cache.copyInto(ck, layout, part.ofChunk(), dst, part.inRegion())) {
            return;
        }
        long version = cache.version(ck);
        try (BufferLease lease = new BufferLease()) {
            Optional<ByteBuffer> bytes = from.get(key, lease::borrow);
            if (bytes.isEmpty()) {
                fillRegion(dst, part, dstZeroed);
                return;
            }
            NdArray chunk = decodeWhole(bytes.get(), spec);
            cache.put(ck, layout, version, chunk); // a copy: the chunk may share the lease's memory
            RegionCopy.copy(chunk, part.ofChunk(), dst, part.inRegion());
        }
    }

    private NdArray decodeWhole(ByteBuffer bytes, ChunkSpec spec) {
        NdArray chunk = meta.codecs().decode(bytes, spec);
        CodecChain.checkDecodedShape("codecs", chunk, spec);
        return chunk;
    }

    // ---- chunks of a selection ----

    /** What a read of chosen chunks does with one of them. */
    @FunctionalInterface
    public interface ChunkVisit {
        /** Decodes what chunk {@code j} contributes through {@code chunk}, which is open for this call only. */
        void visit(long j, ChunkSource chunk);
    }

    /**
     * Reads {@code n} chosen chunks, the {@code j}-th at grid coordinates {@code coords.apply(j)},
     * in parallel as {@link #read region reads} do: each visit decodes the parts of its chunk it
     * needs through one {@link ChunkSource}, so a chunk is fetched and decoded once however many
     * parts are taken from it. With {@code ioConcurrency} above the parallelism, the chunks for
     * which {@code whole} holds are fetched ahead ({@link Prefetch}).
     *
     * @throws ChunkDecodeException naming the key of a chunk that cannot be decoded
     */
    public void readChunks(long n, LongFunction<long[]> coords, LongPredicate whole, ChunkVisit visit) {
        if (ioConcurrency <= tasks.parallelism()) {
            tasks.forEachLong(n, j -> visitChunk(j, coords.apply(j), null, visit));
            return;
        }
        Map<Long, Long> versions = cache == null ? null : new ConcurrentHashMap<>();
        Prefetch ahead = new Prefetch(store, n, j -> whole.test(j) ? aheadKey(coords.apply(j), j, versions) : null,
                ioConcurrency, ChunkBuffers.BUDGET);
        try {
            ahead.pump();
            tasks.forEachLong(n, j -> {
                try {
                    visitChunk(j, coords.apply(j), whole.test(j) ? () -> taken(ahead, j, versions) : null, visit);
                } catch (RuntimeException | Error e) {
                    ahead.stop(e);
                    throw e;
                } finally {
                    ahead.release(j);
                }
            });
        } finally {
            ahead.stop();
        }
    }

    /**
     * The key of the chunk at {@code coords} to fetch ahead as piece {@code j}, or null when the
     * cache holds it; notes the cache's version of the key before it is requested.
     */
    private StoreKey aheadKey(long[] coords, long j, Map<Long, Long> versions) {
        StoreKey key = meta.chunkKey(prefix, coords);
        if (versions != null && cache.fits(meta.chunkSpec(coords).byteSize())) {
            ChunkCache.Key ck = new ChunkCache.Key(cacheStore, key.value());
            if (cache.contains(ck, layout)) {
                return null; // its decoder copies it from the cache
            }
            versions.put(j, cache.version(ck));
        }
        return key;
    }

    /** Piece {@code j} as fetched ahead with the cache's version noted, or null when it was not fetched ahead. */
    private static Fetched taken(Prefetch ahead, long j, Map<Long, Long> versions) {
        Optional<ByteBuffer> bytes = ahead.take(j);
        if (bytes == null) {
            return null;
        }
        Long v = versions == null ? null : versions.remove(j);
        return new Fetched(bytes, v == null ? -1 : v);
    }

    private void visitChunk(long j, long[] coords, Supplier<Fetched> fetched, ChunkVisit visit) {
        for (int attempt = 1; ; attempt++) {
            try (ChunkSource chunk = new ChunkSource(coords, fetched)) {
                try {
                    visit.visit(j, chunk);
                    return;
                } catch (RuntimeException e) {
                    try {
                        // A visit writes the same elements when made again: all of it starts over.
                        startOver(store, chunk.key, attempt, e);
                    } catch (RuntimeException notAgain) {
                        throw errors.reading(chunk.key, chunk.spec.byteSize(), notAgain);
                    }
                } catch (OutOfMemoryError e) {
                    throw errors.reading(chunk.key, chunk.spec.byteSize(), e);
                }
            }
        }
    }

    /** How many times a chunk read in ranged requests is read when its value keeps changing meanwhile. */
    static final int MAX_ATTEMPTS = 8;

    /**
     * A source of the ranges of a stored value for a partial decoder; closed when the decode ends.
     *
     * @param lends whether it lends pooled memory: only for a source used by one decode call
     */
    private StoreByteSource source(Store from, StoreKey key, boolean lends) {
        return new StoreByteSource(from, key, coalesceGap, StoreByteSource.MAX_MERGED,
                ioConcurrency > tasks.parallelism() ? ioConcurrency : 0, lends);
    }

    /**
     * Returns when {@code e} says that the value of {@code key} changed while its ranges were
     * being read ({@link ValueChangedException}, however a codec wrapped it) and attempt
     * {@code attempt} was not the last, so that the caller reads the chunk again with a new
     * source; otherwise throws: {@code e} itself, or after the last attempt a
     * {@link StoreException} naming the key.
     */
    private static void startOver(Store from, StoreKey key, int attempt, RuntimeException e) {
        ValueChangedException changed = null;
        for (Throwable t = e; t != null && changed == null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ValueChangedException v) {
                changed = v;
            }
        }
        if (changed == null) {
            throw e;
        }
        if (attempt >= MAX_ATTEMPTS) {
            throw new StoreException(from.describe() + ": key '" + key + "' was replaced while being read, "
                    + attempt + " times in a row; gave up (last: " + changed.detail() + ")", changed);
        }
    }

    /** Where chunks are decoded in parallel: also for the pieces of one chunk a visit decodes. */
    public ParallelTasks tasks() {
        return tasks;
    }

    /**
     * The shape of the pieces the chunk at these coordinates is read by independently (a shard's
     * inner chunks, {@link ArrayPartialDecoder#innerChunkShape}); empty when it is decoded whole
     * or by element ranges.
     */
    public Optional<long[]> innerChunkShape(long[] coords) {
        ChunkSpec spec = meta.chunkSpec(coords);
        Object[] known = innerShapes;
        if (known != null && spec.equals(known[0])) {
            return cast(known[1]);
        }
        // Creating a decoder reads nothing.
        Optional<long[]> inner;
        try (StoreByteSource none = new StoreByteSource(store, meta.chunkKey(prefix, coords), 0,
                StoreByteSource.MAX_MERGED, 0, false)) {
            inner = meta.codecs().partialDecoder(none, spec)
                    .flatMap(ArrayPartialDecoder::innerChunkShape)
                    .filter(s -> valid(s, spec.shape()));
        }
        innerShapes = new Object[] {spec, inner};
        return inner;
    }

    @SuppressWarnings("unchecked")
    private static Optional<long[]> cast(Object o) {
        return ((Optional<long[]>) o).map(long[]::clone);
    }

    private static boolean valid(long[] inner, long[] chunk) {
        if (inner.length != chunk.length) {
            return false;
        }
        for (int d = 0; d < inner.length; d++) {
            if (inner[d] <= 0 || chunk[d] % inner[d] != 0) {
                return false;
            }
        }
        return true;
    }

    /** The last chunk spec asked about in {@link #innerChunkShape} and its answer. */
    private volatile Object[] innerShapes;

    /**
     * One chunk of a {@link #readChunks} read: decodes regions of it, fetching it at most once
     * (through its partial decoder, which reads a shard's index once, or whole) and lends scratch
     * arrays that go back to the pool when the visit ends. Confined to its visit's thread.
     */
    public final class ChunkSource implements AutoCloseable {
        private final long[] coords;
        private final StoreKey key;
        private final ChunkSpec spec;
        private final Supplier<Fetched> fetched;
        private final BufferLease lease = new BufferLease();
        private Optional<ByteBuffer> bytes;
        private ArrayPartialDecoder partial;
        /** What {@link #partial} reads through, closed with this source. */
        private StoreByteSource partialSource;
        private NdArray decoded;
        /** The buffer behind {@link #scratch}'s arrays (one element, replaced when too small). */
        private final ByteBuffer[] scratch = new ByteBuffer[1];
        private int expected = 1;
        private int used;
        private boolean fetchWhole;

        private ChunkSource(long[] coords, Supplier<Fetched> fetched) {
            this.coords = coords;
            this.key = meta.chunkKey(prefix, coords);
            this.spec = meta.chunkSpec(coords);
            this.fetched = fetched;
        }

        /** The chunk's grid coordinates. */
        public long[] coords() {
            return coords.clone();
        }

        /** The chunk's spec. */
        public ChunkSpec spec() {
            return spec;
        }

        /**
         * How many regions the visit will decode (default 1): with more than one, a chunk that
         * must be decoded whole is decoded once and the regions copied from it.
         */
        public void expectParts(int parts) {
            expected = parts;
        }

        /**
         * Declares that the visit's parts, however many, are decoded from the chunk's stored value
         * fetched whole once (or as fetched ahead), each part decoding only what it covers (a
         * shard's touched inner chunks): for a chunk read in pieces ({@link #innerChunkShape})
         * whose parts touch most of its pieces, one request rather than one per part, and no
         * decode of the whole chunk.
         */
        public void fetchWhole() {
            fetchWhole = true;
        }

        /**
         * Decodes {@code inChunk} of the chunk into {@code dst} at {@code at}. After
         * {@link #fetchWhole}, once a first call has returned, further calls may come from several
         * threads at once (each decodes from the bytes fetched).
         *
         * @return false when the chunk is not stored; {@code dst} is then unchanged
         */
        public boolean decodeInto(Region inChunk, NdArray dst, long[] at) {
            used++;
            if (decoded != null) {
                RegionCopy.copy(decoded, inChunk, dst, at);
                return true;
            }
            if (cache != null && cache.fits(spec.byteSize())) {
                return decodeCached(inChunk, dst, at);
            }
            boolean whole = Arrays.equals(inChunk.shape(), spec.shape());
            DefaultCodecChain chain = meta.codecs();
            if (bytes == null && fetched == null && !fetchWhole && !(whole && expected == 1)) {
                if (partial == null && !spec.equals(noPartialDecoder)) {
                    // Not lending: several parts decode through it, from several threads, until the visit ends.
                    partialSource = source(store, key, false);
                    partial = chain.partialDecoder(partialSource, spec).orElse(null);
                    if (partial == null) {
                        noPartialDecoder = spec;
                    }
                }
                if (partial != null) {
                    return partial.decodeInto(inChunk, dst, at);
                }
            }
            if (bytes == null) {
                Fetched ahead = fetched != null ? fetched.get() : null;
                bytes = ahead != null ? ahead.bytes() : store.get(key, lease::borrow);
            }
            if (bytes.isEmpty()) {
                return false;
            }
            if (expected - used <= 0 || fetchWhole) {
                chain.decodeInto(bytes.get(), spec, inChunk, dst, at);
                return true;
            }
            decoded = Memory.chunk(spec, lease);
            chain.decodeInto(bytes.get(), spec, Region.whole(spec.shape()), decoded, new long[spec.rank()]);
            RegionCopy.copy(decoded, inChunk, dst, at);
            return true;
        }

        /**
         * {@link #decodeInto} through the cache: the chunk found there (read, never changed), or
         * fetched (or taken as fetched ahead), decoded whole once and kept.
         */
        private boolean decodeCached(Region inChunk, NdArray dst, long[] at) {
            if (bytes != null) {
                return false; // found absent before
            }
            ChunkCache.Key ck = new ChunkCache.Key(cacheStore, key.value());
            Fetched ahead = fetched != null ? fetched.get() : null;
            long version;
            if (ahead != null) {
                bytes = ahead.bytes();
                version = ahead.version();
            } else {
                NdArray hit = cache.peek(ck, layout);
                if (hit != null) {
                    decoded = hit;
                    RegionCopy.copy(decoded, inChunk, dst, at);
                    return true;
                }
                version = cache.version(ck);
                bytes = store.get(key, lease::borrow);
            }
            if (bytes.isEmpty()) {
                return false;
            }
            decoded = Memory.chunk(spec, lease);
            meta.codecs().decodeInto(bytes.get(), spec, Region.whole(spec.shape()), decoded, new long[spec.rank()]);
            cache.put(ck, layout, version, decoded); // a copy: the chunk is in leased memory
            RegionCopy.copy(decoded, inChunk, dst, at);
            return true;
        }

        /**
         * A scratch array of this shape and the array's data type, content unspecified, reused by
         * later calls of this visit (each call invalidates the previous array).
         */
        public NdArray scratch(long[] shape) {
            return scratchIn(scratch, shape);
        }

        /**
         * Lends scratch arrays as {@link #scratch} does, from a buffer of the lender's own that
         * goes back when the visit ends: for each thread that decodes parts of this chunk in
         * parallel (after {@link #fetchWhole}). May be called from any thread; each lender is
         * confined to one thread at a time.
         */
        public Function<long[], NdArray> scratchLender() {
            ByteBuffer[] own = new ByteBuffer[1];
            return shape -> scratchIn(own, shape);
        }

        /** A scratch array of this shape over {@code held[0]}, borrowed anew when missing or too small. */
        private NdArray scratchIn(ByteBuffer[] held, long[] shape) {
            if (spec.dataType().kind().isVariableLength()) {
                return NdArray.allocate(spec.dataType(), shape);
            }
            int n = scratchBytes(shape);
            if (held[0] == null || held[0].capacity() < n) {
                held[0] = lease.borrow(n);
            }
            return NdArray.wrap(spec.dataType(), held[0].duplicate().clear().limit(n).slice(), shape);
        }

        private int scratchBytes(long[] shape) {
            long n = spec.dataType().size();
            for (long s : shape) {
                n *= s;
            }
            return Math.toIntExact(n);
        }

        @Override
        public void close() {
            try {
                if (partialSource != null) {
                    partialSource.close();
                }
            } finally {
                lease.close();
            }
        }
    }

    private void fillRegion(NdArray dst, ChunkPart part, boolean dstZeroed) {
        if (dstZeroed && NdArray.holdsAfterAllocate(meta.dataType(), meta.fillValue())) {
            return;
        }
        dst.fill(meta.fillValue(), part.ofRegion());
    }

    /**
     * Chunks from this size are read by {@link #readAllocating} when they are stored as their
     * elements' bytes, bare or compressed, up to half the pool's budget: larger ones would not
     * get pooled memory.
     */
    static final long SPLIT_FROM = 1 << 20;
    /**
     * A chunk stored as its elements' bytes, bare or behind bytes→bytes codecs, read with the
     * whole thread budget: one thread reads the value into reused memory while another allocates
     * the result (a new array, which the JVM zeroes: as long as reading the value from the page
     * cache, for a chunk of megabytes). Then a bare chunk's bytes are copied into the result, each
     * thread its share, from opposite ends ({@link AllocatingRead}); a compressed one is decompressed straight into it.
     * A store reading a file into new heap memory copies it through a temporary buffer of the JDK,
     * so that read, the zeroing and the copy or decompression would otherwise all happen one after
     * the other on one thread.
     *
     * @return the chunk, or the fill value when it is absent
     */
    private NdArray readAllocating(StoreKey key, ChunkSpec spec, BufferLease lease) {
        DefaultCodecChain chain = meta.codecs();
        AllocatingRead job = new AllocatingRead(
                () -> Memory.array(spec.dataType(), spec.shape(), () -> errors.describe("reading", key)),
                () -> store.get(key, lease::borrow), chain.hasBytesToBytes() ? -1 : (int) spec.byteSize());
        tasks.forEach(2, job::run);
        Optional<ByteBuffer> bytes = job.value();
        NdArray chunk = job.result();
        if (bytes.isEmpty()) {
            if (!NdArray.holdsAfterAllocate(spec.dataType(), spec.fillValue())) {
                chunk.fill(spec.fillValue());
            }
            return chunk;
        }
        if (chain.hasBytesToBytes()) {
            chain.decodeInto(bytes.get(), spec, Region.whole(spec.shape()), chunk, new long[spec.rank()]);
            return chunk;
        }
        if (!job.copied()) {
            // Memory of its own (the pool had no room), which the codec wraps, or the wrong size, which it reports.
            NdArray own = chain.decode(bytes.get(), spec);
            CodecChain.checkDecodedShape("codecs", own, spec);
            return own;
        }
        return chunk;
    }

    /**
     * Reads one whole chunk as the codec chain decodes it, without copying it into a separate
     * array: with {@code bytes} alone the result is the store's own (caller-owned) buffer, except
     * that with more than one thread a chunk of at least {@link #SPLIT_FROM} bytes stored as its
     * elements' bytes, bare or compressed, is read by {@link #readAllocating}, which shares the
     * work between them.
     *
     * <p>With a bytes→bytes codec (compression, a checksum), or any chain that does not decode to a
     * view of the stored bytes (a shard: its whole value is read, then its inner chunks decoded
     * into a new array), the stored bytes are only an intermediate: they go into a reused buffer
     * ({@link ChunkBuffers}), so that the read leaves
     * the decoded chunk as its only new memory. Fresh heap costs more than its allocation: the
     * first write to each page of a heap the collector has just grown is a page fault, and a
     * small read that allocated twice its size paid twice the faults (docs/performance.md). A
     * decoded chunk that still shares memory with that buffer is copied out before the buffer
     * goes back.
     *
     * @throws ChunkDecodeException naming the key when it cannot be decoded
     */
    public NdArray readChunk(long[] coords) {
        StoreKey key = meta.chunkKey(prefix, coords);
        ChunkSpec spec = meta.chunkSpec(coords);
        DefaultCodecChain chain = meta.codecs();
        ChunkCache.Key ck = null;
        long version = 0;
        if (cache != null && cache.fits(spec.byteSize())) {
            ck = new ChunkCache.Key(cacheStore, key.value());
            NdArray hit = cache.copy(ck, layout);
            if (hit != null) {
                return hit;
            }
            version = cache.version(ck);
        }
        try (BufferLease lease = new BufferLease()) {
            if ((chain.encodesAsInMemory(spec) || chain.decompressesInPlace(spec)) && tasks.parallelism() > 1
                    && spec.byteSize() >= SPLIT_FROM && spec.byteSize() <= ChunkBuffers.BUDGET / 2) {
                NdArray chunk = readAllocating(key, spec, lease);
                if (ck != null) {
                    cache.put(ck, layout, version, chunk);
                }
                return chunk;
            }
            // Only a chain that is the elements as they lie in memory decodes to a view of the
            // stored bytes, which then must be the caller's: any other (a shard, a byte swap, a
            // compressor) decodes into new memory, so its stored bytes are an intermediate.
            Optional<ByteBuffer> bytes = chain.hasBytesToBytes() || !chain.encodesAsInMemory(spec)
                    ? store.get(key, lease::borrow) : store.get(key);
            if (bytes.isEmpty()) {
                NdArray fill = Memory.array(spec.dataType(), spec.shape(), () -> errors.describe("reading", key));
                if (!NdArray.holdsAfterAllocate(spec.dataType(), spec.fillValue())) {
                    fill.fill(spec.fillValue());
                }
                return fill;
            }
            NdArray chunk = chain.decode(bytes.get(), spec);
            CodecChain.checkDecodedShape("codecs", chunk, spec);
            if (ck != null) {
                cache.put(ck, layout, version, chunk); // a copy: the caller owns what is returned
            }
            if (!chunk.holdsObjects() && chunk.bytes().isDirect() && lease.lentDirect()) {
                // A codec that returns a view of its input (crc32c strips its checksum so) left
                // the chunk in pooled memory; heap leases never go back to the pool.
                NdArray own = NdArray.allocate(chunk.dataType(), chunk.shape());
                RegionCopy.copy(chunk, Region.whole(chunk.shape()), own, new long[chunk.shape().length]);
                chunk = own;
            }
            return chunk;
        } catch (RuntimeException | OutOfMemoryError e) {
            throw errors.reading(key, spec.byteSize(), e);
        }
    }
}
