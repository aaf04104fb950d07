package dev.zarrj.conformance.selftest;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.KeyStartValue;
import dev.zarrj.api.store.Leftover;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.ReadMemory;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.conformance.StoreContract;
import dev.zarrj.core.Zarr;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.IntFunction;

/**
 * Deliberately broken stores, each breaking one rule of {@link StoreContract}, each run through the
 * contract by {@link KitSelfTest}. Not run by Surefire directly (no {@code Test} in the names).
 * Most wrap a memory store and break one operation.
 */
public final class BrokenStores {
    private BrokenStores() {}

    static Store memory() {
        return Zarr.defaults().openStore("memory:");
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    /** A contract run over a memory store wrapped by {@link #wrap}. */
    abstract static class Wrapped extends StoreContract {
        abstract Store wrap(Store memory);

        @Override
        protected Store newStore() {
            return wrap(memory());
        }
    }

    /** S01: get of an absent key throws instead of being empty. */
    public static class AbsentKeyThrows extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public Optional<ByteBuffer> get(StoreKey key) {
                    return Optional.of(delegate.get(key).orElseThrow(() -> new StoreException("no such key " + key, null)));
                }
            };
        }
    }

    /** S02: get drops the last byte of every value. */
    public static class GetDropsLastByte extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public Optional<ByteBuffer> get(StoreKey key) {
                    return delegate.get(key).map(b -> b.limit(Math.max(b.position(), b.limit() - 1)));
                }
            };
        }
    }

    /** S23: get with an allocator returns the buffer it was given with the limit left at its capacity. */
    public static class AllocatedBufferLimitNotSet extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public Optional<ByteBuffer> get(StoreKey key, java.util.function.IntFunction<ByteBuffer> allocate) {
                    return delegate.get(key).map(v -> {
                        ByteBuffer b = allocate.apply(v.remaining());
                        b.put(v.duplicate());
                        return b.position(0);
                    });
                }
            };
        }
    }

    /** S03: set of a shorter value keeps the old value's tail (a file written without truncation). */
    public static class OverwriteKeepsTail extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public void set(StoreKey key, ByteBuffer value) {
                    byte[] old = delegate.get(key).map(BrokenStores::bytes).orElse(new byte[0]);
                    byte[] v = bytes(value);
                    if (old.length > v.length) {
                        System.arraycopy(v, 0, old, 0, v.length);
                        v = old;
                    }
                    delegate.set(key, ByteBuffer.wrap(v));
                }
            };
        }
    }

    /** S04: a bounded range is read as [start, length) — its length taken for its end. */
    public static class BoundedRangeEndIsLength extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
                    if (range instanceof ByteRange.Bounded b && b.length() >= b.start()) {
                        return delegate.get(key, ByteRange.of(b.start(), b.length() - b.start()));
                    }
                    return delegate.get(key, range);
                }
            };
        }
    }

    /** S05: a range from an offset starts one byte late. */
    public static class FromRangeOffByOne extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
                    long size = delegate.size(key).orElse(0);
                    if (range instanceof ByteRange.From f && f.start() > 0 && f.start() < size) {
                        return delegate.get(key, ByteRange.from(f.start() + 1));
                    }
                    return delegate.get(key, range);
                }
            };
        }
    }

    /** S06: a suffix range of n bytes starts at size - n - 1 (off by one). */
    public static class SuffixRangeOffByOne extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
                    if (range instanceof ByteRange.Suffix s) {
                        long size = delegate.size(key).orElse(0);
                        long start = Math.max(0, size - s.length() - 1);
                        return delegate.get(key, ByteRange.of(start, s.length()));
                    }
                    return delegate.get(key, range);
                }
            };
        }
    }

    /** S07: a range past the end is clamped to the value instead of refused. */
    public static class OutOfRangeIsClamped extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
                    Optional<ByteBuffer> whole = delegate.get(key);
                    if (whole.isEmpty()) {
                        return whole;
                    }
                    byte[] v = bytes(whole.get());
                    long[] r;
                    try {
                        r = range.resolve(v.length);
                    } catch (IllegalArgumentException e) {
                        r = new long[] {0, v.length};
                    }
                    return Optional.of(ByteBuffer.wrap(v, (int) r[0], (int) (r[1] - r[0])).slice());
                }

                @Override public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
                    List<Optional<ByteBuffer>> out = new ArrayList<>();
                    for (KeyRange kr : ranges) {
                        out.add(get(kr.key(), kr.range()));
                    }
                    return out;
                }
            };
        }
    }

    /** S07: a range past the end fails with an IndexOutOfBoundsException. */
    public static class OutOfRangeIndexException extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
                    Optional<ByteBuffer> whole = delegate.get(key);
                    if (whole.isEmpty()) {
                        return whole;
                    }
                    byte[] v = bytes(whole.get());
                    long start = range instanceof ByteRange.Bounded b ? b.start()
                            : range instanceof ByteRange.From f ? f.start() : v.length - ((ByteRange.Suffix) range).length();
                    long end = range instanceof ByteRange.Bounded b ? b.start() + b.length() : v.length;
                    return Optional.of(ByteBuffer.wrap(java.util.Arrays.copyOfRange(v, Math.toIntExact(start),
                            Math.toIntExact(end))));
                }
            };
        }
    }

    /** S08: get_partial_values answers in key order instead of request order. */
    public static class PartialValuesInKeyOrder extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
                    List<KeyRange> sorted = new ArrayList<>(ranges);
                    sorted.sort(Comparator.comparing(KeyRange::key));
                    return delegate.getPartialValues(sorted);
                }
            };
        }
    }

    /** S09: an empty value is reported absent by size and exists. */
    public static class EmptyValueIsAbsent extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public OptionalLong size(StoreKey key) {
                    OptionalLong s = delegate.size(key);
                    return s.isPresent() && s.getAsLong() == 0 ? OptionalLong.empty() : s;
                }

                @Override public boolean exists(StoreKey key) {
                    return size(key).isPresent();
                }
            };
        }
    }

    /** S10: erasing an absent key is an error. */
    public static class EraseAbsentThrows extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public void erase(StoreKey key) {
                    if (!delegate.exists(key)) {
                        throw new StoreException("cannot erase absent key " + key, null);
                    }
                    delegate.erase(key);
                }

                @Override public void eraseValues(Collection<StoreKey> keys) {
                    keys.forEach(this::erase);
                }
            };
        }
    }

    /** S11: erase_values stops at the first absent key. */
    public static class EraseValuesStopsAtAbsentKey extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public void eraseValues(Collection<StoreKey> keys) {
                    for (StoreKey k : keys) {
                        if (!delegate.exists(k)) {
                            return;
                        }
                        delegate.erase(k);
                    }
                }
            };
        }
    }

    /** S12: erase_prefix matches the prefix without its slash, so "a/" also erases "ab/x" and "a.b". */
    public static class ErasePrefixIgnoresSlash extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public void erasePrefix(String prefix) {
                    StoreKey.checkPrefix(prefix);
                    String p = prefix.isEmpty() ? "" : prefix.substring(0, prefix.length() - 1);
                    for (StoreKey k : delegate.list()) {
                        if (k.value().startsWith(p)) {
                            delegate.erase(k);
                        }
                    }
                }
            };
        }
    }

    /** S13: listing returns keys in reverse order. */
    public static class ListUnsorted extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public List<StoreKey> listPrefix(String prefix) {
                    List<StoreKey> l = new ArrayList<>(delegate.listPrefix(prefix));
                    java.util.Collections.reverse(l);
                    return l;
                }

                @Override public List<StoreKey> list() {
                    return listPrefix("");
                }
            };
        }
    }

    /** S14: list_dir returns every key under the prefix, nested ones included, as keys. */
    public static class ListDirReturnsNestedKeys extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public ListDirResult listDir(String prefix) {
                    ListDirResult r = delegate.listDir(prefix);
                    return new ListDirResult(delegate.listPrefix(prefix), r.prefixes());
                }
            };
        }
    }

    /** S15: keys are folded to lower case, as on a case-insensitive file system. */
    public static class CaseInsensitiveKeys extends Wrapped {
        static StoreKey fold(StoreKey k) {
            return StoreKey.of(k.value().toLowerCase(Locale.ROOT));
        }

        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public Optional<ByteBuffer> get(StoreKey key) { return delegate.get(fold(key)); }
                @Override public Optional<ByteBuffer> get(StoreKey key, ByteRange r) { return delegate.get(fold(key), r); }
                @Override public OptionalLong size(StoreKey key) { return delegate.size(fold(key)); }
                @Override public boolean exists(StoreKey key) { return delegate.exists(fold(key)); }
                @Override public void set(StoreKey key, ByteBuffer v) { delegate.set(fold(key), v); }
                @Override public void erase(StoreKey key) { delegate.erase(fold(key)); }
                @Override public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
                    List<Optional<ByteBuffer>> out = new ArrayList<>();
                    for (KeyRange kr : ranges) {
                        out.add(get(kr.key(), kr.range()));
                    }
                    return out;
                }
                @Override public void eraseValues(Collection<StoreKey> keys) { keys.forEach(this::erase); }
            };
        }
    }

    /** S16: list_prefix does not check its prefix, so "a" (no slash) and "../" are taken as given. */
    public static class PrefixNotChecked extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public List<StoreKey> listPrefix(String prefix) {
                    List<StoreKey> out = new ArrayList<>();
                    for (StoreKey k : delegate.list()) {
                        if (k.value().startsWith(prefix)) {
                            out.add(k);
                        }
                    }
                    return out;
                }
            };
        }
    }

    /** S17: describe() is blank. */
    public static class BlankDescription extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public String describe() {
                    return " ";
                }
            };
        }
    }

    /** A small map store; {@link ReturnsInternalBuffer}, {@link TornWrites} and {@link RemovesWritesInProgress} break it. */
    static class MapStore implements Store {
        final ConcurrentSkipListMap<String, byte[]> values = new ConcurrentSkipListMap<>();

        @Override public StoreCapabilities capabilities() { return StoreCapabilities.READ_WRITE; }
        @Override public String describe() { return "map-store@" + Integer.toHexString(System.identityHashCode(this)); }
        @Override public Optional<ByteBuffer> get(StoreKey key) {
            byte[] v = values.get(key.value());
            return v == null ? Optional.empty() : Optional.of(ByteBuffer.wrap(v.clone()));
        }
        @Override public void set(StoreKey key, ByteBuffer value) { values.put(key.value(), bytes(value)); }
        @Override public void erase(StoreKey key) { values.remove(key.value()); }
        @Override public List<StoreKey> listPrefix(String prefix) {
            StoreKey.checkPrefix(prefix);
            List<StoreKey> out = new ArrayList<>();
            for (String k : values.keySet()) {
                if (k.startsWith(prefix)) {
                    out.add(StoreKey.of(k));
                }
            }
            return out;
        }
    }

    /** S18: get returns the store's own array, so a caller changing it changes the stored value. */
    public static class ReturnsInternalBuffer extends StoreContract {
        @Override
        protected Store newStore() {
            return new MapStore() {
                @Override public Optional<ByteBuffer> get(StoreKey key) {
                    byte[] v = values.get(key.value());
                    return v == null ? Optional.empty() : Optional.of(ByteBuffer.wrap(v));
                }
            };
        }
    }

    /** S19: set writes a value in two steps, so a concurrent reader can see half of it. */
    public static class TornWrites extends StoreContract {
        @Override
        protected Store newStore() {
            return new MapStore() {
                @Override public void set(StoreKey key, ByteBuffer value) {
                    byte[] v = bytes(value);
                    byte[] half = java.util.Arrays.copyOf(v, v.length);
                    java.util.Arrays.fill(half, v.length / 2, v.length, (byte) 0);
                    values.put(key.value(), half);
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    values.put(key.value(), v);
                }
            };
        }
    }

    /** S20: a store whose capabilities say read-only, but whose writes return normally (and do nothing). */
    public static class ReadOnlyAcceptsWrites extends StoreContract {
        static Store silentlyReadOnly(Store m) {
            return new ForwardingStore(m) {
                @Override public StoreCapabilities capabilities() { return StoreCapabilities.READ_ONLY; }
                @Override public void set(StoreKey key, ByteBuffer value) { }
                @Override public void erase(StoreKey key) { }
                @Override public void eraseValues(Collection<StoreKey> keys) { }
                @Override public void erasePrefix(String prefix) { }
                @Override public void setPartialValues(List<KeyStartValue> values) { }
            };
        }

        @Override
        protected Store newStore() {
            return silentlyReadOnly(memory());
        }

        @Override
        protected Optional<Store> newReadOnlyStore(Map<String, byte[]> content) {
            Store m = memory();
            content.forEach((k, v) -> m.set(StoreKey.of(k), ByteBuffer.wrap(v)));
            return Optional.of(silentlyReadOnly(m));
        }
    }

    /** S21: no partialWrites declared, yet set_partial_values is carried out. */
    public static class UndeclaredPartialWrites extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public StoreCapabilities capabilities() { return StoreCapabilities.READ_WRITE; }
            };
        }
    }

    /** S22: partialWrites declared, but every partial write lands at offset 0. */
    public static class PartialWritesAtOffsetZero extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public void setPartialValues(List<KeyStartValue> values) {
                    List<KeyStartValue> atZero = new ArrayList<>();
                    for (KeyStartValue v : values) {
                        atZero.add(new KeyStartValue(v.key(), 0, v.value()));
                    }
                    delegate.setPartialValues(atZero);
                }
            };
        }
    }

    /**
     * S24: takes every empty value for the leftover of an interrupted write, so
     * {@code leftovers()} reports it and {@code removeLeftovers} erases it.
     */
    public static class EmptyValuesAreLeftovers extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public List<Leftover> leftovers() {
                    List<Leftover> out = new ArrayList<>();
                    for (StoreKey k : delegate.list()) {
                        if (delegate.size(k).orElse(-1) == 0) {
                            out.add(new Leftover(k.value(), 0, Instant.EPOCH, false));
                        }
                    }
                    return out;
                }
                @Override public List<Leftover> removeLeftovers(Duration minimumAge) {
                    Objects.requireNonNull(minimumAge, "minimumAge");
                    List<Leftover> removed = leftovers();
                    removed.forEach(l -> delegate.erase(StoreKey.of(l.location())));
                    return removed;
                }
            };
        }
    }

    /**
     * S24: set puts a value in a pending area first and moves it into place a moment later;
     * leftovers() cannot tell a pending value of a set in progress from one a crash left, so a
     * concurrent removeLeftovers removes writes in progress, which are then lost.
     */
    public static class RemovesWritesInProgress extends StoreContract {
        @Override
        protected Store newStore() {
            return new MapStore() {
                final Map<String, byte[]> pending = new ConcurrentHashMap<>();

                @Override public void set(StoreKey key, ByteBuffer value) {
                    String tmp = ".pending/" + key.value() + ".tmp";
                    byte[] v = bytes(value);
                    pending.put(tmp, v);
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    if (pending.remove(tmp, v)) {
                        values.put(key.value(), v);
                    }
                }
                @Override public List<Leftover> leftovers() {
                    List<Leftover> out = new ArrayList<>();
                    pending.forEach((k, v) -> out.add(new Leftover(k, v.length, Instant.EPOCH, false)));
                    return out;
                }
                @Override public List<Leftover> removeLeftovers(Duration minimumAge) {
                    Objects.requireNonNull(minimumAge, "minimumAge");
                    List<Leftover> removed = new ArrayList<>();
                    for (Leftover l : leftovers()) {
                        if (pending.remove(l.location()) != null) {
                            removed.add(l);
                        }
                    }
                    return removed;
                }
            };
        }
    }

    /**
     * S25: a ranged getAsync that calls the blocking get on the caller's thread and lets its
     * exception escape, instead of completing the future exceptionally.
     */
    public static class AsyncRangeFailureThrown extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key, ByteRange range) {
                    return CompletableFuture.completedFuture(delegate.get(key, range));
                }
            };
        }
    }

    /**
     * S28: a listing with sizes that leaves out empty values, as a listing that takes every
     * object of size 0 for a folder marker would.
     */
    public static class ListedSizesSkipEmptyValues extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public List<KeySize> listPrefixSizes(String prefix) {
                    return delegate.listPrefixSizes(prefix).stream().filter(k -> k.size() > 0).toList();
                }
            };
        }
    }

    /**
     * S29: range readers that claim to read one version of a value but read the key afresh on
     * every read, as a reader that took an object's ETag and never sent it would.
     */
    public static class RangeReaderClaimsVersionsItLacks extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public RangeReader rangeReader(StoreKey key) {
                    RangeReader afresh = RangeReader.through(delegate, key);
                    return new RangeReader() {
                        @Override public Optional<ByteBuffer> get(ByteRange range) {
                            return afresh.get(range);
                        }

                        @Override public boolean versioned() {
                            return true;
                        }
                    };
                }
            };
        }
    }

    /** S26: suggests a negative number of requests in flight. */
    public static class NegativeIoConcurrency extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public int ioConcurrency() {
                    return -1;
                }
            };
        }
    }

    /** S30: suggests a negative number of asynchronous writes outstanding. */
    public static class NegativeWriteConcurrency extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public int writeConcurrency() {
                    return -1;
                }
            };
        }
    }

    /**
     * S30: suggests 4 writes outstanding, and its setAsync completes the future at once and
     * writes the value a moment later from the caller's buffer, which the caller has reused by then.
     */
    public static class AsyncWriteReadsBufferLate extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public int writeConcurrency() {
                    return 4;
                }

                @Override public CompletableFuture<Void> setAsync(StoreKey key, ByteBuffer value) {
                    CompletableFuture.delayedExecutor(20, java.util.concurrent.TimeUnit.MILLISECONDS)
                            .execute(() -> m.set(key, value));
                    return CompletableFuture.completedFuture(null);
                }
            };
        }
    }

    /**
     * S31: its range reader reads each range into the buffer it asks for, and returns that buffer
     * with its limit at the capacity, so the bytes beyond the range come along.
     */
    public static class RangeReaderReturnsWholeBuffer extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public RangeReader rangeReader(StoreKey key) {
                    RangeReader real = m.rangeReader(key);
                    return new RangeReader() {
                        @Override public Optional<ByteBuffer> get(ByteRange range) {
                            return real.get(range);
                        }

                        @Override public List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges,
                                                                           IntFunction<ByteBuffer> allocate) {
                            List<Optional<ByteBuffer>> out = new ArrayList<>();
                            for (Optional<ByteBuffer> v : real.getAll(ranges)) {
                                out.add(v.map(b -> {
                                    ByteBuffer into = allocate.apply(b.remaining());
                                    into.put(b);
                                    return into.clear();
                                }));
                            }
                            return out;
                        }

                        @Override public void close() {
                            real.close();
                        }
                    };
                }
            };
        }
    }

    /** S32: getLent returns the value without its last byte. */
    public static class LentValueLosesLastByte extends Wrapped {
        @Override Store wrap(Store m) {
            return new ForwardingStore(m) {
                @Override public Optional<ByteBuffer> getLent(StoreKey key, ReadMemory memory) {
                    return m.getLent(key, memory).map(b -> b.remaining() == 0 ? b : b.limit(b.limit() - 1));
                }
            };
        }
    }

    /**
     * S27: conditional writes whose setIfMatch ignores the version: it always writes and returns
     * true, so a writer with a stale version overwrites another's update.
     */
    public static class SetIfMatchIgnoresVersion extends Wrapped {
        @Override Store wrap(Store m) {
            ConditionalWrites real = m.conditionalWrites().orElseThrow();
            ConditionalWrites broken = new ConditionalWrites() {
                @Override public Optional<VersionedValue> getVersioned(StoreKey key) { return real.getVersioned(key); }
                @Override public boolean setIfAbsent(StoreKey key, ByteBuffer value) { return real.setIfAbsent(key, value); }
                @Override public boolean setIfMatch(StoreKey key, ByteBuffer value, String version) {
                    m.set(key, value);
                    return true;
                }
            };
            return new ForwardingStore(m) {
                @Override public Optional<ConditionalWrites> conditionalWrites() {
                    return Optional.of(broken);
                }
            };
        }
    }

    /**
     * S27: conditional writes whose version does not change when the value does (a version
     * derived from the key, as a modification time too coarse for the writes would be): a stale
     * version still matches.
     */
    public static class VersionUnchangedByWrites extends Wrapped {
        @Override Store wrap(Store m) {
            ConditionalWrites real = m.conditionalWrites().orElseThrow();
            ConditionalWrites broken = new ConditionalWrites() {
                @Override public Optional<VersionedValue> getVersioned(StoreKey key) {
                    return m.get(key).map(v -> new VersionedValue(v, "v" + key.value().hashCode()));
                }

                @Override public boolean setIfAbsent(StoreKey key, ByteBuffer value) { return real.setIfAbsent(key, value); }

                @Override public synchronized boolean setIfMatch(StoreKey key, ByteBuffer value, String version) {
                    if (!m.exists(key) || !version.equals("v" + key.value().hashCode())) {
                        return false;
                    }
                    m.set(key, value);
                    return true;
                }
            };
            return new ForwardingStore(m) {
                @Override public Optional<ConditionalWrites> conditionalWrites() {
                    return Optional.of(broken);
                }
            };
        }
    }
}
