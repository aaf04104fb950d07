package dev.zarrj.store.http;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * How an HTTP store talks to its server.
 *
 * <p>Immutable; start from {@link #defaults()} and change what you need, for example
 * {@code HttpStoreOptions.defaults().withRequestTimeout(Duration.ofMinutes(2))}, or give them in
 * the store's URI ({@link #withUriOptions}):
 * {@code https://host/data.zarr?connect-timeout=5s&request-timeout=2m&max-concurrent-requests=64}.
 *
 * @param connectTimeout        how long to wait for a connection to the server
 *                              (URI option {@code connect-timeout})
 * @param requestTimeout        how long to wait for each response to begin
 *                              (URI option {@code request-timeout})
 * @param maxConcurrentRequests how many requests the store keeps in flight at once, from all its
 *                              callers together (more wait, without a thread each, until one
 *                              completes); also its {@code ioConcurrency}, the number zarrj's read
 *                              path keeps outstanding. Bounds the connections an HTTP/1.1 server
 *                              sees (HTTP/2 multiplexes them over one). URI option
 *                              {@code max-concurrent-requests}
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record HttpStoreOptions(Duration connectTimeout, Duration requestTimeout, int maxConcurrentRequests) {
    private static final HttpStoreOptions DEFAULTS =
            new HttpStoreOptions(Duration.ofSeconds(10), Duration.ofSeconds(60), 64);
    private static final Set<String> URI_OPTIONS = Set.of("connect-timeout", "request-timeout", "max-concurrent-requests");
    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d{1,12})(ms|s|m|h)");

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

    /** Connect timeout 10 s, request timeout 60 s, 64 concurrent requests. */
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

    /**
     * These options with those given in the URI's query in their place:
     * {@code connect-timeout} and {@code request-timeout} (a positive duration: {@code 500ms},
     * {@code 30s}, {@code 2m}, {@code 1h}, or ISO-8601 such as {@code PT1M30S}) and
     * {@code max-concurrent-requests} (a positive whole number). A URI without a query gives
     * these options unchanged.
     *
     * @throws IllegalArgumentException naming the option, for an unknown option, one given twice
     *                                  or a bad value
     */
    public HttpStoreOptions withUriOptions(URI uri) {
        HttpStoreOptions base = this;
        String raw = uri.getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return base;
        }
        Map<String, String> given = new LinkedHashMap<>();
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            if (!URI_OPTIONS.contains(k)) {
                throw new IllegalArgumentException("'" + redact(uri) + "': unknown option '" + k + "'; known: "
                        + String.join(", ", new TreeSet<>(URI_OPTIONS)));
            }
            if (given.put(k, v) != null) {
                throw new IllegalArgumentException("'" + redact(uri) + "': option '" + k + "' given twice");
            }
        }
        HttpStoreOptions o = base;
        if (given.containsKey("connect-timeout")) {
            o = o.withConnectTimeout(duration(uri, "connect-timeout", given.get("connect-timeout")));
        }
        if (given.containsKey("request-timeout")) {
            o = o.withRequestTimeout(duration(uri, "request-timeout", given.get("request-timeout")));
        }
        if (given.containsKey("max-concurrent-requests")) {
            String v = given.get("max-concurrent-requests");
            int n;
            try {
                n = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                n = 0;
            }
            if (n < 1) {
                throw new IllegalArgumentException("'" + redact(uri) + "': option 'max-concurrent-requests' is '" + v
                        + "', not a positive whole number");
            }
            o = o.withMaxConcurrentRequests(n);
        }
        return o;
    }

    /** {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, or ISO-8601 ({@code PT1M30S}); positive. */
    private static Duration duration(URI uri, String name, String text) {
        Duration d = null;
        Matcher m = SIMPLE_DURATION.matcher(text);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            d = switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            };
        } else if (text.regionMatches(true, 0, "PT", 0, 2)) {
            try {
                d = Duration.parse(text);
            } catch (DateTimeParseException e) {
                d = null;
            }
        }
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("'" + redact(uri) + "': option '" + name + "' is '" + text
                    + "', not a positive duration such as 500ms, 30s, 2m, 1h or PT1M30S");
        }
        return d;
    }

    private static String redact(URI uri) {
        return uri.getRawUserInfo() == null ? uri.toString() : uri.toString().replace(uri.getRawUserInfo() + "@", "");
    }
}
