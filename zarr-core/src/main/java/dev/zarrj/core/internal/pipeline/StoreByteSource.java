package dev.zarrj.core.internal.pipeline;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.IntFunction;

/**
 * One stored value read with ranged requests, for partial decoders. {@link #readAll} coalesces
 * ranges: sorted by start, a range is read in the same request as the ones before it when it
 * starts at most {@code gap} bytes after their end, as long as that request stays within
 * {@code maxMerged} bytes; the bytes in between are read and dropped. So reading k adjacent inner
 * chunks of a shard, or the strided runs of a region of an uncompressed chunk, costs one request,
 * not k. With a gap of 0 only ranges that touch or overlap are merged.
 *
 * <p>With a {@code window} above 0 (the read's {@code ioConcurrency} is above its threads), the
 * requests of one {@link #readAll} go through {@link Store#getPartialValuesAsync}, up to
 * {@code window} of them in flight at once, so that k ranges too far apart to be merged cost about
 * one request's latency, not k; otherwise through the blocking {@link Store#getPartialValues}, as
 * stores that implement it well (one open file for all ranges) expect.
 *
 * <p>When the value is absent, reads return empty, which the chunk reader turns into the fill
 * value: no request is spent asking for the size first.
 *
 * <p>All reads go through one {@link Store#rangeReader} of the key, so that the ranges one
 * partial decode reads (a shard's index, then its inner chunks) come from one version of the
 * value, or a read throws {@link dev.zarrj.api.ValueChangedException} and the chunk reader starts
 * that chunk over. Closing the source closes the reader (an open file); the source is closed when
 * the decode that uses it ends.
 */
final class StoreByteSource implements ByteSource, AutoCloseable {
    /**
     * The default most bytes one coalesced request reads: large enough that merging is rarely cut
     * short, small enough that a merge never reads a huge stretch into one buffer.
     */
    static final long MAX_MERGED = 16L << 20;

    private final Store store;
    private final StoreKey key;
    private final long gap;
    private final long maxMerged;
    private final int window;
    private final RangeReader reader;
    /** What {@link #readAllLent} lends, given back at {@link #close()}. */
    private final BufferLease lease = new BufferLease();
    private final boolean lends;

    /** Merges only ranges that touch or overlap, with blocking requests; lends. */
    StoreByteSource(Store store, StoreKey key) {
        this(store, key, 0, MAX_MERGED, 0, true);
    }

    /**
     * @param gap       ranges at most this many bytes apart are read in one request
     * @param maxMerged the most bytes a request that merges several ranges reads; a single range
     *                  longer than this is still read in one request
     * @param window    how many requests of one {@link #readAll} may be in flight at once through
     *                  the store's asynchronous operations; 0 for blocking requests
     * @param lends     whether {@link #readAllLent} lends pooled memory: only for a source closed
     *                  when the one decode call that uses it returns, since what it lends is held
     *                  until then; otherwise it reads as {@link #readAll} does
     */
    StoreByteSource(Store store, StoreKey key, long gap, long maxMerged, int window, boolean lends) {
        if (gap < 0 || maxMerged < 1 || window < 0) {
            throw new IllegalArgumentException("gap " + gap + ", maxMerged " + maxMerged + ", window " + window);
        }
        this.store = store;
        this.key = key;
        this.gap = gap;
        this.maxMerged = maxMerged;
        this.window = window;
        this.lends = lends;
        this.reader = store.rangeReader(key);
    }

    @Override
    public Optional<ByteBuffer> read(ByteRange range) {
        return reader.get(range);
    }

    /** Gives back the memory {@link #readAllLent} lent, after closing the reader. */
    @Override
    public void close() {
        try {
            reader.close();
        } finally {
            lease.close();
        }
    }

    @Override
    public Optional<List<ByteBuffer>> readAll(List<ByteRange> ranges) {
        return readAll(ranges, false);
    }

    /**
     * Blocking requests read into pooled memory ({@link RangeReader#getAll(List, IntFunction)}),
     * lent until this source is closed, when the source lends at all: the chunk reader closes such
     * a source when the one partial decode that uses it returns. Requests through the store's
     * asynchronous operations get their own memory.
     */
    @Override
    public Optional<List<ByteBuffer>> readAllLent(List<ByteRange> ranges) {
        return readAll(ranges, lends);
    }

    private Optional<List<ByteBuffer>> readAll(List<ByteRange> ranges, boolean lent) {
        int n = ranges.size();
        ByteBuffer[] out = new ByteBuffer[n];
        List<Integer> bounded = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (ranges.get(i) instanceof ByteRange.Bounded) {
                bounded.add(i);
            } else {
                Optional<ByteBuffer> b = read(ranges.get(i));
                if (b.isEmpty()) {
                    return Optional.empty();
                }
                out[i] = b.get();
            }
        }
        bounded.sort(Comparator.comparingLong(i -> ((ByteRange.Bounded) ranges.get(i)).start()));
        // Groups of ranges read in one request: [start, end) and the members.
        List<long[]> groups = new ArrayList<>();
        List<List<Integer>> members = new ArrayList<>();
        for (int i : bounded) {
            ByteRange.Bounded r = (ByteRange.Bounded) ranges.get(i);
            long end = r.start() + r.length();
            long[] g = groups.isEmpty() ? null : groups.get(groups.size() - 1);
            if (g != null && r.start() - g[1] <= gap && Math.max(g[1], end) - g[0] <= maxMerged) {
                g[1] = Math.max(g[1], end);
                members.get(members.size() - 1).add(i);
            } else {
                groups.add(new long[] {r.start(), end});
                members.add(new ArrayList<>(List.of(i)));
            }
        }
        List<ByteRange> requests = new ArrayList<>(groups.size());
        for (long[] g : groups) {
            requests.add(ByteRange.of(g[0], g[1] - g[0]));
        }
        List<Optional<ByteBuffer>> values = fetch(requests, lent);
        for (int gi = 0; gi < groups.size(); gi++) {
            if (values.get(gi).isEmpty()) {
                return Optional.empty();
            }
            ByteBuffer whole = values.get(gi).get();
            long base = groups.get(gi)[0];
            for (int i : members.get(gi)) {
                ByteRange.Bounded r = (ByteRange.Bounded) ranges.get(i);
                long at = r.start() - base;
                if (at + r.length() > whole.remaining()) {
                    // A short answer: the member gets what there is, and its decoder finds it short.
                    at = Math.min(at, whole.remaining());
                    out[i] = whole.slice(whole.position() + (int) at, (int) (whole.remaining() - at));
                } else {
                    out[i] = whole.slice(whole.position() + (int) at, (int) r.length());
                }
            }
        }
        return Optional.of(Arrays.asList(out));
    }

    private List<Optional<ByteBuffer>> fetch(List<ByteRange> requests, boolean lent) {
        if (requests.isEmpty()) {
            return List.of();
        }
        if (window == 0 || requests.size() == 1) {
            return lent ? reader.getAll(requests, lease::borrow) : reader.getAll(requests);
        }
        List<Optional<ByteBuffer>> values = new ArrayList<>(requests.size());
        for (int from = 0; from < requests.size(); from += window) {
            List<ByteRange> batch = requests.subList(from, Math.min(requests.size(), from + window));
            try {
                List<Optional<ByteBuffer>> got = reader.getAllAsync(batch).get();
                if (got == null || got.size() != batch.size()) {
                    throw new StoreException(store.describe() + ": reading " + batch.size()
                            + " ranges of '" + key + "' completed with " + (got == null ? "null" : got.size()
                            + " values"), null);
                }
                values.addAll(got);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException re) {
                    throw re;
                }
                if (cause instanceof Error err) {
                    throw err;
                }
                throw new StoreException(store.describe() + ": reading ranges of '" + key + "': " + cause, cause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException("interrupted while reading ranges of '" + key + "' from "
                        + store.describe(), null);
            }
        }
        return values;
    }
}
