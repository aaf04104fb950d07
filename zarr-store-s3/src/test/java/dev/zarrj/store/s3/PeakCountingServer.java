package dev.zarrj.store.s3;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An HTTP/1.1 server on loopback, a thread per connection, that holds every request until
 * {@code target} requests have arrived (or a few seconds have passed) and counts the most it
 * held at once: requests that overlap reach the target together; requests sent one after another
 * never exceed one.
 */
final class PeakCountingServer implements AutoCloseable {
    private final ServerSocket socket;
    private final Thread acceptor;
    private final CountDownLatch arrived;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();

    PeakCountingServer(int target, Function<String, ScriptedHttpServer.Answer> script) throws IOException {
        socket = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        arrived = new CountDownLatch(target);
        acceptor = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket c = socket.accept();
                    Thread t = new Thread(() -> serve(c, script), "peak-counting-connection");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    // closed
                }
            }
        }, "peak-counting-http");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void serve(Socket c, Function<String, ScriptedHttpServer.Answer> script) {
        try (c) {
            InputStream in = c.getInputStream();
            String head = ScriptedHttpServer.readHead(in);
            ScriptedHttpServer.continueIfExpected(head, c.getOutputStream());
            in.readNBytes(ScriptedHttpServer.contentLength(head));
            int now = inFlight.incrementAndGet();
            peak.accumulateAndGet(now, Math::max);
            arrived.countDown();
            try {
                arrived.await(3, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                return;
            } finally {
                inFlight.decrementAndGet();
            }
            ScriptedHttpServer.Answer a = script.apply(head);
            StringBuilder out = new StringBuilder("HTTP/1.1 " + a.status() + " X\r\n");
            for (String h : a.headers()) {
                out.append(h).append("\r\n");
            }
            out.append("Content-Length: ").append(a.body().length).append("\r\nConnection: close\r\n\r\n");
            OutputStream o = c.getOutputStream();
            o.write(out.toString().getBytes(StandardCharsets.ISO_8859_1));
            o.write(a.body());
            o.flush();
        } catch (IOException e) {
            // the client went away
        }
    }

    /** The most requests held at once. */
    int peak() {
        return peak.get();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }

    @Override
    public void close() throws Exception {
        socket.close();
        acceptor.join(5000);
    }
}
