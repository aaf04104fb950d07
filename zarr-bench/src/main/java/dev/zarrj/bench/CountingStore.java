package dev.zarrj.bench;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.ForwardingStore;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.KeyStartValue;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.ReadMemory;
import dev.zarrj.api.store.Store;
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
 * merges close ranges before it asks). Conditional writes are offered when the store beneath
 * offers them, each call counted.
 */
final class CountingStore extends ForwardingStore {
    private final AtomicLong requests = new AtomicLong();

    CountingStore(Store delegate) {
        super(delegate);
    }

    /** The requests since the last call, and starts counting again from zero. */
    long takeCount() {
        return requests.getAndSet(0);
    }

    private <T> T counted(long n, T result) {
        requests.addAndGet(n);
        return result;
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key) {
        requests.incrementAndGet();
        return super.get(key);
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
        requests.incrementAndGet();
        return super.get(key, allocate);
    }

    @Override
    public Optional<ByteBuffer> getLent(StoreKey key, ReadMemory memory) {
        requests.incrementAndGet();
        return super.getLent(key, memory);
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
        requests.incrementAndGet();
        return super.get(key, range);
    }

    @Override
    public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
        requests.addAndGet(ranges.size());
        return super.getPartialValues(ranges);
    }

    @Override
    public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key) {
        requests.incrementAndGet();
        return super.getAsync(key);
    }

    @Override
    public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key, ByteRange range) {
        requests.incrementAndGet();
        return super.getAsync(key, range);
    }

    @Override
    public CompletableFuture<List<Optional<ByteBuffer>>> getPartialValuesAsync(List<KeyRange> ranges) {
        requests.addAndGet(ranges.size());
        return super.getPartialValuesAsync(ranges);
    }

    /** The store's own reader (a file store's keeps one open file and reads into lent memory), counted. */
    @Override
    public RangeReader rangeReader(StoreKey key) {
        RangeReader reader = super.rangeReader(key);
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
        return super.size(key);
    }

    @Override
    public boolean exists(StoreKey key) {
        requests.incrementAndGet();
        return super.exists(key);
    }

    @Override
    public void set(StoreKey key, ByteBuffer value) {
        requests.incrementAndGet();
        super.set(key, value);
    }

    @Override
    public CompletableFuture<Void> setAsync(StoreKey key, ByteBuffer value) {
        requests.incrementAndGet();
        return super.setAsync(key, value);
    }

    @Override
    public CompletableFuture<Void> eraseAsync(StoreKey key) {
        requests.incrementAndGet();
        return super.eraseAsync(key);
    }

    @Override
    public Optional<ConditionalWrites> conditionalWrites() {
        return super.conditionalWrites().map(writes -> new ConditionalWrites() {
            @Override
            public Optional<VersionedValue> getVersioned(StoreKey key) {
                return counted(1, writes.getVersioned(key));
            }

            @Override
            public boolean setIfAbsent(StoreKey key, ByteBuffer value) {
                return counted(1, writes.setIfAbsent(key, value));
            }

            @Override
            public boolean setIfMatch(StoreKey key, ByteBuffer value, String version) {
                return counted(1, writes.setIfMatch(key, value, version));
            }
        });
    }

    @Override
    public void setPartialValues(List<KeyStartValue> values) {
        requests.addAndGet(values.size());
        super.setPartialValues(values);
    }

    @Override
    public void erase(StoreKey key) {
        requests.incrementAndGet();
        super.erase(key);
    }

    @Override
    public void eraseValues(Collection<StoreKey> keys) {
        requests.addAndGet(keys.size());
        super.eraseValues(keys);
    }

    @Override
    public void erasePrefix(String prefix) {
        requests.incrementAndGet();
        super.erasePrefix(prefix);
    }

    @Override
    public List<StoreKey> list() {
        requests.incrementAndGet();
        return super.list();
    }

    @Override
    public List<StoreKey> listPrefix(String prefix) {
        requests.incrementAndGet();
        return super.listPrefix(prefix);
    }

    @Override
    public List<KeySize> listPrefixSizes(String prefix) {
        requests.incrementAndGet();
        return super.listPrefixSizes(prefix);
    }

    @Override
    public ListDirResult listDir(String prefix) {
        requests.incrementAndGet();
        return super.listDir(prefix);
    }
}
