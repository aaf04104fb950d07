package dev.zarrj.api.store;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ValueChangedException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import org.apiguardian.api.API;

/**
 * Ranged reads of one key's value that belong together ({@link Store#rangeReader}): a partial
 * decoder reads a shard's index, then the inner chunks the index points to, and the offsets of
 * one version applied to the bytes of another would decode the wrong inner chunk without any
 * error.
 *
 * <p>When {@link #versioned()} is true, the first read that finds a value fixes its version, and
 * every later read of this reader either returns bytes of that version (a store that can still
 * serve it: an open file, a buffer kept in memory) or throws {@link ValueChangedException} (a
 * store that can only tell: an object store's {@code If-Match} answered 412); never bytes of a
 * later value, and never empty because the value was erased in between. The caller then starts
 * its read over with a new reader. When false (the default reader), reads go to the store one by
 * one and a concurrent replacement can go unnoticed, as with {@link Store#get(StoreKey, ByteRange)}.
 *
 * <p>Reads return empty when the key is absent, as {@link Store#get(StoreKey, ByteRange)} does.
 * A reader is used by one read at a time, may be used from several threads one after another,
 * and is closed when its read ends: closing releases what it holds (an open file) and is
 * idempotent; reads after closing are not allowed.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface RangeReader extends AutoCloseable {
    /**
     * A range of the value, or empty when the key is absent.
     *
     * @throws ValueChangedException when {@link #versioned()} and the value read before has since
     *                               been replaced or erased
     * @throws StoreException        when the store cannot be read, or the range lies outside the value
     */
    Optional<ByteBuffer> get(ByteRange range);

    /**
     * Several ranges of the value in the order given, each empty when the key is absent. The
     * default reads them one by one through {@link #get}.
     */
    default List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges) {
        List<Optional<ByteBuffer>> out = new ArrayList<>(ranges.size());
        for (ByteRange r : ranges) {
            out.add(get(r));
        }
        return out;
    }

    /**
     * {@link #getAll}, read into memory from {@code allocate} where the store can: a partial
     * decoder that is done with the bytes when its decode ends reads them into buffers the caller
     * reuses, and a store that reads files reads into direct memory without an intermediate copy.
     *
     * <p>For each range of a present value, a store calls {@code allocate} at most once, with the
     * range's length, and returns the range between position 0 and that length of the buffer it
     * got; or it ignores {@code allocate} and returns a buffer of its own, as the default does
     * ({@link #getAll(List)}). Either way the buffers belong to the caller, and {@code allocate}
     * is not called for an absent value.
     *
     * @param allocate gives a buffer with position 0 and at least the given number of bytes
     *                 remaining
     * @since 0.1
     */
    default List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges, IntFunction<ByteBuffer> allocate) {
        return getAll(ranges);
    }

    /**
     * {@link #getAll} without blocking the caller, for readers over stores where each request
     * costs latency: completes exceptionally (never throws) as {@link #getAll} would throw. The
     * default calls {@link #getAll} on the calling thread.
     */
    default CompletableFuture<List<Optional<ByteBuffer>>> getAllAsync(List<ByteRange> ranges) {
        try {
            return CompletableFuture.completedFuture(getAll(ranges));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Whether all reads of this reader see one version of the value, as described above; false
     * by default. A reader that learns from the store's first answer whether it can tell versions
     * apart (an HTTP server that sends an {@code ETag} or none) answers after its first read that
     * found the value.
     */
    default boolean versioned() {
        return false;
    }

    /** Releases what the reader holds; does nothing by default. */
    @Override
    default void close() {}

    /**
     * The reader of {@link Store#rangeReader}'s default: each read is one call of the store's
     * {@link Store#get(StoreKey, ByteRange)}, {@link Store#getPartialValues} or
     * {@link Store#getPartialValuesAsync}, exactly as if the caller made it; not
     * {@linkplain #versioned() versioned}.
     */
    static RangeReader through(Store store, StoreKey key) {
        return new RangeReader() {
            @Override
            public Optional<ByteBuffer> get(ByteRange range) {
                return store.get(key, range);
            }

            @Override
            public List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges) {
                return store.getPartialValues(keyRanges(key, ranges));
            }

            @Override
            public CompletableFuture<List<Optional<ByteBuffer>>> getAllAsync(List<ByteRange> ranges) {
                return store.getPartialValuesAsync(keyRanges(key, ranges));
            }
        };
    }

    private static List<KeyRange> keyRanges(StoreKey key, List<ByteRange> ranges) {
        List<KeyRange> out = new ArrayList<>(ranges.size());
        for (ByteRange r : ranges) {
            out.add(new KeyRange(key, r));
        }
        return out;
    }
}
