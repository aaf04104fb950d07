package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.ArrayPartialEncoder;
import dev.zarrj.api.codec.ArrayRegionEncoder;
import dev.zarrj.api.codec.BufferLender;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.WriteEmptyChunks;
import dev.zarrj.core.internal.metadata.ArrayMetadata;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Where the chunks of one array are encoded and written: a region, or one whole chunk.
 *
 * <p>Region → chunks it touches (grid, {@link ChunkBox}) → their share of the region
 * ({@link ChunkPart}) → codec chain → store. A share that covers its whole chunk is encoded from
 * the caller's array, in place when its elements are contiguous; a share of part of a chunk is a
 * read, modify, write of the stored chunk under the chunk's lock ({@link ChunkLocks}), and a
 * whole chunk is stored under that lock too, so that concurrent writers of one chunk in this
 * process lose nothing; when the
 * store offers conditional writes, the chunk is stored only if unchanged since it was read
 * (retried otherwise), so that writers in other processes lose nothing either. Chunks are
 * written in parallel ({@link ParallelTasks}), a bounded number at a time. A chunk left all fill
 * value is erased rather than stored when {@link WriteEmptyChunks#SKIP} says so.
 *
 * <p>When {@code ioConcurrency} exceeds the executor's parallelism, whole chunks are stored through
 * {@link Store#setAsync} (and erased through {@link Store#eraseAsync}) with up to that many
 * requests outstanding ({@link PendingWrites}): an encoding thread hands its chunk's encoded
 * value to the store and goes on to the next chunk, the value's memory leased until the request
 * completes and bounded by {@link ChunkBuffers#BUDGET}. A write returns once every request has
 * completed. Chunks written in part, and {@link #writeChunk}, still use the blocking operations.
 *
 * <p>Bound to one array's metadata: a handle whose metadata changes makes a new writer.
 * Immutable and thread-safe.
 */
public final class ChunkWriter {
    private final Store store;
    private final ChunkLocks locks;
    private final String prefix;
    private final ArrayMetadata meta;
    private final ParallelTasks tasks;
    private final WriteEmptyChunks writeEmptyChunks;
    private final ChunkErrors errors;
    private final int ioConcurrency;
    /** The decoded chunks to invalidate after writing, or null; keyed by {@code underlying}. */
    private final ChunkCache cache;
    private final Store underlying;

    /**
     * @param store            the store the array's chunks are read and written through, with
     *                         any storage transformers
     * @param underlying       the store beneath the storage transformers: the place whose chunks
     *                         partial updates lock ({@link ChunkLocks})
     * @param prefix           the array's key prefix ({@code ""} for a root array, else ending in
     *                         {@code /})
     * @param meta             the array's metadata
     * @param tasks            where chunks are encoded; its parallelism is how many chunks of
     *                         one write are in progress at once
     * @param writeEmptyChunks what to do with chunks that are all fill value
     */
    public ChunkWriter(Store store, Store underlying, String prefix, ArrayMetadata meta, ParallelTasks tasks,
                       WriteEmptyChunks writeEmptyChunks) {
        this(store, underlying, prefix, meta, tasks, writeEmptyChunks, tasks.parallelism());
    }

    /**
     * @param ioConcurrency how many store requests one write keeps outstanding; above
     *                      {@code tasks.parallelism()}, whole chunks are stored through
     *                      {@link Store#setAsync} ({@link PendingWrites})
     */
    public ChunkWriter(Store store, Store underlying, String prefix, ArrayMetadata meta, ParallelTasks tasks,
                       WriteEmptyChunks writeEmptyChunks, int ioConcurrency) {
        this(store, underlying, prefix, meta, tasks, writeEmptyChunks, ioConcurrency, null);
    }

    /**
     * @param cache decoded chunks kept by reads ({@link ChunkCache}), or null: every chunk a write
     *              touches is invalidated once the write has stored it (or failed)
     */
    public ChunkWriter(Store store, Store underlying, String prefix, ArrayMetadata meta, ParallelTasks tasks,
                       WriteEmptyChunks writeEmptyChunks, int ioConcurrency, ChunkCache cache) {
        this.cache = cache;
        this.underlying = underlying;
        this.ioConcurrency = ioConcurrency;
        this.store = store;
        this.locks = new ChunkLocks(underlying);
        this.prefix = prefix;
        this.meta = meta;
        this.tasks = tasks;
        this.writeEmptyChunks = writeEmptyChunks;
        this.errors = new ChunkErrors(prefix);
    }

    /** Writes {@code src} into the region at {@code offset}. */
    public void write(long[] offset, NdArray src) {
        long[] shape = src.shape();
        ChunkBox box = ChunkBox.of(meta, offset, shape);
        if (box == null) {
            return;
        }
        if (cache == null) {
            write(offset, src, box);
            return;
        }
        try {
            write(offset, src, box);
        } finally {
            for (long i = 0; i < box.count(); i++) {
                cache.invalidate(underlying, meta.chunkKey(prefix, box.coords(i)).value());
            }
        }
    }

    private void write(long[] offset, NdArray src, ChunkBox box) {
        long[] shape = src.shape();
        if (ioConcurrency > tasks.parallelism()) {
            writeBehind(offset, src, box);
            return;
        }
        tasks.forEachLong(box.count(), i -> {
            ChunkPart part = ChunkPart.of(meta, box.coords(i), offset, shape);
            StoreKey key = meta.chunkKey(prefix, part.coords());
            ChunkSpec spec = meta.chunkSpec(part.coords());
            try {
                writePart(key, spec, part, src);
            } catch (RuntimeException | OutOfMemoryError e) {
                throw errors.writing(key, spec.byteSize(), e);
            }
        });
    }

    /**
     * {@link #write} with up to {@code ioConcurrency} requests outstanding: whole chunks are
     * encoded on the threads and stored through {@link PendingWrites}; chunks written in part are
     * updated as always. Returns, or throws the first failure, once every request has completed.
     */
    private void writeBehind(long[] offset, NdArray src, ChunkBox box) {
        long[] shape = src.shape();
        PendingWrites pending = new PendingWrites(store, ioConcurrency, ChunkBuffers.BUDGET, errors);
        try {
            tasks.forEachLong(box.count(), i -> {
                ChunkPart part = ChunkPart.of(meta, box.coords(i), offset, shape);
                StoreKey key = meta.chunkKey(prefix, part.coords());
                ChunkSpec spec = meta.chunkSpec(part.coords());
                try {
                    if (part.wholeChunk()) {
                        writeWhole(key, spec, part, src, pending);
                    } else {
                        writePart(key, spec, part, src);
                    }
                } catch (RuntimeException | OutOfMemoryError e) {
                    RuntimeException reported = errors.writing(key, spec.byteSize(), e);
                    pending.fail(reported);
                    throw reported;
                }
            });
        } finally {
            pending.finish();
        }
    }

    /**
     * Encodes one whole chunk into leased memory and hands it to {@code pending}, which keeps the
     * lease until the store's request completes; erases it instead when it is all fill value and
     * that is configured.
     */
    private void writeWhole(StoreKey key, ChunkSpec spec, ChunkPart part, NdArray src, PendingWrites pending) {
        if (!pending.reserve()) {
            return; // the write failed meanwhile
        }
        BufferLease lease = new BufferLease();
        boolean handedOver = false;
        try {
            DefaultCodecChain chain = meta.codecs();
            boolean edge = !Arrays.equals(part.extent(), spec.shape());
            boolean skip = writeEmptyChunks == WriteEmptyChunks.SKIP;
            NdArray chunk = edge ? null : ContiguousRegion.view(src, part.inRegion(), part.extent());
            ByteBuffer encoded = null;
            if (chunk == null) {
                Optional<ArrayRegionEncoder> gather = edge ? Optional.empty() : chain.regionEncoder(spec);
                if (gather.isPresent()) {
                    Region region = part.ofRegion();
                    if (!(skip && src.isAll(spec.fillValue(), region))) {
                        encoded = gather.get().encode(src, region, lease);
                    }
                } else {
                    if (spec.byteSize() > Integer.MAX_VALUE - 16) {
                        throw tooLarge(key, spec);
                    }
                    chunk = Memory.chunk(spec, lease);
                    if (edge) {
                        chunk.fill(spec.fillValue()); // the part outside the array
                    }
                    RegionCopy.copy(src, part.ofRegion(), chunk, part.inChunk());
                }
            }
            if (chunk != null && !(skip && chunk.isAll(spec.fillValue()))) {
                // The chunk may be leased too: the lease outlives the request, whatever the value shares.
                encoded = chain.encode(chunk, spec, lease);
            }
            handedOver = true;
            // Ordered with partial updates of the chunk until the request completes (ChunkLocks).
            locks.startWhole(key);
            if (encoded == null) {
                lease.close();
                pending.erase(key, spec.byteSize(), () -> locks.endWhole(key));
            } else {
                pending.set(key, spec.byteSize(), encoded, lease, () -> locks.endWhole(key));
            }
        } finally {
            if (!handedOver) {
                lease.close();
                pending.unreserve();
            }
        }
    }

    // ---- chunks of a selection ----

    /** Runs {@code task} for {@code 0..n-1} in parallel, as the chunks of a region write are. */
    public void forEachChunk(long n, java.util.function.LongConsumer task) {
        tasks.forEachLong(n, task);
    }

    /**
     * Changes elements of the chunk at {@code coords}: {@code patch} sets them in an array of the
     * chunk's shape. When {@code covered} (the patch sets every element of the chunk that lies in
     * the array) the chunk is encoded without reading it (the rest, outside the array, is fill
     * value); otherwise it is read, patched and written under the chunk's lock, conditionally when
     * the store offers that, as a region write's partial chunk is ({@link #write}). A chunk left all
     * fill value is erased when {@link WriteEmptyChunks#SKIP} says so, as for region writes.
     */
    public void updateChunk(long[] coords, boolean covered, Consumer<NdArray> patch) {
        StoreKey key = meta.chunkKey(prefix, coords);
        try {
            updateChunk(key, coords, covered, patch);
        } finally {
            if (cache != null) {
                cache.invalidate(underlying, key.value());
            }
        }
    }

    private void updateChunk(StoreKey key, long[] coords, boolean covered, Consumer<NdArray> patch) {
        ChunkSpec spec = meta.chunkSpec(coords);
        try {
            if (covered) {
                withChunk(key, spec, chunk -> {
                    chunk.fill(spec.fillValue());
                    patch.accept(chunk);
                    store(key, spec, chunk);
                });
            } else {
                locks.update(key, () -> update(key, spec, null, null, patch));
            }
        } catch (RuntimeException | OutOfMemoryError e) {
            throw errors.writing(key, spec.byteSize(), e);
        }
    }

    /** Encodes and stores one whole chunk, of the chunk's full shape, at these grid coordinates. */
    public void writeChunk(long[] coords, NdArray chunk) {
        StoreKey key = meta.chunkKey(prefix, coords);
        try {
            store(key, meta.chunkSpec(coords), chunk);
        } finally {
            if (cache != null) {
                cache.invalidate(underlying, key.value());
            }
        }
    }

    private void writePart(StoreKey key, ChunkSpec spec, ChunkPart part, NdArray src) {
        DefaultCodecChain chain = meta.codecs();
        if (!part.wholeChunk()) {
            locks.update(key, () -> update(key, spec, part, src, null));
            return;
        }
        boolean edge = !Arrays.equals(part.extent(), spec.shape());
        NdArray view = edge ? null : ContiguousRegion.view(src, part.inRegion(), part.extent());
        if (view != null) {
            // Codecs leave their input unchanged and stores copy what they are given.
            store(key, spec, view);
            return;
        }
        Optional<ArrayRegionEncoder> gather = edge ? Optional.empty() : chain.regionEncoder(spec);
        if (gather.isPresent()) {
            Region region = part.ofRegion();
            if (writeEmptyChunks == WriteEmptyChunks.SKIP && src.isAll(spec.fillValue(), region)) {
                locks.whole(key, () -> store.erase(key));
            } else {
                setEncoded(key, lender -> gather.get().encode(src, region, lender));
            }
            return;
        }
        withChunk(key, spec, chunk -> {
            if (edge) {
                chunk.fill(spec.fillValue()); // the part outside the array
            }
            RegionCopy.copy(src, part.ofRegion(), chunk, part.inChunk());
            store(key, spec, chunk);
        });
    }

    /**
     * Reads the stored chunk, writes the part into it and stores it: the caller holds the chunk's
     * lock. When the store offers {@linkplain ConditionalWrites conditional writes}, the chunk is
     * stored only if no one changed it since it was read, and read and changed again if someone
     * did ({@link #updateConditionally}); otherwise a plain read, modify, write, which loses
     * nothing only among writers of this process.
     */
    private void update(StoreKey key, ChunkSpec spec, ChunkPart part, NdArray src, Consumer<NdArray> patch) {
        Optional<ConditionalWrites> conditional = store.conditionalWrites();
        if (conditional.isPresent()) {
            updateConditionally(conditional.get(), key, spec, part, src, patch);
            return;
        }
        modify(key, spec, part, src, patch, store.get(key), new Sink() {
            @Override public boolean set(ByteBuffer encoded) {
                store.set(key, encoded);
                return true;
            }

            @Override public boolean store(NdArray chunk) {
                ChunkWriter.this.store(key, spec, chunk);
                return true;
            }
        });
    }

    /** How often a conditional update reads and changes a chunk before it gives up. */
    static final int CONDITIONAL_ATTEMPTS = 100;
    /** The longest pause, in milliseconds, between two attempts of a conditional update. */
    private static final int MAX_BACKOFF_MILLIS = 50;

    /**
     * A read, modify, write that loses no other writer's update, in this process or another:
     * reads the chunk with its version, changes it, and stores it only if the version is still
     * current (or the chunk still absent); when another writer came first, waits a short random
     * time and starts again, up to {@link #CONDITIONAL_ATTEMPTS} times.
     *
     * <p>A chunk the update leaves all fill value is not erased, even when
     * {@link WriteEmptyChunks#SKIP} says so, since an erase cannot be conditional and could drop
     * another process's write made since the read: the fill-value chunk is stored conditionally
     * instead (or nothing is done when the chunk was absent, which reads as fill value). Such a
     * chunk is read as fill values like an absent one; only its storage is not saved.
     */
    private void updateConditionally(ConditionalWrites conditional, StoreKey key, ChunkSpec spec, ChunkPart part,
                                     NdArray src, Consumer<NdArray> patch) {
        for (int attempt = 1; attempt <= CONDITIONAL_ATTEMPTS; attempt++) {
            Optional<ConditionalWrites.VersionedValue> current = conditional.getVersioned(key);
            String version = current.map(ConditionalWrites.VersionedValue::version).orElse(null);
            Sink sink = new Sink() {
                @Override public boolean set(ByteBuffer encoded) {
                    return version == null ? conditional.setIfAbsent(key, encoded)
                            : conditional.setIfMatch(key, encoded, version);
                }

                @Override public boolean store(NdArray chunk) {
                    if (version == null && writeEmptyChunks == WriteEmptyChunks.SKIP
                            && chunk.isAll(spec.fillValue())) {
                        return true; // absent already reads as this chunk, and stays so
                    }
                    DefaultCodecChain chain = meta.codecs();
                    try (BufferLease lease = new BufferLease()) {
                        return set(chain.encode(chunk, spec, lease));
                    }
                }
            };
            if (modify(key, spec, part, src, patch, current.map(ConditionalWrites.VersionedValue::value), sink)) {
                return;
            }
            if (attempt < CONDITIONAL_ATTEMPTS) {
                backOff(key, attempt);
            }
        }
        throw new StoreException(store.describe() + ": " + errors.describe("writing", key) + ": another writer"
                + " changed the chunk each of the " + CONDITIONAL_ATTEMPTS + " times it was read and changed; gave up"
                + " (too many processes writing parts of one chunk or shard at once)", null);
    }

    /** Waits a random time that grows with the attempt, so that racing writers fall out of step. */
    private void backOff(StoreKey key, int attempt) {
        int bound = Math.min(MAX_BACKOFF_MILLIS, 1 << Math.min(attempt, 6));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextInt(bound + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException(store.describe() + ": " + errors.describe("writing", key) + ": interrupted while waiting to retry a"
                    + " conditional write", e);
        }
    }

    /** Where an update puts the changed chunk; false when a conditional write found it changed since the read. */
    private interface Sink {
        /** Stores the encoded chunk. */
        boolean set(ByteBuffer encoded);

        /** Encodes and stores a whole chunk, which may be all fill value. */
        boolean store(NdArray chunk);
    }

    /** Writes the part into the chunk read ({@code bytes}, empty when absent) and hands the result to {@code sink}. */
    private boolean modify(StoreKey key, ChunkSpec spec, ChunkPart part, NdArray src, Consumer<NdArray> patch,
                           Optional<ByteBuffer> bytes,
                           Sink sink) {
        DefaultCodecChain chain = meta.codecs();
        Optional<ArrayPartialEncoder> partialEncoder = chain.partialEncoder(spec);
        if (patch == null && partialEncoder.isPresent()) {
            Optional<ByteBuffer> updated;
            try {
                updated = partialEncoder.get().encode(bytes, src.region(part.ofRegion()), part.inChunk());
            } catch (ZarrException | IllegalArgumentException | IndexOutOfBoundsException e) {
                throw ChunkErrors.decoding(key, e);
            }
            if (updated.isPresent()) {
                return sink.set(updated.get());
            }
            return sink.store(NdArray.filled(meta.dataType(), meta.fillValue(), spec.shape()));
        }
        boolean[] stored = new boolean[1];
        withChunk(key, spec, chunk -> {
            if (bytes.isEmpty()) {
                chunk.fill(spec.fillValue());
            } else {
                long[] origin = new long[spec.rank()];
                try {
                    chain.decodeInto(bytes.get(), spec, Region.whole(spec.shape()), chunk, origin);
                } catch (ZarrException | IllegalArgumentException | IndexOutOfBoundsException e) {
                    throw ChunkErrors.decoding(key, e);
                }
            }
            if (patch != null) {
                patch.accept(chunk);
            } else {
                RegionCopy.copy(src, part.ofRegion(), chunk, part.inChunk());
            }
            stored[0] = sink.store(chunk);
        });
        return stored[0];
    }

    /**
     * Runs {@code body} with a chunk-sized array in reused memory ({@link ChunkBuffers}) whose
     * content is unspecified; the array must not be used after {@code body} returns.
     */
    private void withChunk(StoreKey key, ChunkSpec spec, Consumer<NdArray> body) {
        if (spec.byteSize() > Integer.MAX_VALUE - 16) {
            throw tooLarge(key, spec);
        }
        try (BufferLease lease = new BufferLease()) {
            body.accept(Memory.chunk(spec, lease));
        }
    }

    private ZarrException tooLarge(StoreKey key, ChunkSpec spec) {
        return new ZarrException("ZARR-CODEC", errors.describe("writing", key) + ": the chunk holds "
                + spec.byteSize() + " bytes, more than one Java buffer (2 GiB), so zarrj cannot write it; use"
                + " smaller chunks");
    }

    /**
     * Encodes and stores one whole chunk, or erases it when it is all fill value and that is
     * configured; the store request holds the chunk's lock ({@link ChunkLocks}), already held when
     * this stores a partial update.
     */
    private void store(StoreKey key, ChunkSpec spec, NdArray chunk) {
        if (writeEmptyChunks == WriteEmptyChunks.SKIP && chunk.isAll(spec.fillValue())) {
            locks.whole(key, () -> store.erase(key));
            return;
        }
        DefaultCodecChain chain = meta.codecs();
        setEncoded(key, lender -> chain.encode(chunk, spec, lender));
    }

    /**
     * Stores what {@code encode} returns, lending it reused memory ({@link ChunkBuffers}) for its
     * output and taking all of it back once the store has the value: stores copy what they are
     * given (S18). Encoding runs unlocked; the store request holds the chunk's lock
     * ({@link ChunkLocks}).
     */
    private void setEncoded(StoreKey key, Function<BufferLender, ByteBuffer> encode) {
        try (BufferLease lease = new BufferLease()) {
            ByteBuffer encoded = encode.apply(lease);
            locks.whole(key, () -> store.set(key, encoded));
        }
    }
}
