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
 * <p>The URI's query holds store options, not part of the location:
 * {@code https://host/data.zarr?connect-timeout=5s&request-timeout=2m&max-concurrent-requests=64}
 * (see {@link HttpStoreOptions#withUriOptions}); the same text works in code, in
 * {@code Zarr.openArray} and on the command line. An unknown option or a bad value is refused
 * with an {@link IllegalArgumentException} naming it.
 *
 * <p>The store keeps up to {@code max-concurrent-requests} requests in flight (default 64, also
 * its {@link Store#ioConcurrency()}); its asynchronous reads ({@code getAsync},
 * {@code getPartialValuesAsync}) complete from {@code java.net.http}'s callbacks, so no thread
 * waits per request.
 *
 * <p>A partial read of a value in several ranged requests (a shard's index, then its inner
 * chunks) reads one version of it when the server sends an {@code ETag}: the later requests carry
 * the first answer's strong ETag as {@code If-Match}, and an answer of 412 or with another ETag
 * makes zarrj read that shard again. A server that sends no ETag gives nothing to compare, so a
 * value replaced on it between two such requests can be read as a mix of both versions (wrong
 * values, or a decoding error); serve data that changes from a server that sends ETags.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class HttpStores {
    private HttpStores() {}

    /**
     * Opens the store at an {@code http:} or {@code https:} URI with the default options and
     * those of its query.
     *
     * @throws IllegalArgumentException when the URI is not an absolute http(s) URI with a host,
     *                                  has a fragment, or has an unknown option or a bad value
     */
    public static Store open(URI uri) {
        return open(uri, HttpStoreOptions.defaults());
    }

    /**
     * Opens the store at an {@code http:} or {@code https:} URI with {@code options}, those of
     * its query in their place.
     *
     * @throws IllegalArgumentException when the URI is not an absolute http(s) URI with a host,
     *                                  has a fragment, or has an unknown option or a bad value
     */
    public static Store open(URI uri, HttpStoreOptions options) {
        return new HttpStore(uri, options);
    }
}
