package dev.zarrj.cli;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.core.Zarr;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A test-only store whose {@code close} fails, as a zip store's does when its archive cannot be
 * written (a full disk): {@code failclose:/path} is the directory store at {@code /path}, and
 * closing it throws. Registered in the test resources' {@code META-INF/services}, so found only
 * on the class path ({@link CliJvm#startWithTestProviders}).
 */
public final class FailingCloseStoreProvider implements StoreProvider {
    public FailingCloseStoreProvider() {}

    @Override
    public String name() {
        return "failclose";
    }

    @Override
    public Store open(URI uri, boolean readOnly) {
        Store delegate = Zarr.defaults().openStore(uri.getSchemeSpecificPart(), readOnly);
        return new Store() {
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
                throw new StoreException(uri + ": cannot finish writing the store (a test store whose close fails)", null);
            }
        };
    }
}
