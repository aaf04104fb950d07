package dev.zarrj.core.api;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * A store over another that records every request it is asked (reads, existence and size checks,
 * listings, writes), as {@code "get zarr.json"}, {@code "list_dir g/"} and so on; optionally
 * without conditional writes, and with a hook run before each conditional write.
 */
final class CountingStore implements Store {
    private final Store inner;
    private final boolean conditional;
    final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    /** Run before each setIfMatch, with its key. */
    volatile java.util.function.Consumer<StoreKey> beforeSetIfMatch = k -> {};
    /** When false, the store says it cannot be listed, and listing fails (as over HTTP). */
    volatile boolean listable = true;

    CountingStore(Store inner, boolean conditional) {
        this.inner = inner;
        this.conditional = conditional;
    }

    void reset() {
        requests.clear();
    }

    int count() {
        return requests.size();
    }

    @Override
    public StoreCapabilities capabilities() {
        StoreCapabilities c = inner.capabilities();
        return listable ? c : new StoreCapabilities(c.readable(), c.writable(), c.partialWrites(), false);
    }

    private void checkListable() {
        if (!listable) {
            throw new UnsupportedOperationException(describe() + " cannot be listed");
        }
    }
    @Override public String describe() { return "counting(" + inner.describe() + ")"; }

    @Override
    public Optional<ByteBuffer> get(StoreKey key) {
        requests.add("get " + key);
        return inner.get(key);
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
        requests.add("get " + key + " " + range);
        return inner.get(key, range);
    }

    @Override
    public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key) {
        requests.add("get " + key);
        return inner.getAsync(key);
    }

    @Override
    public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key, ByteRange range) {
        requests.add("get " + key + " " + range);
        return inner.getAsync(key, range);
    }

    @Override
    public boolean exists(StoreKey key) {
        requests.add("exists " + key);
        return inner.exists(key);
    }

    @Override
    public OptionalLong size(StoreKey key) {
        requests.add("size " + key);
        return inner.size(key);
    }

    @Override
    public void set(StoreKey key, ByteBuffer value) {
        requests.add("set " + key);
        inner.set(key, value);
    }

    @Override
    public void erase(StoreKey key) {
        requests.add("erase " + key);
        inner.erase(key);
    }

    @Override
    public void erasePrefix(String prefix) {
        requests.add("erase_prefix " + prefix);
        inner.erasePrefix(prefix);
    }

    @Override
    public List<StoreKey> listPrefix(String prefix) {
        checkListable();
        requests.add("list_prefix " + prefix);
        return inner.listPrefix(prefix);
    }

    @Override
    public ListDirResult listDir(String prefix) {
        checkListable();
        requests.add("list_dir " + prefix);
        return inner.listDir(prefix);
    }

    @Override
    public Optional<ConditionalWrites> conditionalWrites() {
        if (!conditional) {
            return Optional.empty();
        }
        ConditionalWrites cw = inner.conditionalWrites().orElseThrow();
        return Optional.of(new ConditionalWrites() {
            @Override
            public Optional<VersionedValue> getVersioned(StoreKey key) {
                requests.add("get " + key);
                return cw.getVersioned(key);
            }

            @Override
            public boolean setIfAbsent(StoreKey key, ByteBuffer value) {
                requests.add("set " + key);
                return cw.setIfAbsent(key, value);
            }

            @Override
            public boolean setIfMatch(StoreKey key, ByteBuffer value, String version) {
                beforeSetIfMatch.accept(key);
                requests.add("set " + key);
                return cw.setIfMatch(key, value, version);
            }
        });
    }
}
