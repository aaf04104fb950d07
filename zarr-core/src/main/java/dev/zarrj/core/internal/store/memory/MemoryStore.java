package dev.zarrj.core.internal.store.memory;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.KeyStartValue;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A store that keeps its values in memory, for tests, scratch arrays and caches.
 *
 * <p>Scheme: {@code memory} (see {@link MemoryStoreProvider}). Readable, writable with
 * {@code set_partial_values}, and listable; or read-only when created so.
 *
 * <p>Thread-safe. Values are copied on the way in and out, so no caller can change stored data.
 * A stored array is never modified: a partial write replaces it with a new one, so a reader sees
 * either the old or the new value. Keys are kept sorted, so listing a prefix and listing a
 * directory visit only the keys under the prefix. {@link #close()} does nothing.
 *
 * <p>Offers {@linkplain #conditionalWrites() conditional writes}: a value's version is the
 * generation the store gave it when it was written, taken from one counter for the whole store,
 * so a key erased and written again never gets back an old version. Every write, conditional or
 * not, replaces a key's entry in one atomic step, so conditional writes hold against all of them.
 *
 * <p>Its {@linkplain #rangeReader range readers} keep the value they first read, so a partial
 * decode never mixes two versions of a value.
 */
public final class MemoryStore implements Store {
    private static final StoreCapabilities READ_WRITE = new StoreCapabilities(true, true, true, true);

    /** A stored value and its generation; compared by identity, so a replace swaps exactly the entry read. */
    private static final class Entry {
        final byte[] bytes;
        final long generation;

        Entry(byte[] bytes, long generation) {
            this.bytes = bytes;
            this.generation = generation;
        }
    }

    private final ConcurrentSkipListMap<String, Entry> values = new ConcurrentSkipListMap<>();
    private final AtomicLong generations = new AtomicLong();
    private final boolean readOnly;
    private final ConditionalWrites conditional = new Conditional();

    /** An empty, writable store. */
    public MemoryStore() {
        this(false);
    }

    /** An empty store; a read-only one stays empty. */
    public MemoryStore(boolean readOnly) {
        this.readOnly = readOnly;
    }

    @Override
    public StoreCapabilities capabilities() {
        return readOnly ? StoreCapabilities.READ_ONLY : READ_WRITE;
    }

    @Override
    public String describe() {
        return "memory:" + Integer.toHexString(System.identityHashCode(this));
    }

    // ---- readable ----

    @Override
    public Optional<ByteBuffer> get(StoreKey key) {
        byte[] v = bytes(key);
        return v == null ? Optional.empty() : Optional.of(ByteBuffer.wrap(v.clone()));
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
        return range(key, bytes(key), range);
    }

    /**
     * Reads on from the array the first read found: stored arrays are never modified, so every
     * range comes from that version, however the key changes meanwhile.
     */
    @Override
    public RangeReader rangeReader(StoreKey key) {
        return new RangeReader() {
            private volatile byte[] first;

            @Override
            public Optional<ByteBuffer> get(ByteRange range) {
                byte[] v = first;
                if (v == null) {
                    v = bytes(key);
                    first = v;
                }
                return range(key, v, range);
            }

            @Override
            public boolean versioned() {
                return true;
            }
        };
    }

    private Optional<ByteBuffer> range(StoreKey key, byte[] v, ByteRange range) {
        if (v == null) {
            return Optional.empty();
        }
        long[] r;
        try {
            r = range.resolve(v.length);
        } catch (IllegalArgumentException e) {
            throw new StoreException(describe() + ": key '" + key + "': " + e.getMessage(), e);
        }
        return Optional.of(ByteBuffer.wrap(Arrays.copyOfRange(v, (int) r[0], (int) r[1])));
    }

    @Override
    public OptionalLong size(StoreKey key) {
        byte[] v = bytes(key);
        return v == null ? OptionalLong.empty() : OptionalLong.of(v.length);
    }

    private byte[] bytes(StoreKey key) {
        Entry e = values.get(key.value());
        return e == null ? null : e.bytes;
    }

    @Override
    public boolean exists(StoreKey key) {
        return values.containsKey(key.value());
    }

    // ---- writable ----

    private void checkWritable(String operation, Object what) {
        if (readOnly) {
            throw new ReadOnlyException(describe() + " is read-only; cannot " + operation + " '" + what + "'");
        }
    }

    @Override
    public void set(StoreKey key, ByteBuffer value) {
        checkWritable("set", key);
        values.put(key.value(), entry(value));
    }

    /** A new entry holding a copy of the value's remaining bytes, with the next generation. */
    private Entry entry(ByteBuffer value) {
        byte[] copy = new byte[value.remaining()];
        value.duplicate().get(copy);
        return new Entry(copy, generations.incrementAndGet());
    }

    /** Conditional writes of this store; versions are generations (see the class comment). */
    @Override
    public Optional<ConditionalWrites> conditionalWrites() {
        return Optional.of(conditional);
    }

    private final class Conditional implements ConditionalWrites {
        @Override
        public Optional<VersionedValue> getVersioned(StoreKey key) {
            Entry e = values.get(key.value());
            return e == null ? Optional.empty()
                    : Optional.of(new VersionedValue(ByteBuffer.wrap(e.bytes.clone()), Long.toString(e.generation)));
        }

        @Override
        public boolean setIfAbsent(StoreKey key, ByteBuffer value) {
            checkWritable("set", key);
            return values.putIfAbsent(key.value(), entry(value)) == null;
        }

        @Override
        public boolean setIfMatch(StoreKey key, ByteBuffer value, String version) {
            checkWritable("set", key);
            Entry current = values.get(key.value());
            if (current == null || !Long.toString(current.generation).equals(version)) {
                return false;
            }
            return values.replace(key.value(), current, entry(value));
        }
    }

    /**
     * Writes each value at its offset, as a file write would: an absent key is created, and a gap
     * between the old end and an offset past it is filled with zeros. The writes to one key are
     * applied together, in the order given, so readers never see some of them without the others.
     */
    @Override
    public void setPartialValues(List<KeyStartValue> writes) {
        Map<String, List<KeyStartValue>> byKey = new LinkedHashMap<>();
        for (KeyStartValue w : writes) {
            checkWritable("set_partial_values on", w.key());
            if (w.start() + w.value().remaining() > Integer.MAX_VALUE - 8) {
                throw new StoreException(describe() + ": key '" + w.key() + "': a value of "
                        + (w.start() + w.value().remaining()) + " bytes is larger than a memory store holds", null);
            }
            byKey.computeIfAbsent(w.key().value(), k -> new ArrayList<>()).add(w);
        }
        for (Map.Entry<String, List<KeyStartValue>> e : byKey.entrySet()) {
            values.compute(e.getKey(), (k, oldEntry) -> {
                byte[] old = oldEntry == null ? null : oldEntry.bytes;
                int length = old == null ? 0 : old.length;
                for (KeyStartValue w : e.getValue()) {
                    length = Math.max(length, (int) w.start() + w.value().remaining());
                }
                byte[] updated = old == null ? new byte[length] : Arrays.copyOf(old, length);
                for (KeyStartValue w : e.getValue()) {
                    w.value().duplicate().get(updated, (int) w.start(), w.value().remaining());
                }
                return new Entry(updated, generations.incrementAndGet());
            });
        }
    }

    @Override
    public void erase(StoreKey key) {
        checkWritable("erase", key);
        values.remove(key.value());
    }

    @Override
    public void eraseValues(Collection<StoreKey> keys) {
        for (StoreKey k : keys) {
            erase(k);
        }
    }

    @Override
    public void erasePrefix(String prefix) {
        StoreKey.checkPrefix(prefix);
        checkWritable("erase prefix", prefix);
        under(prefix).clear();
    }

    // ---- listable ----

    /** The live view of the entries whose keys start with {@code prefix}. */
    private NavigableMap<String, Entry> under(String prefix) {
        return prefix.isEmpty() ? values : values.subMap(prefix, true, successor(prefix), false);
    }

    /** The least string greater than every string that starts with {@code prefix} ('/' + 1 is '0'). */
    private static String successor(String prefix) {
        int last = prefix.length() - 1;
        return prefix.substring(0, last) + (char) (prefix.charAt(last) + 1);
    }

    @Override
    public List<StoreKey> listPrefix(String prefix) {
        StoreKey.checkPrefix(prefix);
        List<StoreKey> out = new ArrayList<>();
        for (String k : under(prefix).keySet()) {
            out.add(new StoreKey(k));
        }
        return out;
    }

    @Override
    public List<KeySize> listPrefixSizes(String prefix) {
        StoreKey.checkPrefix(prefix);
        List<KeySize> out = new ArrayList<>();
        for (Map.Entry<String, Entry> e : under(prefix).entrySet()) {
            out.add(new KeySize(new StoreKey(e.getKey()), e.getValue().bytes.length));
        }
        return out;
    }

    /** Jumps over each child prefix's keys instead of visiting them. */
    @Override
    public ListDirResult listDir(String prefix) {
        StoreKey.checkPrefix(prefix);
        List<StoreKey> keys = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String k = values.ceilingKey(prefix);
        while (k != null && k.startsWith(prefix)) {
            int slash = k.indexOf('/', prefix.length());
            if (slash < 0) {
                keys.add(new StoreKey(k));
                k = values.higherKey(k);
            } else {
                String child = k.substring(0, slash + 1);
                prefixes.add(child);
                k = values.ceilingKey(successor(child));
            }
        }
        return new ListDirResult(keys, prefixes);
    }

    @Override
    public String toString() {
        return describe();
    }
}
