package dev.zarrj.store.http;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.store.Store;
import dev.zarrj.store.http.internal.HttpStore;
import java.net.URI;
import org.apiguardian.api.API;

/**
 * Opens read-only stores over HTTP and HTTPS.
 *
 * <p>The URI is the store's root: the key {@code a/zarr.json} of the store at
 * {@code https://example.org/data/set.zarr} is {@code https://example.org/data/set.zarr/a/zarr.json},
 * each key segment percent-encoded. Values are read with {@code GET} (ranges with a
 * {@code Range} header, checked against the {@code Content-Range} of the answer), sizes with
 * {@code HEAD}; 404 means absent. Redirects are followed, HTTP/2 is used where the server offers
 * it. HTTP has no listing, so the store is not listable: nodes are opened by path, through their
 * {@code zarr.json} documents. User information in the URI ({@code https://user:password@host/})
 * answers the server's basic-authentication challenges, for the root's host and port only (not
 * to a host a redirect leads to), and is left out of {@link Store#describe()}.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class HttpStores {
    private HttpStores() {}

    /**
     * Opens the store at an {@code http:} or {@code https:} URI with the default options.
     *
     * @throws IllegalArgumentException when the URI is not an absolute http(s) URI with a host, or
     *                                  has a query or fragment
     */
    public static Store open(URI uri) {
        return open(uri, HttpStoreOptions.defaults());
    }

    /**
     * Opens the store at an {@code http:} or {@code https:} URI.
     *
     * @throws IllegalArgumentException when the URI is not an absolute http(s) URI with a host, or
     *                                  has a query or fragment
     */
    public static Store open(URI uri, HttpStoreOptions options) {
        return new HttpStore(uri, options);
    }
}
