package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.store.Store;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decoded chunks kept for reuse, least recently used dropped first once their bytes exceed a
 * budget ({@code Zarr.builder().chunkCache(bytes)}; none by default).
 *
 * <p>Entries are keyed by the store object the array's handle was opened on (by identity, so two
 * stores never share entries, even two over one location) and the chunk's store key (which holds
 * the array's path), and hold the array's layout (data type, fill value, chunk shape and codecs)
 * they were decoded with: a handle still bound to metadata an overwrite replaced never reads
 * another layout's chunks. Writes through any handle of the same {@code Zarr} and store {@link #invalidate}
 * the chunks they wrote once they are stored; erasing a node (and overwriting it) or resizing an
 * array invalidates its whole prefix. A write by another {@code Zarr}, store object or process is
 * not seen until the entry is dropped.
 *
 * <p>A read that missed may put what it decoded only when no invalidation of that key (of its
 * stripe) happened since it started fetching: otherwise a read racing with a write could put the
 * chunk as it was before the write, after the write's invalidation, and keep it.
 *
 * <p>Entries are never handed out: readers get copies ({@link #copyInto}, {@link #copy}), and
 * what is put is a copy too, so no caller can change a cached chunk. Thread-safe.
 */
public final class ChunkCache {
    private static final int STRIPES = 256;

    private final long budget;
    private final Object lock = new Object();
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private final long[] versions = new long[STRIPES];
    private long bytes;

    /** A chunk: the store it is read from, by identity, and its key. */
    public static final class Key {
        private final Store store;
        private final String key;
        private final int hash;

        public Key(Store store, String key) {
            this.store = store;
            this.key = key;
            this.hash = System.identityHashCode(store) * 31 + key.hashCode();
        }

        int stripe() {
            return Math.floorMod(hash, STRIPES);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.store == store && k.key.equals(key);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** A decoded chunk, the layout it was decoded with, and the memory it holds ({@link #entryBytes}). */
    private record Entry(String layout, NdArray chunk, long bytes) {}

    /** What a string or byte string element costs besides its content: the object and the reference to it. */
    private static final long OBJECT_BYTES = 24;

    /**
     * The memory a chunk holds: its bytes; for elements that are objects, their content (two bytes
     * per character of a string, the bytes of a byte string) and what each object costs, which
     * {@link NdArray#byteSize()} only estimates from the data type.
     */
    static long entryBytes(NdArray chunk) {
        if (!chunk.holdsObjects()) {
            return chunk.byteSize();
        }
        boolean strings = chunk.dataType().kind() == ElementKind.STRING;
        long n = chunk.elementCount();
        long bytes = 0;
        for (long i = 0; i < n; i++) {
            bytes += OBJECT_BYTES + (strings ? 2L * chunk.getString(i).length() : chunk.getBytes(i).length);
        }
        return bytes;
    }

    /** @param budget the decoded bytes kept at most */
    public ChunkCache(long budget) {
        if (budget <= 0) {
            throw new IllegalArgumentException("the chunk cache needs a positive budget, got " + budget);
        }
        this.budget = budget;
    }

    /** The decoded bytes kept at most. */
    public long budget() {
        return budget;
    }

    /** The decoded bytes kept now. */
    public long bytes() {
        synchronized (lock) {
            return bytes;
        }
    }

    /** How many chunks are kept now. */
    public int size() {
        synchronized (lock) {
            return entries.size();
        }
    }

    /** Whether a chunk of this many decoded bytes is worth decoding whole to keep: at most a quarter of the budget. */
    boolean fits(long chunkBytes) {
        return chunkBytes <= budget / 4;
    }

    /** What {@link #put} must be given, taken before the chunk is fetched. */
    long version(Key key) {
        synchronized (lock) {
            return versions[key.stripe()];
        }
    }

    /** The chunk cached for {@code key} in {@code layout}, or null; it must not be changed or handed out. */
    private NdArray lookup(Key key, String layout) {
        synchronized (lock) {
            Entry e = entries.get(key);
            return e != null && e.layout().equals(layout) ? e.chunk() : null;
        }
    }

    /**
     * The cached chunk itself, or null: for readers inside the pipeline that only copy from it
     * and never hand it out or change it.
     */
    NdArray peek(Key key, String layout) {
        return lookup(key, layout);
    }

    /** Whether the chunk is cached in {@code layout} (it may be dropped the moment after). */
    boolean contains(Key key, String layout) {
        return lookup(key, layout) != null;
    }

    /** Copies {@code region} of the cached chunk into {@code dst} at {@code dstOffset}; false when it is not cached. */
    boolean copyInto(Key key, String layout, Region region, NdArray dst, long[] dstOffset) {
        NdArray chunk = lookup(key, layout);
        if (chunk == null) {
            return false;
        }
        // Entries are never changed once put, so copying outside the lock is safe.
        RegionCopy.copy(chunk, region, dst, dstOffset);
        return true;
    }

    /** A copy of the cached chunk, or null. */
    NdArray copy(Key key, String layout) {
        NdArray chunk = lookup(key, layout);
        return chunk == null ? null : copyOf(chunk);
    }

    /**
     * Keeps a copy of {@code chunk} unless an invalidation of its key came after {@code version}
     * was taken, or it holds more than a quarter of the budget ({@link #entryBytes}); drops the least recently used
     * chunks to stay within the budget.
     */
    void put(Key key, String layout, long version, NdArray chunk) {
        long size = entryBytes(chunk);
        if (!fits(size)) {
            return;
        }
        NdArray own = copyOf(chunk);
        synchronized (lock) {
            if (versions[key.stripe()] != version) {
                return;
            }
            Entry old = entries.put(key, new Entry(layout, own, size));
            bytes += size - (old == null ? 0 : old.bytes());
            for (Iterator<Entry> it = entries.values().iterator(); bytes > budget && it.hasNext(); ) {
                bytes -= it.next().bytes();
                it.remove();
            }
        }
    }

    /** Drops the chunk at {@code key} of {@code store}. */
    public void invalidate(Store store, String key) {
        Key k = new Key(store, key);
        synchronized (lock) {
            versions[k.stripe()]++;
            Entry old = entries.remove(k);
            if (old != null) {
                bytes -= old.bytes();
            }
        }
    }

    /** Drops every chunk of {@code store} whose key starts with {@code prefix} ({@code ""}: all of the store's). */
    public void invalidatePrefix(Store store, String prefix) {
        synchronized (lock) {
            for (int i = 0; i < STRIPES; i++) {
                versions[i]++;
            }
            for (Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<Key, Entry> e = it.next();
                if (e.getKey().store == store && e.getKey().key.startsWith(prefix)) {
                    bytes -= e.getValue().bytes();
                    it.remove();
                }
            }
        }
    }

    private static NdArray copyOf(NdArray chunk) {
        NdArray own = NdArray.allocate(chunk.dataType(), chunk.shape());
        RegionCopy.copy(chunk, Region.whole(chunk.shape()), own, new long[chunk.rank()]);
        return own;
    }
}
