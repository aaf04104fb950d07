package dev.zarrj.bench;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.KeyStartValue;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.ReadMemory;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A store that passes every operation to another and counts the requests: each read, write,
 * erase, size or listing is one, and {@code getPartialValues} and a range reader's
 * {@code getAll} count one per range, since each range is a read of its own at the store (zarrj
 * merges close ranges before it asks).
 */
final class CountingStore implements Store {
    private final Store delegate;
    private final AtomicLong requests = new AtomicLong();

    CountingStore(Store delegate) {
        this.delegate = delegate;
    }

    /** The requests since the last call, and starts counting again from zero. */
    long takeCount() {
        return requests.getAndSet(0);
    }

    @Override
    public StoreCapabilities capabilities() {
        return delegate.capabilities();
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key) {
        requests.incrementAndGet();
        return delegate.get(key);
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
        requests.incrementAndGet();
        return delegate.get(key, allocate);
    }

    @Override
    public Optional<ByteBuffer> getLent(StoreKey key, ReadMemory memory) {
        requests.incrementAndGet();
        return delegate.getLent(key, memory);
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
        requests.incrementAndGet();
        return delegate.get(key, range);
    }

    @Override
    public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
        requests.addAndGet(ranges.size());
        return delegate.getPartialValues(ranges);
    }

    /** The store's own reader (a file store's keeps one open file and reads into lent memory), counted. */
    @Override
    public RangeReader rangeReader(StoreKey key) {
        RangeReader reader = delegate.rangeReader(key);
        return new RangeReader() {
            @Override
            public Optional<ByteBuffer> get(ByteRange range) {
                requests.incrementAndGet();
                return reader.get(range);
            }

            @Override
            public List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges) {
                requests.addAndGet(ranges.size());
                return reader.getAll(ranges);
            }

            @Override
            public List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges, IntFunction<ByteBuffer> allocate) {
                requests.addAndGet(ranges.size());
                return reader.getAll(ranges, allocate);
            }

            @Override
            public CompletableFuture<List<Optional<ByteBuffer>>> getAllAsync(List<ByteRange> ranges) {
                requests.addAndGet(ranges.size());
                return reader.getAllAsync(ranges);
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
        requests.incrementAndGet();
        return delegate.size(key);
    }

    @Override
    public boolean exists(StoreKey key) {
        requests.incrementAndGet();
        return delegate.exists(key);
    }

    @Override
    public void set(StoreKey key, ByteBuffer value) {
        requests.incrementAndGet();
        delegate.set(key, value);
    }

    @Override
    public CompletableFuture<Void> setAsync(StoreKey key, ByteBuffer value) {
        requests.incrementAndGet();
        return delegate.setAsync(key, value);
    }

    @Override
    public CompletableFuture<Void> eraseAsync(StoreKey key) {
        requests.incrementAndGet();
        return delegate.eraseAsync(key);
    }

    @Override
    public int ioConcurrency() {
        return delegate.ioConcurrency();
    }

    @Override
    public int writeConcurrency() {
        return delegate.writeConcurrency();
    }

    @Override
    public void setPartialValues(List<KeyStartValue> values) {
        requests.addAndGet(values.size());
        delegate.setPartialValues(values);
    }

    @Override
    public void erase(StoreKey key) {
        requests.incrementAndGet();
        delegate.erase(key);
    }

    @Override
    public void eraseValues(Collection<StoreKey> keys) {
        requests.addAndGet(keys.size());
        delegate.eraseValues(keys);
    }

    @Override
    public void erasePrefix(String prefix) {
        requests.incrementAndGet();
        delegate.erasePrefix(prefix);
    }

    @Override
    public List<StoreKey> list() {
        requests.incrementAndGet();
        return delegate.list();
    }

    @Override
    public List<StoreKey> listPrefix(String prefix) {
        requests.incrementAndGet();
        return delegate.listPrefix(prefix);
    }

    @Override
    public ListDirResult listDir(String prefix) {
        requests.incrementAndGet();
        return delegate.listDir(prefix);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
