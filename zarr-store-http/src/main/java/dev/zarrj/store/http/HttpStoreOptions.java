package dev.zarrj.store.http;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * How an HTTP store talks to its server.
 *
 * <p>Immutable; start from {@link #defaults()} and change what you need, for example
 * {@code HttpStoreOptions.defaults().withRequestTimeout(Duration.ofMinutes(2))}.
 *
 * @param connectTimeout        how long to wait for a connection to the server
 * @param requestTimeout        how long to wait for each response to begin
 * @param maxConcurrentRequests how many requests one {@code get_partial_values} keeps in flight;
 *                              bounds the connections an HTTP/1.1 server sees (HTTP/2 multiplexes
 *                              them over one)
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record HttpStoreOptions(Duration connectTimeout, Duration requestTimeout, int maxConcurrentRequests) {
    private static final HttpStoreOptions DEFAULTS =
            new HttpStoreOptions(Duration.ofSeconds(10), Duration.ofSeconds(60), 32);

    public HttpStoreOptions {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new IllegalArgumentException("connectTimeout must be positive, not " + connectTimeout);
        }
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("requestTimeout must be positive, not " + requestTimeout);
        }
        if (maxConcurrentRequests < 1) {
            throw new IllegalArgumentException("maxConcurrentRequests must be at least 1, not " + maxConcurrentRequests);
        }
    }

    /** Connect timeout 10 s, request timeout 60 s, 32 concurrent requests. */
    public static HttpStoreOptions defaults() {
        return DEFAULTS;
    }

    /** These options with {@code connectTimeout} changed. */
    public HttpStoreOptions withConnectTimeout(Duration connectTimeout) {
        return new HttpStoreOptions(connectTimeout, requestTimeout, maxConcurrentRequests);
    }

    /** These options with {@code requestTimeout} changed. */
    public HttpStoreOptions withRequestTimeout(Duration requestTimeout) {
        return new HttpStoreOptions(connectTimeout, requestTimeout, maxConcurrentRequests);
    }

    /** These options with {@code maxConcurrentRequests} changed. */
    public HttpStoreOptions withMaxConcurrentRequests(int maxConcurrentRequests) {
        return new HttpStoreOptions(connectTimeout, requestTimeout, maxConcurrentRequests);
    }
}
