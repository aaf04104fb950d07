package dev.zarrj.bench.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The relay forwards bytes intact and in order, in both directions, on many connections at once,
 * and counts HTTP requests and those outstanding together. No timing is asserted beyond the
 * lower bound the delay guarantees.
 */
class LatencyRelayTest {
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        pool.shutdownNow();
    }

    /** A server that runs {@code handler} on each connection it accepts. */
    private InetSocketAddress server(Handler handler) throws IOException {
        ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        open.add(s);
        pool.submit(() -> {
            while (!s.isClosed()) {
                Socket c = s.accept();
                pool.submit(() -> {
                    try (c) {
                        handler.handle(c.getInputStream(), c.getOutputStream());
                    }
                    return null;
                });
            }
            return null;
        });
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort());
    }

    private interface Handler {
        void handle(InputStream in, OutputStream out) throws Exception;
    }

    private LatencyRelay relay(InetSocketAddress target, long millis) throws IOException {
        LatencyRelay r = new LatencyRelay(target, millis);
        open.add(r);
        return r;
    }

    private Socket connect(LatencyRelay relay) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), relay.port());
        s.setSoTimeout(30_000);
        open.add(s);
        return s;
    }

    @Test
    void bytesArriveIntactAndInOrderOnManyConnectionsAtOnce() throws Exception {
        // Echo: what the server receives comes back, so both directions are checked.
        LatencyRelay relay = relay(server((in, out) -> in.transferTo(out)), 5);
        List<Future<?>> clients = new ArrayList<>();
        for (int k = 0; k < 6; k++) {
            int seed = k;
            clients.add(pool.submit(() -> {
                byte[] data = new byte[300_000 + seed * 1000];
                Random random = new Random(seed);
                random.nextBytes(data);
                try (Socket s = connect(relay)) {
                    Future<byte[]> back = pool.submit(() -> s.getInputStream().readAllBytes());
                    OutputStream out = s.getOutputStream();
                    for (int i = 0; i < data.length; ) {
                        int n = Math.min(data.length - i, 1 + random.nextInt(40_000));
                        out.write(data, i, n);
                        out.flush();
                        i += n;
                    }
                    s.shutdownOutput();
                    assertArrayEquals(data, back.get(30, TimeUnit.SECONDS), "connection " + seed);
                }
                return null;
            }));
        }
        for (Future<?> f : clients) {
            f.get(60, TimeUnit.SECONDS);
        }
        LatencyRelay.Counts counts = relay.takeCounts();
        long sent = 0;
        for (int k = 0; k < 6; k++) {
            sent += 300_000 + k * 1000;
        }
        assertEquals(sent, counts.bytesToServer());
        assertEquals(sent, counts.bytesToClient());
    }

    @Test
    void aRequestWaitsAtLeastTheDelay() throws Exception {
        LatencyRelay relay = relay(server(LatencyRelayTest::http), 200);
        try (Socket s = connect(relay)) {
            long start = System.nanoTime();
            assertEquals("ok", exchange(s, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(200), "the request was held for the delay");
        }
    }

    @Test
    void countsRequestsAndThePeakInFlight() throws Exception {
        int concurrent = 4;
        CountDownLatch allArrived = new CountDownLatch(concurrent);
        // The server answers /wait only once all the concurrent requests have reached it, so exactly
        // `concurrent` are outstanding at once; other paths are answered at once.
        LatencyRelay relay = relay(server((in, out) -> {
            while (true) {
                String head = head(in);
                if (head == null) {
                    return;
                }
                if (head.startsWith("PUT")) {
                    // Expect: 100-continue, then the 3-byte body.
                    out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    assertEquals(3, in.readNBytes(3).length);
                }
                if (head.startsWith("GET /wait")) {
                    allArrived.countDown();
                    allArrived.await(30, TimeUnit.SECONDS);
                }
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        }), 1);

        // Three requests one after another on one connection, one of them with 100-continue.
        try (Socket s = connect(relay)) {
            assertEquals("ok", exchange(s, "GET /1 HTTP/1.1\r\nHost: x\r\n\r\n"));
            assertEquals("ok", exchange(s, "HEAD /2 HTTP/1.1\r\nHost: x\r\n\r\n"));
            OutputStream out = s.getOutputStream();
            out.write("PUT /3 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertTrue(head(s.getInputStream()).startsWith("HTTP/1.1 100"));
            out.write("abc".getBytes(StandardCharsets.US_ASCII)); // the body: not a request of its own
            out.flush();
            assertTrue(head(s.getInputStream()).startsWith("HTTP/1.1 200"));
            assertEquals("ok", new String(s.getInputStream().readNBytes(2), StandardCharsets.US_ASCII));
        }
        LatencyRelay.Counts sequential = relay.takeCounts();
        assertEquals(3, sequential.requests());
        assertEquals(1, sequential.peakInFlight());

        List<Future<String>> parallel = new ArrayList<>();
        for (int k = 0; k < concurrent; k++) {
            parallel.add(pool.submit(() -> {
                try (Socket s = connect(relay)) {
                    return exchange(s, "GET /wait HTTP/1.1\r\nHost: x\r\n\r\n");
                }
            }));
        }
        for (Future<String> f : parallel) {
            assertEquals("ok", f.get(30, TimeUnit.SECONDS));
        }
        LatencyRelay.Counts together = relay.takeCounts();
        assertEquals(concurrent, together.requests());
        assertEquals(concurrent, together.peakInFlight());
    }

    @Test
    void aNegativeDelayIsRefused() throws Exception {
        LatencyRelay relay = relay(server((in, out) -> in.transferTo(out)), 0);
        assertThrows(IllegalArgumentException.class, () -> relay.delayMillis(-1));
        relay.delayMillis(50);
        assertEquals(50, relay.delayMillis());
    }

    /** A minimal HTTP/1.1 server: every request answered {@code ok}. */
    private static void http(InputStream in, OutputStream out) throws IOException {
        while (head(in) != null) {
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
    }

    /** Sends a request without a body and returns the 2-byte body of the answer. */
    private static String exchange(Socket s, String request) throws IOException {
        s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        String head = head(s.getInputStream());
        assertTrue(head != null && head.startsWith("HTTP/1.1 200"), String.valueOf(head));
        return new String(s.getInputStream().readNBytes(2), StandardCharsets.US_ASCII);
    }

    /** Reads up to and including a blank line; null at the end of the stream. */
    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int state = 0;
        for (int c = in.read(); c >= 0; c = in.read()) {
            b.write(c);
            state = (c == '\r' && (state == 0 || state == 2)) ? state + 1 : (c == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
            if (state == 4) {
                return b.toString(StandardCharsets.US_ASCII);
            }
        }
        return null;
    }
}
