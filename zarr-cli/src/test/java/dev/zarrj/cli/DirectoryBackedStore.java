package dev.zarrj.cli;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The directory store at the path of a test-only URI ({@code scheme:/path}), forwarding every
 * operation but {@code listPrefixSizes}, left to the default (so these stand for stores whose
 * listing carries no sizes): the test store providers here override the one they change.
 */
abstract class DirectoryBackedStore implements Store {
    final URI uri;
    final Store delegate;

    DirectoryBackedStore(URI uri, boolean readOnly) {
        this.uri = uri;
        this.delegate = Zarr.defaults().openStore(uri.getSchemeSpecificPart(), readOnly);
    }

    @Override
    public StoreCapabilities capabilities() {
        return delegate.capabilities();
    }

    @Override
    public String describe() {
        return uri.toString();
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key) {
        return delegate.get(key);
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
        return delegate.get(key, range);
    }

    @Override
    public OptionalLong size(StoreKey key) {
        return delegate.size(key);
    }

    @Override
    public void set(StoreKey key, ByteBuffer value) {
        delegate.set(key, value);
    }

    @Override
    public void erase(StoreKey key) {
        delegate.erase(key);
    }

    @Override
    public List<StoreKey> listPrefix(String prefix) {
        return delegate.listPrefix(prefix);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
