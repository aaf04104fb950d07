package dev.zarrj.store.http.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.store.http.HttpStoreOptions;
import java.net.URI;

/**
 * Opens {@link HttpStore}s for {@code http:} URIs. The store is read-only whether or not
 * {@code readOnly} is asked for: writes are refused with a {@link dev.zarrj.api.ReadOnlyException},
 * and its capabilities say so.
 */
@AutoService(StoreProvider.class)
public final class HttpStoreProvider implements StoreProvider {
    public HttpStoreProvider() {}

    @Override
    public String name() {
        return "http";
    }

    @Override
    public Store open(URI uri, boolean readOnly) {
        return open(name(), uri);
    }

    static Store open(String scheme, URI uri) {
        if (uri == null || !scheme.equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("'" + uri + "' is not a " + scheme + ": URI");
        }
        return new HttpStore(uri, HttpStoreOptions.defaults());
    }
}
