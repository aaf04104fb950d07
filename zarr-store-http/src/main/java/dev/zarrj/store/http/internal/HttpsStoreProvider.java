package dev.zarrj.store.http.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreProvider;
import java.net.URI;

/** Opens {@link HttpStore}s for {@code https:} URIs; see {@link HttpStoreProvider}. */
@AutoService(StoreProvider.class)
public final class HttpsStoreProvider implements StoreProvider {
    public HttpsStoreProvider() {}

    @Override
    public String name() {
        return "https";
    }

    @Override
    public Store open(URI uri, boolean readOnly) {
        return HttpStoreProvider.open(name(), uri);
    }
}
