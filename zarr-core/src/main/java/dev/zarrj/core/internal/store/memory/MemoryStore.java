package dev.zarrj.core.internal.store.memory;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.KeyStartValue;
import dev.zarrj.api.store.ListDirResult;
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
 */
public final class MemoryStore implements Store {
    private static final StoreCapabilities READ_WRITE = new StoreCapabilities(true, true, true, true);

    private final ConcurrentSkipListMap<String, byte[]> values = new ConcurrentSkipListMap<>();
    private final boolean readOnly;

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
        byte[] v = values.get(key.value());
        return v == null ? Optional.empty() : Optional.of(ByteBuffer.wrap(v.clone()));
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
        byte[] v = values.get(key.value());
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
        byte[] v = values.get(key.value());
        return v == null ? OptionalLong.empty() : OptionalLong.of(v.length);
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
        byte[] copy = new byte[value.remaining()];
        value.duplicate().get(copy);
        values.put(key.value(), copy);
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
            values.compute(e.getKey(), (k, old) -> {
                int length = old == null ? 0 : old.length;
                for (KeyStartValue w : e.getValue()) {
                    length = Math.max(length, (int) w.start() + w.value().remaining());
                }
                byte[] updated = old == null ? new byte[length] : Arrays.copyOf(old, length);
                for (KeyStartValue w : e.getValue()) {
                    w.value().duplicate().get(updated, (int) w.start(), w.value().remaining());
                }
                return updated;
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
    private NavigableMap<String, byte[]> under(String prefix) {
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
