import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.store.http.internal.HttpStoreProvider;
import dev.zarrj.store.http.internal.HttpsStoreProvider;

/**
 * The HTTP store: a read-only store over {@code http:} and {@code https:} URIs, on
 * {@code java.net.http}. Opened from a URI with {@link dev.zarrj.store.http.HttpStores} or through
 * the {@code http} and {@code https} store providers. Store options go in the URI's query:
 * {@code https://host/data.zarr?connect-timeout=5s&request-timeout=2m&max-concurrent-requests=64}
 * (see {@link dev.zarrj.store.http.HttpStores}).
 *
 * @provides StoreProvider {@code http} and {@code https}
 */
module dev.zarrj.store.http {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires static com.google.auto.service;
    requires java.net.http;

    exports dev.zarrj.store.http;

    provides StoreProvider with HttpStoreProvider, HttpsStoreProvider;
}
