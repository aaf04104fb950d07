package dev.zarrj.cli;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreProvider;
import java.net.URI;

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
        return new DirectoryBackedStore(uri, readOnly) {
            @Override
            public void close() {
                super.close();
                throw new StoreException(uri + ": cannot finish writing the store (a test store whose close fails)", null);
            }
        };
    }
}
