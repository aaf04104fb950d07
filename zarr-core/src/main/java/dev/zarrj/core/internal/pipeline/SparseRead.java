package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.keyencoding.ChunkKeyEncoding;
import dev.zarrj.api.store.ForwardingStore;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.ReadMemory;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.internal.keyencoding.DefaultChunkKeyEncoding;
import dev.zarrj.core.internal.keyencoding.V2ChunkKeyEncoding;
import dev.zarrj.core.internal.metadata.ArrayMetadata;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import java.util.function.LongUnaryOperator;

/**
 * Reads a region chunk by chunk, asking the store only for chunks a listing says are there when
 * most of the region's chunks are absent: an absent chunk otherwise costs a request (a
 * {@code stat} on a file system) each, and a sparse array of millions of chunks takes seconds.
 *
 * <p>When to list. A listing of the array's prefix costs about as much per stored key as a
 * request per chunk, so it pays only when the region's absent chunks outnumber the array's
 * stored keys. The read first reads a sample of {@value #SAMPLE} of the region's chunks, spread
 * at random (they are part of the read, and a wrapper notes which were there, so a dense read
 * asks for nothing more); when at most {@value #MAX_SAMPLE_PRESENT} were present and the region
 * is not the whole grid, {@value #GRID_SAMPLE} requests estimate how many keys the whole array
 * holds. The listing is used when that estimate, taken high, is below the region's estimated
 * absent chunks. Regions of fewer than {@value #MIN_CHUNKS} chunks, stores that are not
 * listable and arrays with storage transformers (whose listing need not show what reads see)
 * are read chunk by chunk as before.
 *
 * <p>Why skipping is safe. Every chunk key is the array's prefix followed by the encoded
 * coordinates, so a listing of that prefix covers every chunk key, whatever the key encoding. A
 * chunk is skipped only when its key names neither a listed key nor a listed folder (a folder
 * where a chunk should be is read, so that the store says what it found).
 * For the {@code default} and {@code v2} encodings listed keys are decoded to coordinates and
 * kept when they encode back to the same key; for any other encoding every chunk's key is
 * encoded and looked up among the listed ones, which trusts nothing of its {@code decode}. A
 * chunk written after the listing may read as fill values: reads are not snapshots.
 *
 * <p>A cancelled operation ({@link Cancellation}) stops before listing and while matching keys;
 * its chunks stop in {@link ParallelTasks}.
 */
final class SparseRead {
    /** Regions touching fewer chunks are read chunk by chunk without a sample. */
    static final long MIN_CHUNKS = 1024;
    /** How many of the region's chunks are read first, to estimate how many are absent. */
    static final int SAMPLE = 32;
    /** The sample's most present chunks for which a listing is still considered. */
    static final int MAX_SAMPLE_PRESENT = 8;
    /** How many requests estimate the stored keys of an array larger than the region. */
    static final int GRID_SAMPLE = 64;

    /** Reads one chunk of the region through the store given. */
    @FunctionalInterface
    interface ChunkRead {
        void read(Store store, long index);
    }

    /**
     * Reads {@code n} chunks of the region through the store given, the {@code j}-th being the
     * chunk numbered {@code index.applyAsLong(j)}: by default as {@link ParallelTasks} runs them,
     * or fetched ahead of decoding ({@link Prefetch}).
     */
    @FunctionalInterface
    interface Chunks {
        void read(Store store, long n, LongUnaryOperator index);
    }

    private SparseRead() {}

    /**
     * Reads every chunk of {@code box} with {@code read}, skipping those a listing shows absent
     * when that is worth it.
     *
     * @param fill fills the whole destination with the fill value, or null when it already holds it;
     *             run before the chunks that the listing shows present are read
     */
    static void read(ParallelTasks tasks, Store store, String prefix, ArrayMetadata meta, ChunkBox box,
                     ChunkRead read, Runnable fill) {
        read(tasks, store, prefix, meta, box, read, fill,
                (s, n, index) -> tasks.forEachLong(n, j -> read.read(s, index.applyAsLong(j))));
    }

    /**
     * {@link #read(ParallelTasks, Store, String, ArrayMetadata, ChunkBox, ChunkRead, Runnable)}
     * with the chunks beyond the sample read by {@code chunks}.
     */
    static void read(ParallelTasks tasks, Store store, String prefix, ArrayMetadata meta, ChunkBox box,
                     ChunkRead read, Runnable fill, Chunks chunks) {
        if (box.count() < MIN_CHUNKS || !meta.storageTransformers().isEmpty() || !listable(store)) {
            chunks.read(store, box.count(), i -> i);
            return;
        }
        long[] sample = sample(box.count(), SAMPLE, new SplittableRandom(box.count() * 31 + SAMPLE));
        boolean[] seen = new boolean[sample.length];
        tasks.forEach(sample.length, j -> {
            Noting noting = new Noting(store);
            read.read(noting, sample[j]);
            seen[j] = noting.sawValue;
        });
        int presentInSample = 0;
        for (boolean s : seen) {
            presentInSample += s ? 1 : 0;
        }
        Cancellation.check();
        long[] present = presentInSample <= MAX_SAMPLE_PRESENT
                && worthListing(store, prefix, meta, box, sample.length, presentInSample)
                ? listed(store, prefix, meta, box) : null;
        if (present == null) {
            chunks.read(store, box.count() - sample.length, j -> skipping(sample, j));
            return;
        }
        long[] todo = present;
        if (fill != null) {
            fill.run(); // over what the sample read too: every listed chunk is read (again)
        } else {
            todo = Arrays.stream(present).filter(i -> Arrays.binarySearch(sample, i) < 0).toArray();
        }
        long[] listedChunks = todo;
        chunks.read(store, listedChunks.length, j -> listedChunks[(int) j]);
    }

    /** The {@code j}-th number, from 0, that is not in {@code sorted} (distinct, ascending). */
    static long skipping(long[] sorted, long j) {
        long i = j;
        for (long s : sorted) {
            if (s <= i) {
                i++;
            } else {
                break;
            }
        }
        return i;
    }

    private static boolean listable(Store store) {
        StoreCapabilities c = store.capabilities();
        return c.readable() && c.listable();
    }

    /**
     * Whether the array's stored keys, estimated high, are fewer than the region's absent chunks,
     * estimated from the sample.
     */
    private static boolean worthListing(Store store, String prefix, ArrayMetadata meta, ChunkBox box, int sampled,
                                        int presentInSample) {
        double absent = (double) box.count() * (sampled - presentInSample) / sampled;
        long[] grid = meta.chunkGrid().gridShape(meta.shape());
        double gridCount = 1;
        for (long g : grid) {
            gridCount *= g;
        }
        if (gridCount <= box.count()) {
            return gridCount * (presentInSample + 1) / (sampled + 1) <= absent;
        }
        ChunkBox whole = new ChunkBox(new long[grid.length], grid, (long) gridCount);
        long[] probes = sample(whole.count(), GRID_SAMPLE, new SplittableRandom(whole.count() * 31 + GRID_SAMPLE));
        int found = 0;
        for (long i : probes) {
            if (store.exists(meta.chunkKey(prefix, whole.coords(i)))) {
                found++;
                if (gridCount * (found + 1) / (probes.length + 1) > absent) {
                    return false;
                }
            }
        }
        return gridCount * (found + 1) / (probes.length + 1) <= absent;
    }

    /**
     * The numbers, in {@code box}, of the chunks whose key names something the listing shows under
     * the array's prefix, a value or a folder, sorted.
     */
    private static long[] listed(Store store, String prefix, ArrayMetadata meta, ChunkBox box) {
        List<String> names = names(store, prefix);
        ChunkKeyEncoding encoding = meta.keyEncoding();
        int rank = meta.rank();
        long[] out = new long[16];
        int n = 0;
        if (encoding instanceof DefaultChunkKeyEncoding || encoding instanceof V2ChunkKeyEncoding) {
            for (String name : names) {
                Optional<long[]> coords = encoding.decode(name, rank);
                if (coords.isPresent() && encoding.encode(coords.get()).equals(name)) {
                    long i = box.indexOf(coords.get());
                    if (i >= 0) {
                        if (n == out.length) {
                            out = Arrays.copyOf(out, 2 * n);
                        }
                        out[n++] = i;
                    }
                }
            }
        } else {
            Set<String> listedNames = new HashSet<>(names);
            for (long i = 0; i < box.count(); i++) {
                if ((i & 0xFFFF) == 0) {
                    Cancellation.check();
                }
                // As a key, so that an encoding giving an invalid one fails as it would otherwise.
                String key = meta.chunkKey(prefix, box.coords(i)).value();
                if (listedNames.contains(key.substring(prefix.length()))) {
                    if (n == out.length) {
                        out = Arrays.copyOf(out, 2 * n);
                    }
                    out[n++] = i;
                }
            }
        }
        return Arrays.stream(out, 0, n).sorted().distinct().toArray();
    }

    /**
     * Everything under {@code prefix}, relative to it: the keys, and the folders without their
     * trailing {@code /}. Folders count because a folder where a chunk should be is not an absent
     * chunk: reading it makes the store say what it found, and {@code list_prefix} shows no empty
     * folder. Walked with {@code list_dir}, which costs a file system store what one
     * {@code list_prefix} costs.
     */
    private static List<String> names(Store store, String prefix) {
        List<String> names = new ArrayList<>();
        ArrayDeque<String> folders = new ArrayDeque<>();
        folders.add(prefix);
        while (!folders.isEmpty()) {
            ListDirResult dir = store.listDir(folders.poll());
            for (StoreKey key : dir.keys()) {
                names.add(key.value().substring(prefix.length()));
            }
            for (String folder : dir.prefixes()) {
                names.add(folder.substring(prefix.length(), folder.length() - 1));
                folders.add(folder);
            }
        }
        return names;
    }

    /** {@code k} distinct numbers below {@code n} (all of them when {@code n <= k}), sorted. */
    static long[] sample(long n, int k, SplittableRandom random) {
        if (n <= k) {
            long[] all = new long[(int) n];
            Arrays.setAll(all, i -> i);
            return all;
        }
        Set<Long> picked = new HashSet<>();
        while (picked.size() < k) {
            picked.add(random.nextLong(n));
        }
        return picked.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    /** A store that notes whether any read found a value. */
    private static final class Noting extends ForwardingStore {
        volatile boolean sawValue;

        Noting(Store store) {
            super(store);
        }

        private <T> Optional<T> note(Optional<T> value) {
            if (value.isPresent()) {
                sawValue = true;
            }
            return value;
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            return note(super.get(key));
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
            return note(super.get(key, allocate));
        }

        @Override
        public Optional<ByteBuffer> getLent(StoreKey key, ReadMemory memory) {
            return note(super.getLent(key, memory));
        }

        @Override
        public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
            return note(super.get(key, range));
        }

        @Override
        public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key) {
            return super.getAsync(key).thenApply(this::note);
        }

        @Override
        public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key, ByteRange range) {
            return super.getAsync(key, range).thenApply(this::note);
        }

        @Override
        public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
            List<Optional<ByteBuffer>> values = super.getPartialValues(ranges);
            values.forEach(this::note);
            return values;
        }

        @Override
        public CompletableFuture<List<Optional<ByteBuffer>>> getPartialValuesAsync(List<KeyRange> ranges) {
            return super.getPartialValuesAsync(ranges).thenApply(values -> {
                values.forEach(this::note);
                return values;
            });
        }

        @Override
        public RangeReader rangeReader(StoreKey key) {
            RangeReader reader = super.rangeReader(key);
            return new RangeReader() {
                @Override
                public Optional<ByteBuffer> get(ByteRange range) {
                    return note(reader.get(range));
                }

                @Override
                public List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges) {
                    List<Optional<ByteBuffer>> values = reader.getAll(ranges);
                    values.forEach(Noting.this::note);
                    return values;
                }

                @Override
                public List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges, IntFunction<ByteBuffer> allocate) {
                    List<Optional<ByteBuffer>> values = reader.getAll(ranges, allocate);
                    values.forEach(Noting.this::note);
                    return values;
                }

                @Override
                public CompletableFuture<List<Optional<ByteBuffer>>> getAllAsync(List<ByteRange> ranges) {
                    return reader.getAllAsync(ranges).thenApply(values -> {
                        values.forEach(Noting.this::note);
                        return values;
                    });
                }

                @Override
                public boolean versioned() {
                    return reader.versioned();
                }

                @Override
                public void close() {
                    reader.close();
                }
            };
        }

        @Override
        public OptionalLong size(StoreKey key) {
            OptionalLong s = super.size(key);
            if (s.isPresent()) {
                sawValue = true;
            }
            return s;
        }

        @Override
        public boolean exists(StoreKey key) {
            boolean e = super.exists(key);
            if (e) {
                sawValue = true;
            }
            return e;
        }
    }
}
