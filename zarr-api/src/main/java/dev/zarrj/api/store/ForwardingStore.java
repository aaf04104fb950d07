package dev.zarrj.api.store;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ByteRange;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import org.apiguardian.api.API;

/**
 * A store that passes every operation to another: the base of wrappers that change a few of them
 * (count or log requests, refuse some writes), such as the store a
 * {@link dev.zarrj.api.transformer.StorageTransformer} returns.
 *
 * <p>Every operation of {@link Store} is passed on, those with a default included, so that the
 * wrapped store's own implementations are kept: a file store's mapped reads ({@link #getLent}),
 * an object store's requests in flight ({@link #getAsync(StoreKey)}), its
 * {@link #conditionalWrites()}. A wrapper that changes what a value reads as must therefore
 * override every operation that reads values ({@code get} in each form, {@link #getLent},
 * {@link #getPartialValues}, {@link #rangeReader}, the asynchronous gets), or those it leaves
 * alone go around it; one that only watches overrides what it watches. When {@link Store} gains
 * an operation, this class passes it on in the same release.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public abstract class ForwardingStore implements Store {
    private final Store delegate;

    /** Wraps {@code delegate}, which the wrapper does not close unless {@link #close()} is called. */
    protected ForwardingStore(Store delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The store the operations are passed to. */
    protected Store delegate() {
        return delegate;
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
        return delegate.get(key);
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, IntFunction<ByteBuffer> allocate) {
        return delegate.get(key, allocate);
    }

    @Override
    public Optional<ByteBuffer> getLent(StoreKey key, ReadMemory memory) {
        return delegate.getLent(key, memory);
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
        return delegate.get(key, range);
    }

    @Override
    public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
        return delegate.getPartialValues(ranges);
    }

    @Override
    public RangeReader rangeReader(StoreKey key) {
        return delegate.rangeReader(key);
    }

    @Override
    public OptionalLong size(StoreKey key) {
        return delegate.size(key);
    }

    @Override
    public boolean exists(StoreKey key) {
        return delegate.exists(key);
    }

    @Override
    public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key) {
        return delegate.getAsync(key);
    }

    @Override
    public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key, ByteRange range) {
        return delegate.getAsync(key, range);
    }

    @Override
    public CompletableFuture<List<Optional<ByteBuffer>>> getPartialValuesAsync(List<KeyRange> ranges) {
        return delegate.getPartialValuesAsync(ranges);
    }

    @Override
    public CompletableFuture<Void> setAsync(StoreKey key, ByteBuffer value) {
        return delegate.setAsync(key, value);
    }

    @Override
    public CompletableFuture<Void> eraseAsync(StoreKey key) {
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
    public Optional<ConditionalWrites> conditionalWrites() {
        return delegate.conditionalWrites();
    }

    @Override
    public void set(StoreKey key, ByteBuffer value) {
        delegate.set(key, value);
    }

    @Override
    public void setPartialValues(List<KeyStartValue> values) {
        delegate.setPartialValues(values);
    }

    @Override
    public void erase(StoreKey key) {
        delegate.erase(key);
    }

    @Override
    public void eraseValues(Collection<StoreKey> keys) {
        delegate.eraseValues(keys);
    }

    @Override
    public void erasePrefix(String prefix) {
        delegate.erasePrefix(prefix);
    }

    @Override
    public List<StoreKey> list() {
        return delegate.list();
    }

    @Override
    public List<StoreKey> listPrefix(String prefix) {
        return delegate.listPrefix(prefix);
    }

    @Override
    public List<KeySize> listPrefixSizes(String prefix) {
        return delegate.listPrefixSizes(prefix);
    }

    @Override
    public ListDirResult listDir(String prefix) {
        return delegate.listDir(prefix);
    }

    @Override
    public List<Leftover> leftovers() {
        return delegate.leftovers();
    }

    @Override
    public List<Leftover> removeLeftovers(Duration minimumAge) {
        return delegate.removeLeftovers(minimumAge);
    }

    /** Closes the wrapped store. */
    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public String toString() {
        return describe();
    }
}
