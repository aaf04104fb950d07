package dev.zarrj.store.http.internal;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ValueChangedException;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.http.HttpStoreOptions;
import java.net.Authenticator;
import java.net.PasswordAuthentication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A read-only store over HTTP(S); see {@link dev.zarrj.store.http.HttpStores} for what it does.
 *
 * <p>Every answer to a ranged read is checked before its bytes are returned: a 206 must carry a
 * {@code Content-Range} naming exactly the bytes asked for, with a body of that length; a 200 (a
 * server that ignored {@code Range}) carries the whole value, which is sliced here; a 416 is
 * resolved against the value's size so that a range outside the value fails as it does in every
 * other store. Anything else fails naming the URL, so a misbehaving server never yields wrong bytes.
 *
 * <p>Requests are sent with {@link HttpClient#sendAsync}; at most
 * {@link HttpStoreOptions#maxConcurrentRequests()} are in flight at once for the whole store, the
 * others wait in a queue (no thread waits for them) and start as earlier ones complete.
 */
public final class HttpStore implements Store {
    private static final StoreCapabilities CAPABILITIES = new StoreCapabilities(true, false, false, false);
    private static final Pattern CONTENT_RANGE =
            Pattern.compile("bytes\\s+(?:(\\d+)-(\\d+)|\\*)/(\\d+|\\*)", Pattern.CASE_INSENSITIVE);
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private final HttpClient client;
    private final HttpStoreOptions options;
    /** scheme://host[:port][/path], without user information, query and trailing slashes. */
    private final String root;
    /** Requests in flight, and those waiting for one of them to complete. */
    private int inFlight;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();

    /**
     * @param options the options, which those in the URI's query replace
     * @throws IllegalArgumentException when the URI is not an absolute http(s) URI with a host, has
     *                                  a fragment, or has a query that is not valid options
     */
    public HttpStore(URI uri, HttpStoreOptions options) {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(options, "options");
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("'" + uri + "' is not an http: or https: URI");
        }
        if (uri.isOpaque() || uri.getHost() == null) {
            throw new IllegalArgumentException("'" + redact(uri) + "' names no host; write "
                    + scheme + "://host/path");
        }
        if (uri.getRawFragment() != null) {
            throw new IllegalArgumentException("'" + redact(uri)
                    + "': an http store URI takes no fragment (keys are appended to its path)");
        }
        this.options = options.withUriOptions(uri);
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        String host = uri.getHost();
        this.root = scheme + "://" + host + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + path;
        HttpClient.Builder cb = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(options.connectTimeout());
        if (uri.getUserInfo() != null) {
            cb.authenticator(new RootOnly(uri));
        }
        this.client = cb.build();
    }

    /**
     * Answers a server's basic-authentication challenge with the URI's user information, only for
     * the root's own host and port: a request redirected elsewhere never carries the credentials.
     */
    private static final class RootOnly extends Authenticator {
        private final String host;
        private final int port;
        private final String user;
        private final char[] password;

        RootOnly(URI uri) {
            this.host = uri.getHost();
            this.port = uri.getPort() >= 0 ? uri.getPort() : uri.getScheme().equalsIgnoreCase("https") ? 443 : 80;
            String info = uri.getUserInfo();
            int colon = info.indexOf(':');
            this.user = colon < 0 ? info : info.substring(0, colon);
            this.password = colon < 0 ? new char[0] : info.substring(colon + 1).toCharArray();
        }

        @Override
        protected PasswordAuthentication getPasswordAuthentication() {
            if (getRequestorType() == RequestorType.SERVER && host.equalsIgnoreCase(getRequestingHost())
                    && port == getRequestingPort()) {
                return new PasswordAuthentication(user, password.clone());
            }
            return null;
        }
    }

    private static String redact(URI uri) {
        if (uri.getRawUserInfo() == null) {
            return uri.toString();
        }
        return uri.toString().replace(uri.getRawUserInfo() + "@", "");
    }

    @Override
    public StoreCapabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public String describe() {
        return root;
    }

    /** {@link HttpStoreOptions#maxConcurrentRequests()}: the requests the store keeps in flight. */
    @Override
    public int ioConcurrency() {
        return options.maxConcurrentRequests();
    }

    /** The URL of a key: the root, then each segment of the key percent-encoded. */
    String url(StoreKey key) {
        StringBuilder b = new StringBuilder(root.length() + key.value().length() + 8).append(root);
        for (String segment : key.value().split("/", -1)) {
            b.append('/');
            encodeSegment(segment, b);
        }
        return b.toString();
    }

    /**
     * Percent-encodes a path segment: every byte of its UTF-8 form other than an RFC 3986
     * unreserved character, so that no key character ({@code ? # % ; /} included) means anything
     * to the server but itself.
     */
    static void encodeSegment(String segment, StringBuilder out) {
        for (byte x : segment.getBytes(StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_' || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
    }

    // ---- readable ----

    @Override
    public Optional<ByteBuffer> get(StoreKey key) {
        return await(getAsync(key));
    }

    @Override
    public Optional<ByteBuffer> get(StoreKey key, ByteRange range) {
        Objects.requireNonNull(range, "range");
        return await(getAsync(key, range));
    }

    /** Waits for {@link #getPartialValuesAsync}. */
    @Override
    public List<Optional<ByteBuffer>> getPartialValues(List<KeyRange> ranges) {
        return await(getPartialValuesAsync(ranges));
    }

    @Override
    public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key) {
        return settle(() -> fetch(key, ByteRange.all()));
    }

    @Override
    public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key, ByteRange range) {
        if (range == null) {
            return CompletableFuture.failedFuture(new NullPointerException("range"));
        }
        return settle(() -> fetch(key, range));
    }

    @Override
    public OptionalLong size(StoreKey key) {
        return await(settle(() -> sizeAsync(key)));
    }

    /** HTTP offers no listing. */
    @Override
    public List<StoreKey> listPrefix(String prefix) {
        StoreKey.checkPrefix(prefix);
        throw new UnsupportedOperationException(root
                + " is not listable: HTTP offers no listing; open arrays and groups by path");
    }

    // ---- requests ----

    private HttpRequest.Builder request(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(options.requestTimeout());
    }

    private <T> CompletableFuture<HttpResponse<T>> send(String method, String url, HttpRequest request,
                                                          HttpResponse.BodyHandler<T> handler) {
        return limited(() -> client.sendAsync(request, handler)).handle((r, t) -> {
            if (t != null) {
                Throwable cause = unwrap(t);
                throw new CompletionException(new StoreException(method + " " + url + " failed: " + cause, cause));
            }
            return r;
        });
    }

    /**
     * Starts a request now if fewer than {@code maxConcurrentRequests} are in flight, else when one
     * completes; the returned future completes after the slot is given back, so that a request
     * started from its callback never waits for its own slot.
     */
    private <T> CompletableFuture<T> limited(Supplier<CompletableFuture<T>> request) {
        CompletableFuture<T> out = new CompletableFuture<>();
        Runnable start = () -> {
            CompletableFuture<T> f;
            try {
                f = request.get();
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((v, e) -> {
                release();
                if (e != null) {
                    out.completeExceptionally(e);
                } else {
                    out.complete(v);
                }
            });
        };
        boolean now;
        synchronized (waiting) {
            now = inFlight < options.maxConcurrentRequests();
            if (now) {
                inFlight++;
            } else {
                waiting.add(start);
            }
        }
        if (now) {
            start.run();
        }
        return out;
    }

    private void release() {
        Runnable next;
        synchronized (waiting) {
            next = waiting.poll();
            if (next == null) {
                inFlight--;
            }
        }
        if (next != null) {
            // Not on this thread: a request that fails at once would otherwise recurse through the queue.
            ForkJoinPool.commonPool().execute(next);
        }
    }

    /** The future of {@code call}, failing with the ZarrException the blocking method throws, unwrapped. */
    private static <T> CompletableFuture<T> settle(Supplier<CompletableFuture<T>> call) {
        CompletableFuture<T> f;
        try {
            f = call.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<T> out = new CompletableFuture<>();
        f.whenComplete((v, e) -> {
            if (e == null) {
                out.complete(v);
            } else {
                out.completeExceptionally(unwrap(e));
            }
        });
        return out;
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** A range of a key's value, checked as the class comment says; empty when absent. */
    CompletableFuture<Optional<ByteBuffer>> fetch(StoreKey key, ByteRange range) {
        return fetch(key, range, null).thenApply(Got::bytes);
    }

    /**
     * What one GET answered: the bytes (empty when absent) and the value's {@code ETag}, null when
     * the answer carried none (or was not a 200 or 206).
     */
    private record Got(Optional<ByteBuffer> bytes, String etag) {}

    /** A strong entity tag ({@code "..."}); a weak one ({@code W/"..."}) never passes {@code If-Match}. */
    private static boolean strong(String etag) {
        return etag != null && etag.startsWith("\"");
    }

    /**
     * A range of a key's value with the value's ETag; with {@code ifMatch} (a strong ETag), only
     * from the value of that ETag: a 412 fails the future with a {@link ValueChangedException}.
     */
    private CompletableFuture<Got> fetch(StoreKey key, ByteRange range, String ifMatch) {
        String url = url(key);
        boolean whole = range instanceof ByteRange.From f && f.start() == 0;
        if ((range instanceof ByteRange.Bounded b && b.length() == 0)
                || (range instanceof ByteRange.Suffix s && s.length() == 0)) {
            // HTTP cannot ask for no bytes; the size says whether the empty range lies in the value.
            return sizeAsync(key).thenApply(size -> {
                if (size.isEmpty()) {
                    return new Got(Optional.empty(), null);
                }
                resolve(key, range, size.getAsLong());
                return new Got(Optional.of(ByteBuffer.allocate(0)), null);
            });
        }
        HttpRequest.Builder rb = request(url).GET();
        String asked = whole ? null : rangeHeader(range);
        if (asked != null) {
            rb.header("Range", asked);
        }
        if (ifMatch != null) {
            rb.header("If-Match", ifMatch);
        }
        return send("GET", url, rb.build(), HttpResponse.BodyHandlers.ofByteArray())
                .thenCompose(r -> {
                    if (r.statusCode() == 412 && ifMatch != null) {
                        throw new CompletionException(new ValueChangedException("GET " + url
                                + (asked == null ? "" : " (Range: " + asked + ")") + ": key '" + key
                                + "' was replaced while being read (If-Match " + ifMatch + " answered HTTP 412)", null));
                    }
                    String etag = r.statusCode() == 200 || r.statusCode() == 206
                            ? r.headers().firstValue("ETag").map(String::trim).filter(e -> !e.isEmpty()).orElse(null)
                            : null;
                    return answer(key, url, range, asked, r).thenApply(b -> new Got(b, etag));
                });
    }

    /**
     * Reads whose ranges all come from one version of the value, at no extra request, when the
     * server sends an {@code ETag}: the first answer's ETag goes with every later request as
     * {@code If-Match} (when it is a strong one), and a 412, a 404 (the value is gone) or an
     * answer with another ETag throws {@link ValueChangedException}. Ranges requested together
     * before any ETag is known go out at once and their ETags must agree. A server that sends no
     * ETag (some static servers send only {@code Last-Modified}) gives nothing to compare: its
     * values are read as by the default reader, and one replaced between two ranged reads of a
     * partial decode goes unnoticed; that is a limit of such servers, documented in
     * {@link dev.zarrj.store.http.HttpStores}.
     */
    @Override
    public RangeReader rangeReader(StoreKey key) {
        Objects.requireNonNull(key, "key");
        return new RangeReader() {
            /** The ETag of the value read first, once an answer carried one. */
            private final java.util.concurrent.atomic.AtomicReference<String> version =
                    new java.util.concurrent.atomic.AtomicReference<>();

            @Override
            public Optional<ByteBuffer> get(ByteRange range) {
                Objects.requireNonNull(range, "range");
                return await(getAllAsync(List.of(range))).get(0);
            }

            @Override
            public List<Optional<ByteBuffer>> getAll(List<ByteRange> ranges) {
                return await(getAllAsync(ranges));
            }

            @Override
            public CompletableFuture<List<Optional<ByteBuffer>>> getAllAsync(List<ByteRange> ranges) {
                String want = version.get();
                return settle(() -> {
                    List<CompletableFuture<Got>> parts = new ArrayList<>(ranges.size());
                    for (ByteRange r : ranges) {
                        parts.add(fetch(key, Objects.requireNonNull(r, "range"), strong(want) ? want : null));
                    }
                    return CompletableFuture.allOf(parts.toArray(new CompletableFuture<?>[0])).thenApply(v -> {
                        List<Optional<ByteBuffer>> out = new ArrayList<>(parts.size());
                        String seen = want;
                        for (CompletableFuture<Got> part : parts) {
                            Got got = part.join();
                            if (got.bytes().isEmpty() && seen != null) {
                                throw new ValueChangedException(url(key) + ": key '" + key + "' is gone while"
                                        + " being read (ETag " + seen + " was read before)", null);
                            }
                            if (got.etag() != null) {
                                if (seen == null) {
                                    seen = got.etag();
                                } else if (!seen.equals(got.etag())) {
                                    throw new ValueChangedException(url(key) + ": key '" + key + "' was replaced"
                                            + " while being read (ETag " + seen + ", then " + got.etag() + ")", null);
                                }
                            }
                            out.add(got.bytes());
                        }
                        if (want == null && seen != null && !version.compareAndSet(null, seen)
                                && !seen.equals(version.get())) {
                            // Another read of this reader, made at the same time, saw another version.
                            throw new ValueChangedException(url(key) + ": key '" + key + "' was replaced while"
                                    + " being read (ETag " + version.get() + ", then " + seen + ")", null);
                        }
                        return out;
                    });
                });
            }

            /** Known from the first answer: true when it carried an ETag. */
            @Override
            public boolean versioned() {
                return version.get() != null;
            }
        };
    }

    private CompletableFuture<Optional<ByteBuffer>> answer(StoreKey key, String url, ByteRange range, String asked,
                                                           HttpResponse<byte[]> r) {
        byte[] body = r.body();
        switch (r.statusCode()) {
            case 200: {
                // The whole value: asked for, or the server ignored Range.
                long[] se = resolve(key, range, body.length);
                return done(Optional.of(ByteBuffer.wrap(body, (int) se[0], (int) (se[1] - se[0])).slice()));
            }
            case 206: {
                if (asked == null) {
                    throw mismatch(url, asked, r, "206 Partial Content for a request without Range");
                }
                String cr = r.headers().firstValue("Content-Range").orElse(null);
                Matcher m = cr == null ? null : CONTENT_RANGE.matcher(cr.trim());
                if (m == null || !m.matches() || m.group(1) == null) {
                    throw mismatch(url, asked, r, "206 Partial Content with Content-Range " + quote(cr));
                }
                long first = Long.parseLong(m.group(1));
                long last = Long.parseLong(m.group(2));
                long[] se;
                if (m.group(3).equals("*")) {
                    // No size: only an exact answer to an exact request can be checked.
                    if (!(range instanceof ByteRange.Bounded b)) {
                        throw mismatch(url, asked, r, "Content-Range " + quote(cr) + " without the value's size");
                    }
                    se = new long[] {b.start(), b.start() + b.length()};
                } else {
                    se = resolve(key, range, Long.parseLong(m.group(3)));
                }
                if (first != se[0] || last + 1 != se[1]) {
                    throw mismatch(url, asked, r, "Content-Range " + quote(cr) + " instead of bytes "
                            + se[0] + "-" + (se[1] - 1));
                }
                if (body.length != se[1] - se[0]) {
                    throw mismatch(url, asked, r, "a body of " + body.length + " bytes for Content-Range "
                            + quote(cr));
                }
                return done(Optional.of(ByteBuffer.wrap(body)));
            }
            case 404:
                return done(Optional.empty());
            case 416: {
                // Range Not Satisfiable: resolve the range against the size, as other stores do.
                String cr = r.headers().firstValue("Content-Range").orElse(null);
                Matcher m = cr == null ? null : CONTENT_RANGE.matcher(cr.trim());
                CompletableFuture<OptionalLong> size = m != null && m.matches() && !m.group(3).equals("*")
                        ? done(OptionalLong.of(Long.parseLong(m.group(3))))
                        : sizeAsync(key);
                return size.thenApply(s -> {
                    if (s.isEmpty()) {
                        return Optional.empty();
                    }
                    long[] se = resolve(key, range, s.getAsLong());
                    if (se[1] > se[0]) {
                        throw mismatch(url, asked, r, "416 for a range that lies within the value's "
                                + s.getAsLong() + " bytes");
                    }
                    return Optional.of(ByteBuffer.allocate(0));
                });
            }
            default:
                throw status("GET", url, asked, r.statusCode());
        }
    }

    /** The size of a key's value from {@code HEAD}, or from a {@code GET} when the server gives none. */
    CompletableFuture<OptionalLong> sizeAsync(StoreKey key) {
        String url = url(key);
        HttpRequest head = request(url).method("HEAD", HttpRequest.BodyPublishers.noBody()).build();
        return send("HEAD", url, head, HttpResponse.BodyHandlers.discarding()).thenCompose(r -> {
            int status = r.statusCode();
            if (status == 404) {
                return done(OptionalLong.empty());
            }
            OptionalLong length = r.headers().firstValueAsLong("Content-Length");
            if (status == 200 && length.isPresent()) {
                return done(length);
            }
            if ((status == 200) || status == 405 || status == 501) {
                return fetch(key, ByteRange.all()).thenApply(v ->
                        v.isPresent() ? OptionalLong.of(v.get().remaining()) : OptionalLong.empty());
            }
            throw status("HEAD", url, null, status);
        });
    }

    private static String rangeHeader(ByteRange range) {
        if (range instanceof ByteRange.Bounded b) {
            return "bytes=" + b.start() + "-" + (b.start() + b.length() - 1);
        }
        if (range instanceof ByteRange.From f) {
            return "bytes=" + f.start() + "-";
        }
        return "bytes=-" + ((ByteRange.Suffix) range).length();
    }

    /** As {@link Store#get(StoreKey, ByteRange)} reports a range outside the value. */
    private long[] resolve(StoreKey key, ByteRange range, long size) {
        try {
            return range.resolve(size);
        } catch (IllegalArgumentException e) {
            throw new StoreException(root + ": key '" + key + "': " + e.getMessage(), e);
        }
    }

    private static StoreException status(String method, String url, String asked, int status) {
        return new StoreException(method + " " + url + (asked == null ? "" : " (Range: " + asked + ")")
                + " answered HTTP " + status, null);
    }

    private static StoreException mismatch(String url, String asked, HttpResponse<?> r, String what) {
        return new StoreException("GET " + url + (asked == null ? "" : " (Range: " + asked + ")")
                + ": the server answered " + what + "; refusing bytes that may not be the ones asked for"
                + " (HTTP " + r.statusCode() + ")", null);
    }

    private static String quote(String s) {
        return s == null ? "(none)" : "'" + s + "'";
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }

    private <T> T await(CompletableFuture<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new StoreException(root + ": interrupted", e);
        } catch (ExecutionException e) {
            Throwable c = unwrap(e.getCause());
            if (c instanceof ZarrException z) {
                throw z;
            }
            if (c instanceof RuntimeException re) {
                throw re;
            }
            throw new StoreException(root + ": " + c, c);
        }
    }
}
