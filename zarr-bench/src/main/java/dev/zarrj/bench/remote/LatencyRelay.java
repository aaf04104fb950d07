package dev.zarrj.bench.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP relay in front of an HTTP server that delays every request by a fixed latency,
 * so that a benchmark on one machine sees what a distant object store costs (netem is not
 * available everywhere), and counts the HTTP requests that pass and how many were outstanding at
 * once.
 *
 * <p><b>Delay.</b> Bytes from the client to the server are held for {@link #delayMillis()} after
 * they arrive, then forwarded in the order they came; the server's answers flow back at once.
 * Each connection has its own threads (one reading the client, one writing the server when the
 * bytes are due, one copying the answers back), so connections are delayed independently and
 * concurrently: a request waits L ms, never behind another connection's. A request whose body
 * follows an {@code Expect: 100-continue} answer pays the delay twice, as it would pay a round
 * trip twice on a real network. Changing the delay applies to the bytes that arrive afterwards.
 * The bytes held are what the client sends in L ms (the queue is not bounded: TCP's own flow
 * control stops a client only once the relay stops reading, which it never does).
 *
 * <p><b>Counting.</b> The relay does not parse HTTP; it relies on HTTP/1.1 clients not pipelining
 * (neither the AWS SDK's Netty client nor Node's fetch does), so that a connection carries one
 * request at a time:
 * <ul>
 *   <li>a <em>request</em> starts when bytes that begin with a letter (a method: {@code GET},
 *   {@code PUT}, ...) arrive from the client on a connection with no request outstanding; it
 *   is counted then, on arrival, before its delay;</li>
 *   <li>it stops being <em>in flight</em> when the first bytes of its final answer come back from
 *   the server (an interim {@code HTTP/1.1 1xx} answer, such as {@code 100 Continue}, does not
 *   count), or when the connection closes. The transfer of a large response body is therefore not
 *   counted as in flight: the figure is the requests waiting for their first byte, where a
 *   network's latency lies.</li>
 * </ul>
 * Under these assumptions the counts are exact; a client that pipelined would be undercounted.
 */
public final class LatencyRelay implements AutoCloseable {
    private static final int BUFFER = 64 * 1024;
    private static final byte[] EOF = new byte[0];

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Thread acceptor;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private volatile long delayNanos;
    private volatile boolean closed;

    private final AtomicLong requests = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();
    private final AtomicLong bytesUp = new AtomicLong();
    private final AtomicLong bytesDown = new AtomicLong();

    /** What passed through the relay since the last {@link #takeCounts()}. */
    public record Counts(long requests, int peakInFlight, long bytesToServer, long bytesToClient) {}

    /**
     * Starts a relay on a free loopback port that forwards to {@code target} with
     * {@code delayMillis} of added latency on each request.
     */
    public LatencyRelay(InetSocketAddress target, long delayMillis) throws IOException {
        this.target = target;
        delayMillis(delayMillis);
        this.server = new ServerSocket(0, 256, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "latency-relay-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The port the relay listens on (loopback). */
    public int port() {
        return server.getLocalPort();
    }

    public long delayMillis() {
        return TimeUnit.NANOSECONDS.toMillis(delayNanos);
    }

    /** Sets the latency added to the bytes that arrive from now on. */
    public void delayMillis(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("delay must not be negative: " + millis);
        }
        this.delayNanos = TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** The counts since the previous call, and starts again from zero (requests now in flight stay counted as such). */
    public Counts takeCounts() {
        int now = inFlight.get();
        return new Counts(requests.getAndSet(0), peakInFlight.getAndSet(now), bytesUp.getAndSet(0), bytesDown.getAndSet(0));
    }

    /** Stops accepting and closes every connection. */
    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Connection c : connections) {
            c.close();
        }
        try {
            acceptor.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            try {
                Socket upstream = new Socket();
                upstream.setTcpNoDelay(true);
                upstream.connect(target, 10_000);
                client.setTcpNoDelay(true);
                Connection c = new Connection(client, upstream);
                connections.add(c);
                c.start();
            } catch (IOException e) {
                closeQuietly(client);
            }
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private static boolean interim(byte[] b, int n) {
        byte[] prefix = "HTTP/1.1 1".getBytes(StandardCharsets.US_ASCII);
        return n >= prefix.length && Arrays.equals(b, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** Where the head of an interim answer at the start of {@code b} ends (after its blank line), or -1. */
    private static int afterHead(byte[] b, int n) {
        for (int i = 3; i < n; i++) {
            if (b[i - 3] == '\r' && b[i - 2] == '\n' && b[i - 1] == '\r' && b[i] == '\n') {
                return i + 1;
            }
        }
        return -1;
    }

    /** One client connection and its connection to the server. */
    private final class Connection {
        private final Socket client;
        private final Socket upstream;
        /** Due time (nanoTime) and bytes, in arrival order; EOF marks the client's end of stream. */
        private final BlockingQueue<Object[]> pending = new LinkedBlockingQueue<>();
        private final AtomicInteger directionsOpen = new AtomicInteger(2);
        private boolean awaiting; // guarded by this

        Connection(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void start() {
            daemon(this::readClient, "latency-relay-read").start();
            daemon(this::writeServer, "latency-relay-write").start();
            daemon(this::copyBack, "latency-relay-back").start();
        }

        private Thread daemon(Runnable r, String name) {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        }

        private void readClient() {
            try {
                // Not closed when done: closing a socket's stream closes the socket, and answers may still flow back.
                InputStream in = client.getInputStream();
                byte[] buf = new byte[BUFFER];
                for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                    if (n == 0) {
                        continue;
                    }
                    long due = System.nanoTime() + delayNanos;
                    requestBytes(buf[0]);
                    bytesUp.addAndGet(n);
                    pending.put(new Object[] {due, Arrays.copyOf(buf, n)});
                }
            } catch (IOException e) {
                // the client went away: end the stream below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            pending.add(new Object[] {System.nanoTime() + delayNanos, EOF});
        }

        private void writeServer() {
            try {
                OutputStream out = upstream.getOutputStream();
                while (true) {
                    Object[] p = pending.take();
                    long wait = (long) p[0] - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    byte[] b = (byte[]) p[1];
                    if (b == EOF) {
                        upstream.shutdownOutput();
                        break;
                    }
                    out.write(b);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                close();
            }
            finish();
        }

        private void copyBack() {
            try {
                InputStream in = upstream.getInputStream();
                OutputStream out = client.getOutputStream();
                byte[] buf = new byte[BUFFER];
                for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                    responseBytes(buf, n);
                    bytesDown.addAndGet(n);
                    out.write(buf, 0, n);
                    out.flush();
                }
                client.shutdownOutput();
            } catch (IOException e) {
                close();
            }
            finish();
        }

        private synchronized void requestBytes(byte first) {
            if (!awaiting && ((first >= 'A' && first <= 'Z') || (first >= 'a' && first <= 'z'))) {
                awaiting = true;
                requests.incrementAndGet();
                int now = inFlight.incrementAndGet();
                peakInFlight.accumulateAndGet(now, Math::max);
            }
        }

        private synchronized void responseBytes(byte[] b, int n) {
            if (!awaiting) {
                return;
            }
            if (interim(b, n)) {
                int end = afterHead(b, n);
                if (end < 0 || end >= n) {
                    return; // only the interim answer (or part of it): the final one is still to come
                }
            }
            awaiting = false;
            inFlight.decrementAndGet();
        }

        private void finish() {
            if (directionsOpen.decrementAndGet() == 0) {
                close();
            }
        }

        synchronized void close() {
            if (awaiting) {
                awaiting = false;
                inFlight.decrementAndGet();
            }
            closeQuietly(client);
            closeQuietly(upstream);
            connections.remove(this);
        }
    }

    @Override
    public String toString() {
        return "LatencyRelay[127.0.0.1:" + port() + " -> " + target + ", " + delayMillis() + " ms]";
    }
}
