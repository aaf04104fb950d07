package dev.zarrj.store.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP server on loopback for tests: serves files under {@code /data/} from a map or a
 * directory, in one of several {@link Mode}s, redirects {@code /moved/...} to {@code /data/...}
 * with a 302, and records every request it sees.
 */
final class TestServer implements AutoCloseable {
    /** How the server answers. */
    enum Mode {
        /** Range honoured: 206 with Content-Range, 416 past the end. */
        HONOURS_RANGE,
        /** Range ignored: 200 with the whole value. */
        IGNORES_RANGE,
        /** 206 with a Content-Range one byte later than asked (and the bytes it names). */
        WRONG_CONTENT_RANGE,
        /** 206 with the right Content-Range and one byte too few. */
        SHORT_BODY,
        /** 500 for every GET. */
        ERROR_500,
    }

    private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Map<String, byte[]> map;
    private final Path dir;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private volatile Mode mode = Mode.HONOURS_RANGE;
    private volatile boolean headAllowed = true;
    private volatile String requiredAuthorization;
    private volatile boolean etags;

    private TestServer(Map<String, byte[]> map, Path dir) {
        this.map = map;
        this.dir = dir;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** Serves {@code content} (keys to values) under {@code /data/}. */
    static TestServer serving(Map<String, byte[]> content) {
        return new TestServer(new ConcurrentHashMap<>(content), null);
    }

    /** Serves the files under a directory under {@code /data/}. */
    static TestServer serving(Path directory) {
        return new TestServer(null, directory);
    }

    TestServer mode(Mode mode) {
        this.mode = mode;
        return this;
    }

    /**
     * Whether answers carry a strong {@code ETag} (a digest of the value) and {@code If-Match}
     * is honoured (412 when it names another); off by default.
     */
    TestServer etags(boolean on) {
        this.etags = on;
        return this;
    }

    /** Replaces (or adds) the value of a key served from the map. */
    void put(String key, byte[] value) {
        map.put(key, value);
    }

    /** Whether HEAD is answered (else 405). */
    TestServer headAllowed(boolean allowed) {
        this.headAllowed = allowed;
        return this;
    }

    /** Answers 401 (with a basic challenge) to requests without these credentials. */
    TestServer requireBasic(String user, String password) {
        this.requiredAuthorization = "Basic " + java.util.Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return this;
    }

    /** {@code http://127.0.0.1:port} followed by {@code path}. */
    URI uri(String path) {
        return URI.create("http://" + server.getAddress().getAddress().getHostAddress() + ":"
                + server.getAddress().getPort() + path);
    }

    /** The requests seen so far, as {@code "METHOD /path [Range]"}. */
    List<String> requests() {
        return List.copyOf(requests);
    }

    void clearRequests() {
        requests.clear();
    }

    private byte[] lookup(String path) throws IOException {
        String key = path.substring("/data/".length());
        if (map != null) {
            return map.get(key);
        }
        Path p = dir.resolve(key).normalize();
        if (!p.startsWith(dir) || !Files.isRegularFile(p)) {
            return null;
        }
        return Files.readAllBytes(p);
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            String range = ex.getRequestHeaders().getFirst("Range");
            String method = ex.getRequestMethod();
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            String ifMatch = ex.getRequestHeaders().getFirst("If-Match");
            requests.add(method + " " + ex.getRequestURI().getRawPath() + (range == null ? "" : " " + range)
                    + (auth == null ? "" : " [auth]") + (ifMatch == null ? "" : " [If-Match " + ifMatch + "]"));
            if (path.startsWith("/elsewhere/")) {
                // The same server under another host name: a different origin to the client.
                ex.getResponseHeaders().set("Location", "http://localhost:" + server.getAddress().getPort()
                        + "/data/" + path.substring("/elsewhere/".length()));
                ex.sendResponseHeaders(302, -1);
                return;
            }
            String required = requiredAuthorization;
            if (required != null && !required.equals(auth)) {
                ex.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"test\"");
                ex.sendResponseHeaders(401, -1);
                return;
            }
            if (path.startsWith("/moved/")) {
                ex.getResponseHeaders().set("Location", "/data/" + path.substring("/moved/".length()));
                ex.sendResponseHeaders(302, -1);
                return;
            }
            if (!path.startsWith("/data/")) {
                ex.sendResponseHeaders(404, -1);
                return;
            }
            if (method.equals("HEAD") && !headAllowed) {
                ex.sendResponseHeaders(405, -1);
                return;
            }
            byte[] value = lookup(path);
            if (value == null) {
                ex.sendResponseHeaders(404, -1);
                return;
            }
            if (etags) {
                String tag = "\"" + Integer.toHexString(java.util.Arrays.hashCode(value)) + "-" + value.length + "\"";
                if (ifMatch != null && !ifMatch.equals(tag)) {
                    ex.sendResponseHeaders(412, -1);
                    return;
                }
                ex.getResponseHeaders().set("ETag", tag);
            }
            if (method.equals("HEAD")) {
                ex.getResponseHeaders().set("Content-Length", Long.toString(value.length));
                ex.sendResponseHeaders(200, -1);
                return;
            }
            if (mode == Mode.ERROR_500) {
                ex.sendResponseHeaders(500, -1);
                return;
            }
            if (range == null || mode == Mode.IGNORES_RANGE) {
                send(ex, 200, value, 0, value.length);
                return;
            }
            Matcher m = RANGE.matcher(range);
            if (!m.matches() || (m.group(1).isEmpty() && m.group(2).isEmpty())) {
                ex.sendResponseHeaders(400, -1);
                return;
            }
            long n = value.length;
            long first;
            long last;
            if (m.group(1).isEmpty()) {
                long suffix = Long.parseLong(m.group(2));
                first = Math.max(0, n - suffix);
                last = n - 1;
                if (suffix == 0) {
                    first = n;
                }
            } else {
                first = Long.parseLong(m.group(1));
                last = m.group(2).isEmpty() ? n - 1 : Math.min(Long.parseLong(m.group(2)), n - 1);
            }
            if (first >= n || first > last) {
                ex.getResponseHeaders().set("Content-Range", "bytes */" + n);
                ex.sendResponseHeaders(416, -1);
                return;
            }
            if (mode == Mode.WRONG_CONTENT_RANGE && last + 1 < n) {
                first++;
                last++;
            }
            ex.getResponseHeaders().set("Content-Range", "bytes " + first + "-" + last + "/" + n);
            int end = (int) last + 1 - (mode == Mode.SHORT_BODY ? 1 : 0);
            send(ex, 206, value, (int) first, end);
        }
    }

    private static void send(HttpExchange ex, int status, byte[] value, int from, int to) throws IOException {
        int len = to - from;
        ex.sendResponseHeaders(status, len == 0 ? -1 : len);
        if (len > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(value, from, len);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
