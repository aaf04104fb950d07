package dev.zarrj.core.internal.store.memory;

import com.google.auto.service.AutoService;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreProvider;
import java.net.URI;

/**
 * Opens {@code memory:} stores. Each {@link #open} returns a new, empty {@link MemoryStore}: the
 * rest of the URI ({@code memory:/}, {@code memory:scratch}) is only a label, and two opens of one
 * URI do not share data. Keep the returned store to use it again.
 */
@AutoService(StoreProvider.class)
public final class MemoryStoreProvider implements StoreProvider {
    static final String SCHEME = "memory";

    /** For {@link java.util.ServiceLoader}. */
    public MemoryStoreProvider() {}

    @Override
    public String name() {
        return SCHEME;
    }

    /**
     * A new, empty store (read-only ones stay empty).
     *
     * @throws IllegalArgumentException when the URI's scheme is not {@code memory}
     */
    @Override
    public Store open(URI uri, boolean readOnly) {
        if (!SCHEME.equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("the memory store provider opens memory: URIs, not '" + uri + "'");
        }
        return new MemoryStore(readOnly);
    }
}
