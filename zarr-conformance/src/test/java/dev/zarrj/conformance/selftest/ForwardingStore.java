package dev.zarrj.conformance.selftest;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.KeyStartValue;
import dev.zarrj.api.store.Leftover;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * A store that passes every operation to another; fixtures override the one they break.
 * {@code conditionalWrites()} is not passed on (it stays empty): conditional writes of the store
 * beneath would bypass the broken operation; the S27 fixtures supply their own.
 */
public class ForwardingStore implements Store {
    protected final Store delegate;

    public ForwardingStore(Store delegate) {
        this.delegate = delegate;
    }

    @Override public StoreCapabilities capabilities() { return delegate.capabilities(); }
    @Override public String describe() { return getClass().getSimpleName() + "(" + delegate.describe() + ")"; }
    @Override public Optional<ByteBuffer> get(StoreKey key) { return delegate.get(key); }
    @Override public Optional<ByteBuffer> get(StoreKey key, ByteRange range) { return delegate.get(key, range); }
    @Override public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) { return delegate.getPartialValues(ranges); }
    @Override public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key) { return delegate.getAsync(key); }
    @Override public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key, ByteRange range) { return delegate.getAsync(key, range); }
    @Override public CompletableFuture<List<Optional<ByteBuffer>>> getPartialValuesAsync(List<KeyRange> ranges) { return delegate.getPartialValuesAsync(ranges); }
    @Override public CompletableFuture<Void> setAsync(StoreKey key, ByteBuffer value) { return delegate.setAsync(key, value); }
    @Override public CompletableFuture<Void> eraseAsync(StoreKey key) { return delegate.eraseAsync(key); }
    @Override public int ioConcurrency() { return delegate.ioConcurrency(); }
    @Override public int writeConcurrency() { return delegate.writeConcurrency(); }
    @Override public OptionalLong size(StoreKey key) { return delegate.size(key); }
    @Override public boolean exists(StoreKey key) { return delegate.exists(key); }
    @Override public void set(StoreKey key, ByteBuffer value) { delegate.set(key, value); }
    @Override public void setPartialValues(List<KeyStartValue> values) { delegate.setPartialValues(values); }
    @Override public void erase(StoreKey key) { delegate.erase(key); }
    @Override public void eraseValues(Collection<StoreKey> keys) { delegate.eraseValues(keys); }
    @Override public void erasePrefix(String prefix) { delegate.erasePrefix(prefix); }
    @Override public List<StoreKey> list() { return delegate.list(); }
    @Override public List<StoreKey> listPrefix(String prefix) { return delegate.listPrefix(prefix); }
    @Override public List<KeySize> listPrefixSizes(String prefix) { return delegate.listPrefixSizes(prefix); }
    @Override public RangeReader rangeReader(StoreKey key) { return delegate.rangeReader(key); }
    @Override public ListDirResult listDir(String prefix) { return delegate.listDir(prefix); }
    @Override public List<Leftover> leftovers() { return delegate.leftovers(); }
    @Override public List<Leftover> removeLeftovers(Duration minimumAge) { return delegate.removeLeftovers(minimumAge); }
    @Override public void close() { delegate.close(); }

    @Override
    public String toString() {
        return describe();
    }
}
