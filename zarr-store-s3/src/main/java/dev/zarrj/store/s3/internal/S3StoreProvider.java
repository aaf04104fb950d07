package dev.zarrj.store.s3.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreProvider;
import java.net.URI;

/** Opens {@link S3Store}s for {@code s3:} URIs; the options are the URI's query parameters. */
@AutoService(StoreProvider.class)
public final class S3StoreProvider implements StoreProvider {
    public S3StoreProvider() {}

    @Override
    public String name() {
        return "s3";
    }

    @Override
    public Store open(URI uri, boolean readOnly) {
        return new S3Store(S3Location.parse(uri, System.getenv()), readOnly);
    }
}
