package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * A store that counts read requests for chunk values (every key but {@code zarr.json}): one per
 * {@code get}, per ranged {@code get}, per {@code size}, and per key range of
 * {@code getPartialValues}, the way a remote store would send them; and the bytes those requests
 * returned.
 */
final class CountingStore implements Store {
    private final Store inner;
    final AtomicInteger requests = new AtomicInteger();
    final AtomicInteger wholeGets = new AtomicInteger();
    final AtomicLong bytes = new AtomicLong();
    /** Ranges a range reader read into buffers its caller gave. */
    final AtomicInteger intoLent = new AtomicInteger();

    CountingStore(Store inner) {
        this.inner = inner;
    }

    /** The requests since the last reset, and resets. */
    int take() {
        wholeGets.set(0);
        bytes.set(0);
        intoLent.set(0);
        return requests.getAndSet(0);
    }

    private Optional<ByteBuffer> counted(StoreKey key, Optional<ByteBuffer> value) {
        if (!key.value().endsWith("zarr.json")) {
            value.ifPresent(b -> bytes.addAndGet(b.remaining()));
        }
        return value;
    }

    private void count(StoreKey key) {
        if (!key.value().endsWith("zarr.json")) {
            requests.incrementAndGet();
        }
    }

    @Override
    public StoreCapabilities capabilities() {
        return inner.capabilities();
    }

    @Override
    public String describe() {
        return "counting(" + inner.describe() + ")";
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key) {
        count(key);
        if (!key.value().endsWith("zarr.json")) {
            wholeGets.incrementAndGet();
        }
        return counted(key, inner.get(key));
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
        count(key);
        return counted(key, inner.get(key, range));
    }

    @Override
    public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
        ranges.forEach(r -> count(r.key()));
        List<Optional<ByteBuffer>> values = inner.getPartialValues(ranges);
        for (int i = 0; i < values.size(); i++) {
            counted(ranges.get(i).key(), values.get(i));
        }
        return values;
    }

    /**
     * The inner store's own reader, counted as {@code getPartialValues} is: one request per range.
     * Ranges read into the caller's buffers ({@code getAll} with an allocator) are also counted in
     * {@link #intoLent} when the inner store used them.
     */
    @Override
    public RangeReader rangeReader(StoreKey key) {
        RangeReader reader = inner.rangeReader(key);
        return new RangeReader() {
            @Override
            public Optional<ByteBuffer> get(ByteRange range) {
                count(key);
                return counted(key, reader.get(range));
            }

            @Override
            public List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges) {
                ranges.forEach(r -> count(key));
                List<Optional<ByteBuffer>> values = reader.getAll(ranges);
                values.forEach(v -> counted(key, v));
                return values;
            }

            @Override
            public List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges, IntFunction<ByteBuffer> allocate) {
                ranges.forEach(r -> count(key));
                Set<ByteBuffer> given = Collections.newSetFromMap(new IdentityHashMap<>());
                List<Optional<ByteBuffer>> values = reader.getAll(ranges, n -> {
                    ByteBuffer b = allocate.apply(n);
                    given.add(b);
                    return b;
                });
                for (Optional<ByteBuffer> v : values) {
                    counted(key, v);
                    if (v.isPresent() && given.contains(v.get())) {
                        intoLent.incrementAndGet();
                    }
                }
                return values;
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
        count(key);
        return inner.size(key);
    }

    @Override
    public boolean exists(StoreKey key) {
        count(key);
        return inner.exists(key);
    }

    @Override
    public void set(StoreKey key, ByteBuffer value) {
        inner.set(key, value);
    }

    @Override
    public void erase(StoreKey key) {
        inner.erase(key);
    }

    @Override
    public List<StoreKey> listPrefix(String prefix) {
        return inner.listPrefix(prefix);
    }

    @Override
    public ListDirResult listDir(String prefix) {
        return inner.listDir(prefix);
    }

    @Override
    public void close() {
        inner.close();
    }
}
