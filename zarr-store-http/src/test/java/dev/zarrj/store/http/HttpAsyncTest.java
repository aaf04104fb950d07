package dev.zarrj.store.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The asynchronous reads keep requests in flight without a thread each, up to
 * {@code maxConcurrentRequests} for the whole store: started from one thread, they reach a server
 * that holds every request until {@code target} have arrived (at most 3 s) and counts the most it
 * held at once.
 */
class HttpAsyncTest {
    private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d+)");

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private HttpServer server;
    private CountDownLatch arrived;

    /** Serves /d/<key> as bytes 0..99 (ranges honoured) after holding each request as the class comment says. */
    private URI start(int target) throws IOException {
        arrived = new CountDownLatch(target);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/d/", ex -> {
            try (ex) {
                ex.getRequestBody().readAllBytes();
                peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                arrived.countDown();
                try {
                    arrived.await(3, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    return;
                } finally {
                    inFlight.decrementAndGet();
                }
                String range = ex.getRequestHeaders().getFirst("Range");
                Matcher m = range == null ? null : RANGE.matcher(range);
                int first = 0;
                int last = 99;
                if (m != null && m.matches()) {
                    first = Integer.parseInt(m.group(1));
                    last = Integer.parseInt(m.group(2));
                    ex.getResponseHeaders().add("Content-Range", "bytes " + first + "-" + last + "/100");
                }
                byte[] body = new byte[last - first + 1];
                for (int i = 0; i < body.length; i++) {
                    body[i] = (byte) (first + i);
                }
                ex.sendResponseHeaders(m != null && m.matches() ? 206 : 200, body.length);
                try (OutputStream o = ex.getResponseBody()) {
                    o.write(body);
                }
            }
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/d");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
        executor.shutdownNow();
    }

    @Test
    void getPartialValuesAsyncKeepsAllRangesInFlightAtOnce() throws Exception {
        URI root = start(16);
        try (Store s = HttpStores.open(root)) {
            List<KeyRange> ranges = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                ranges.add(new KeyRange(StoreKey.of("c/" + i), ByteRange.of(i, 1)));
            }
            List<Optional<ByteBuffer>> got = s.getPartialValuesAsync(ranges).get();
            for (int i = 0; i < 16; i++) {
                assertEquals(ByteBuffer.wrap(new byte[] {(byte) i}), got.get(i).orElseThrow(), "range " + i);
            }
            assertEquals(16, peak.get(), "requests in flight at once");
        }
    }

    @Test
    void getAsyncCallsFromOneThreadOverlap() throws Exception {
        URI root = start(16);
        try (Store s = HttpStores.open(root)) {
            List<CompletableFuture<Optional<ByteBuffer>>> fs = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                fs.add(s.getAsync(StoreKey.of("c/" + i), ByteRange.of(2 * i, 2)));
                fs.add(s.getAsync(StoreKey.of("w/" + i)));
            }
            for (int i = 0; i < 8; i++) {
                assertArrayEquals(new byte[] {(byte) (2 * i), (byte) (2 * i + 1)}, bytes(fs.get(2 * i).get().orElseThrow()));
                assertEquals(100, fs.get(2 * i + 1).get().orElseThrow().remaining());
            }
            assertEquals(16, peak.get(), "requests in flight at once");
        }
    }

    /** max-concurrent-requests bounds the whole store's requests, from every caller, and is its ioConcurrency. */
    @Test
    void maxConcurrentRequestsBoundsTheStoresRequestsInFlight() throws Exception {
        URI root = start(4);
        try (Store s = HttpStores.open(URI.create(root + "?max-concurrent-requests=4"))) {
            assertEquals(4, s.ioConcurrency());
            List<CompletableFuture<Optional<ByteBuffer>>> fs = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                fs.add(s.getAsync(StoreKey.of("c/" + i), ByteRange.of(i, 1)));
            }
            List<KeyRange> ranges = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                ranges.add(new KeyRange(StoreKey.of("p/" + i), ByteRange.of(i, 1)));
            }
            List<Optional<ByteBuffer>> partial = s.getPartialValuesAsync(ranges).get();
            for (int i = 0; i < 12; i++) {
                assertEquals(ByteBuffer.wrap(new byte[] {(byte) i}), fs.get(i).get().orElseThrow());
                assertEquals(ByteBuffer.wrap(new byte[] {(byte) i}), partial.get(i).orElseThrow());
            }
            assertEquals(4, peak.get(), "requests in flight at once");
        }
        try (Store s = HttpStores.open(root)) {
            assertEquals(64, s.ioConcurrency(), "the default suits a remote store");
        }
    }

    @Test
    void asyncFailuresCompleteTheFutureWithTheBlockingMethodsException() throws Exception {
        URI root = start(1);
        server.createContext("/d/bad", ex -> {
            try (ex) {
                ex.sendResponseHeaders(500, -1);
            }
        });
        try (Store s = HttpStores.open(root)) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> s.getAsync(StoreKey.of("bad")).get());
            StoreException se = assertInstanceOf(StoreException.class, e.getCause(), "not wrapped");
            assertTrue(se.getMessage().contains("/d/bad answered HTTP 500"), se.getMessage());
            StoreException blocking = assertThrows(StoreException.class, () -> s.get(StoreKey.of("bad")));
            assertEquals(se.getMessage(), blocking.getMessage(), "one message for both paths");
            e = assertThrows(ExecutionException.class, () -> s.getPartialValuesAsync(List.of(
                    new KeyRange(StoreKey.of("c/1"), ByteRange.of(0, 1)),
                    new KeyRange(StoreKey.of("bad"), ByteRange.of(0, 1)))).get());
            assertInstanceOf(StoreException.class, e.getCause());
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }
}
