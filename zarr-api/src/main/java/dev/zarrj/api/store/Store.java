package dev.zarrj.api.store;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * The spec's abstract store interface: a mapping from {@link StoreKey}s to byte values, with the
 * readable, writable and listable operations that {@link #capabilities()} declares.
 *
 * <p>Keys are validated by {@link StoreKey} before they reach a store, so no key can name
 * anything outside the store's root. Implementations are thread-safe: concurrent operations on
 * different keys do not interfere, and a reader sees either the old or the new value of a key,
 * never a mix. Returned buffers are owned by the caller; buffers passed in are not modified.
 *
 * <p>Operations that have a natural fallback ({@code get_partial_values}, {@code erase_values},
 * {@code list_prefix}, {@code list_dir}, listing with sizes) have default implementations;
 * stores override them when they can do better.
 *
 * <p><b>Asynchronous operations.</b> {@link #getAsync(StoreKey)}, {@link #getAsync(StoreKey,
 * ByteRange)}, {@link #getPartialValuesAsync}, {@link #setAsync} and {@link #eraseAsync} return a
 * {@link CompletableFuture}. Their defaults call the blocking operation on the calling thread and
 * return a completed future, so a store that implements only the blocking operations keeps
 * working unchanged (with as many requests in flight as threads calling it). A store over a
 * medium where each request costs latency (object stores, HTTP) should override at least
 * {@link #getAsync(StoreKey)} and {@link #getAsync(StoreKey, ByteRange)} — the read path keeps up
 * to {@code ioConcurrency} of them outstanding — and, for writes, {@link #setAsync}, returning at
 * once and completing the future from its client's callback, so that no thread is parked per
 * request; {@link #getPartialValuesAsync} by default issues one {@code getAsync} per range, all
 * at once. Overriding {@link #ioConcurrency()} tells zarrj how many requests to keep in flight.
 * A local store gains nothing from overriding the reads; its writes gain when {@link #setAsync}
 * runs on threads of its own, for replacing a file can wait on the device, and
 * {@link #writeConcurrency()} says how many to keep outstanding.
 *
 * <p>An asynchronous operation reports failure through its future, never by throwing: the future
 * completes exceptionally with the exception the blocking operation would throw (a
 * {@link StoreException}, {@link ReadOnlyException}, ...). Absence is an empty {@code Optional},
 * as in the blocking operations.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface Store extends AutoCloseable {
    /** What this store supports. */
    StoreCapabilities capabilities();

    /**
     * A short description for messages that names the location, for example
     * {@code file:/data/set.zarr}: two stores over one location describe themselves alike, so that
     * a process that writes parts of one chunk through both serialises its read-modify-writes
     * (zarrj keys its in-process chunk locks on it). Include nothing that differs between two
     * instances over the same data.
     */
    String describe();

    // ---- readable ----

    /**
     * The value of a key, or empty when the key is absent.
     *
     * <p>Absent means nothing at all is stored there: an entry at the key that is not a value (a
     * directory or a fifo where a file should be, a zip entry listed twice) is a
     * {@link StoreException} naming the key in this and every other read, never absent.
     *
     * @throws StoreException when the store cannot be read, or holds something other than a value
     *                        at the key
     */
    Optional<ByteBuffer> get(StoreKey key);

    /**
     * The value of a key read into memory from {@code allocate}, or empty when the key is absent:
     * a caller that reads many values (the chunks of a read) hands in buffers it reuses, and a
     * store that reads files can read into direct memory without an intermediate copy.
     *
     * <p>A store calls {@code allocate} at most once, with the value's size, and returns the
     * value between position 0 and that size of the buffer it got; or it ignores
     * {@code allocate} and returns a buffer of its own, as the default does ({@link #get(StoreKey)}).
     * Either way the buffer belongs to the caller.
     *
     * @param allocate gives a buffer with position 0 and at least the given number of bytes
     *                 remaining
     * @throws StoreException when the store cannot be read
     */
    default Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
        return get(key);
    }

    /**
     * The value of a key in memory lent for one read, or empty when the key is absent: a caller
     * that copies the value into its own array and then drops it (a whole read of chunks stored
     * as their elements' bytes) lets the store hand out memory of its own, valid until the caller
     * runs what the store registered with {@link ReadMemory#onRelease}. A file store maps a large
     * file there instead of reading it: one pass over the bytes less. The default reads into
     * {@link ReadMemory#allocate} as {@link #get(StoreKey, IntFunction)} does.
     *
     * <p>The same bytes as {@link #get(StoreKey)}, and for a present value the store calls
     * {@code allocate} at most once, with the value's size, as {@link #get(StoreKey, IntFunction)}
     * does; for an absent one it neither allocates nor registers anything. Memory a store maps
     * can become unreadable when another process truncates the file in place while it is lent:
     * a Java copy out of it then throws {@link InternalError}, the JDK's answer to the fault,
     * raised at the copying thread's next safepoint (in practice during the copy), which the
     * caller reports as a failed read of the key. Callers that hand the value to native code,
     * where that fault would end the process, use {@link #get(StoreKey, IntFunction)}.
     *
     * @throws StoreException when the store cannot be read
     * @since 0.1
     */
    default Optional<ByteBuffer> getLent(StoreKey key, ReadMemory memory) {
        return get(key, memory::allocate);
    }

    /**
     * A range of the value of a key, or empty when the key is absent.
     *
     * @throws StoreException when the store cannot be read, or the range lies outside the value
     */
    default Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
        Optional<ByteBuffer> whole = get(key);
        if (whole.isEmpty()) {
            return whole;
        }
        ByteBuffer b = whole.get();
        long[] r;
        try {
            r = range.resolve(b.remaining());
        } catch (IllegalArgumentException e) {
            throw new StoreException(describe() + ": key '" + key + "': " + e.getMessage(), e);
        }
        return Optional.of(b.slice(b.position() + (int) r[0], (int) (r[1] - r[0])));
    }

    /**
     * {@code get_partial_values}: several ranges, possibly of one key, in the order given; an empty
     * element for each absent key.
     */
    default List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
        List<Optional<ByteBuffer>> out = new ArrayList<>(ranges.size());
        for (KeyRange kr : ranges) {
            out.add(get(kr.key(), kr.range()));
        }
        return out;
    }

    /**
     * A reader of ranges of one key's value whose reads all see one version of it, for a read
     * made of several ranged requests (a shard's index, then its inner chunks): see
     * {@link RangeReader}. Opening one makes no request; the caller closes it when its read ends.
     *
     * <p>The default reads through {@link #get(StoreKey, ByteRange)}, {@link #getPartialValues}
     * and {@link #getPartialValuesAsync}, request for request as before, and is not
     * {@linkplain RangeReader#versioned() versioned}: a value replaced between two of its reads
     * goes unnoticed. A store whose values can be replaced while being read overrides it: by
     * reading on from what it first opened (a file, a buffer in memory), or by sending the version
     * it first saw with the following requests ({@code If-Match}) and throwing
     * {@link dev.zarrj.api.ValueChangedException} when it no longer matches, never with an extra
     * request per read.
     */
    default RangeReader rangeReader(StoreKey key) {
        return RangeReader.through(this, key);
    }

    /** The size of a key's value in bytes, or empty when absent. */
    default OptionalLong size(StoreKey key) {
        Optional<ByteBuffer> v = get(key);
        return v.isPresent() ? OptionalLong.of(v.get().remaining()) : OptionalLong.empty();
    }

    /** Whether a key is present. */
    default boolean exists(StoreKey key) {
        return size(key).isPresent();
    }

    // ---- asynchronous ----

    /**
     * {@link #get(StoreKey)} without blocking the caller: completes with the value, or empty when
     * the key is absent; completes exceptionally (never throws) when the store cannot be read.
     * The default calls {@link #get(StoreKey)} on the calling thread.
     */
    default CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key) {
        return completed(() -> get(key));
    }

    /**
     * {@link #get(StoreKey, ByteRange)} without blocking the caller: completes with the range, or
     * empty when the key is absent; completes exceptionally (never throws) when the store cannot
     * be read or the range lies outside the value. The default calls the blocking method on the
     * calling thread.
     */
    default CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key, ByteRange range) {
        return completed(() -> get(key, range));
    }

    /**
     * {@link #getPartialValues} without blocking the caller: the ranges in the order given, an
     * empty element for each absent key. The default starts {@link #getAsync(StoreKey, ByteRange)}
     * for every range at once and completes when all have; when any fails, exceptionally with the
     * exception of the first in list order that failed (not wrapped in a
     * {@link CompletionException}).
     */
    default CompletableFuture<List<Optional<ByteBuffer>>> getPartialValuesAsync(List<KeyRange> ranges) {
        List<CompletableFuture<Optional<ByteBuffer>>> parts = new ArrayList<>(ranges.size());
        for (KeyRange kr : ranges) {
            CompletableFuture<Optional<ByteBuffer>> f;
            try {
                f = getAsync(kr.key(), kr.range());
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            parts.add(f);
        }
        CompletableFuture<List<Optional<ByteBuffer>>> out = new CompletableFuture<>();
        CompletableFuture.allOf(parts.toArray(new CompletableFuture<?>[0])).whenComplete((v, e) -> {
            List<Optional<ByteBuffer>> values = new ArrayList<>(parts.size());
            for (CompletableFuture<Optional<ByteBuffer>> f : parts) {
                try {
                    values.add(f.join());
                } catch (CompletionException | CancellationException failed) {
                    // The first range to fail, in list order, with what the store failed it with.
                    out.completeExceptionally(failed instanceof CompletionException && failed.getCause() != null
                            ? failed.getCause() : failed);
                    return;
                }
            }
            out.complete(values);
        });
        return out;
    }

    /**
     * {@link #set} without blocking the caller: completes when the value is stored, exceptionally
     * (never throws) when the write fails or the store is read-only. The caller leaves
     * {@code value} unchanged until the future completes; the store keeps no reference to it
     * afterwards. The default calls {@link #set} on the calling thread.
     */
    default CompletableFuture<Void> setAsync(StoreKey key, ByteBuffer value) {
        return completed(() -> {
            set(key, value);
            return null;
        });
    }

    /**
     * {@link #erase} without blocking the caller: completes when the key is gone (at once when
     * it was absent), exceptionally (never throws) when the erase fails or the store is
     * read-only. The default calls {@link #erase} on the calling thread.
     */
    default CompletableFuture<Void> eraseAsync(StoreKey key) {
        return completed(() -> {
            erase(key);
            return null;
        });
    }

    /**
     * How many requests zarrj should keep in flight on this store when the caller has not chosen
     * ({@code Zarr.builder().ioConcurrency(n)}): a store whose requests each wait on a network
     * answers with more than the CPU threads, for example 64; 0, the default, leaves the choice
     * to zarrj (its CPU thread count, which suits local files).
     */
    default int ioConcurrency() {
        return 0;
    }

    /**
     * How many {@link #setAsync} and {@link #eraseAsync} requests one write should keep
     * outstanding on this store when the caller has not chosen, if more than
     * {@link #ioConcurrency()}: a store whose asynchronous writes run on threads of their own
     * while zarrj's threads encode the next chunks (local files, where replacing a file waits on
     * the device) answers with how many of them overlap well. 0, the default, means no more than
     * {@code ioConcurrency()}. A store that suggests a number must be done with a value's buffer
     * when the future of its {@code setAsync} completes: zarrj reuses the buffer then.
     *
     * @since 0.1
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    default int writeConcurrency() {
        return 0;
    }

    /**
     * Conditional writes ({@link ConditionalWrites}), when this store offers them: a value stored
     * only if the key is absent, or only if it still has the version read. Empty by default.
     * A store offers them only when the check and the write are atomic against every writer that
     * reaches the same storage, other processes included; zarrj then keeps concurrent partial
     * writes of one shard from several processes from losing each other's work.
     */
    default Optional<ConditionalWrites> conditionalWrites() {
        return Optional.empty();
    }

    /** The result of {@code call} as a completed future, or its exception as a failed one. */
    private static <T> CompletableFuture<T> completed(Supplier<T> call) {
        try {
            return CompletableFuture.completedFuture(call.get());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    // ---- writable ----

    /**
     * Stores a value (position to limit), replacing any previous one atomically: readers see the
     * old value or the new one, and a failed write leaves the old value intact. The store keeps no
     * reference to {@code value} after returning (copy it if it is kept in memory): callers reuse
     * that memory for the next chunk.
     *
     * @throws ReadOnlyException when the store is not writable
     * @throws StoreException    when the write fails
     */
    default void set(StoreKey key, ByteBuffer value) {
        throw new ReadOnlyException(describe() + " is read-only; cannot set '" + key + "'");
    }

    /**
     * {@code set_partial_values}: writes bytes into existing values at offsets. Supported only
     * when {@link StoreCapabilities#partialWrites()} is true.
     *
     * @throws UnsupportedOperationException when not supported
     */
    default void setPartialValues(List<KeyStartValue> values) {
        throw new UnsupportedOperationException(describe() + " does not support set_partial_values");
    }

    /** Erases a key; erasing an absent key does nothing. */
    default void erase(StoreKey key) {
        throw new ReadOnlyException(describe() + " is read-only; cannot erase '" + key + "'");
    }

    /**
     * Erases several keys.
     *
     * @throws ReadOnlyException when the store is not writable, even when {@code keys} is empty
     */
    default void eraseValues(Collection<StoreKey> keys) {
        requireWritable("erase values");
        for (StoreKey k : keys) {
            erase(k);
        }
    }

    /**
     * Erases every key under a prefix ({@code ""} erases everything).
     *
     * @throws ReadOnlyException when the store is not writable, even when nothing is under the prefix
     */
    default void erasePrefix(String prefix) {
        StoreKey.checkPrefix(prefix);
        requireWritable("erase prefix '" + prefix + "'");
        eraseValues(listPrefix(prefix));
    }

    /**
     * Refuses a write when {@link #capabilities()} does not declare the store writable, so that a
     * write that would change nothing is refused too.
     */
    private void requireWritable(String what) {
        if (!capabilities().writable()) {
            throw new ReadOnlyException(describe() + " is read-only; cannot " + what);
        }
    }

    // ---- listable ----

    /** Every key, sorted. */
    default List<StoreKey> list() {
        return listPrefix("");
    }

    /** Every key under a prefix ({@code ""} or ending in {@code /}), sorted. */
    List<StoreKey> listPrefix(String prefix);

    /**
     * Every key under a prefix ({@code ""} or ending in {@code /}) with the size of its value,
     * sorted by key: what {@link #listPrefix} lists, each with what {@link #size} answers. A store
     * whose listing already carries the sizes (a directory walk, a zip's central directory, an
     * object store's list response) overrides this to answer without a request per key; the
     * default asks {@link #size} for each key listed. A key erased between the listing and its
     * size is left out, not an error.
     *
     * @throws StoreException when the store cannot be listed, or holds something other than a
     *                        value at a key listed
     */
    default List<KeySize> listPrefixSizes(String prefix) {
        List<StoreKey> keys = listPrefix(prefix);
        List<KeySize> out = new ArrayList<>(keys.size());
        for (StoreKey k : keys) {
            OptionalLong size = size(k);
            if (size.isPresent()) {
                out.add(new KeySize(k, size.getAsLong()));
            }
        }
        return out;
    }

    /** The keys and child prefixes directly under a prefix, sorted. */
    default ListDirResult listDir(String prefix) {
        StoreKey.checkPrefix(prefix);
        List<StoreKey> keys = new ArrayList<>();
        TreeSet<String> prefixes = new TreeSet<>();
        for (StoreKey k : listPrefix(prefix)) {
            String rest = k.value().substring(prefix.length());
            int slash = rest.indexOf('/');
            if (slash < 0) {
                keys.add(k);
            } else {
                prefixes.add(prefix + rest.substring(0, slash + 1));
            }
        }
        return new ListDirResult(keys, new ArrayList<>(prefixes));
    }

    // ---- maintenance ----

    /**
     * What writers left beside the values: temporary files of interrupted writes, spill files
     * (see {@link Leftover}), including those of writes in progress, which are marked
     * {@link Leftover#live() live}. None is a key. The default reports none, which is right for
     * a store whose writes leave nothing behind when they fail.
     *
     * @throws StoreException when the store's storage cannot be examined
     */
    default List<Leftover> leftovers() {
        return List.of();
    }

    /**
     * Removes the leftovers that no running writer owns and that were last written at least
     * {@code minimumAge} ago, and returns them. Never removes a value and never a
     * {@link Leftover#live() live} leftover; works on a store opened read-only too, since it
     * changes no value. {@code minimumAge} guards what a store cannot see: a writer on another
     * machine, or one that has created its file but not yet locked it.
     *
     * @throws StoreException when a leftover cannot be removed; those removed before stay removed
     */
    default List<Leftover> removeLeftovers(Duration minimumAge) {
        Objects.requireNonNull(minimumAge, "minimumAge");
        return List.of();
    }

    /** Releases resources; the default does nothing. */
    @Override
    default void close() {}
}
