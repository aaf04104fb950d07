package dev.zarrj.store.s3;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A loopback HTTP proxy in front of an S3 test server that makes each object linearizable, as
 * AWS S3 is: requests to one object path run one at a time, except reads (GET, HEAD), which run
 * together. One request per connection; each is forwarded on a new upstream connection with
 * {@code Connection: close} and the answer relayed until the upstream closes.
 *
 * <p>Why: S3Mock 4.11.0 checks {@code If-Match} and {@code If-None-Match} but not atomically (12
 * concurrent {@code PUT}s with {@code If-None-Match: *} to each of 5 absent keys: 19 answered
 * 200, not 5), and a GET racing a PUT of one object may read its half-written file. Through this
 * proxy, tests of concurrent conditional writes measure zarrj's code, not S3Mock's locking.
 */
final class PerObjectLockProxy implements AutoCloseable {
    private final URI upstream;
    private final ServerSocket socket;
    private final Thread acceptor;
    private final Map<String, ReentrantReadWriteLock> locks = new ConcurrentHashMap<>();

    PerObjectLockProxy(URI upstream) throws IOException {
        this.upstream = upstream;
        socket = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        acceptor = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket c = socket.accept();
                    Thread t = new Thread(() -> serve(c), "object-lock-proxy-connection");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    // closed
                }
            }
        }, "object-lock-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            String head = ScriptedHttpServer.readHead(in);
            if (head.isEmpty()) {
                return;
            }
            ScriptedHttpServer.continueIfExpected(head, client.getOutputStream());
            byte[] body = in.readNBytes(ScriptedHttpServer.contentLength(head));
            String[] requestLine = head.substring(0, head.indexOf("\r\n")).split(" ");
            String method = requestLine[0];
            String target = requestLine[1];
            int q = target.indexOf('?');
            String object = q < 0 ? target : target.substring(0, q);
            ReentrantReadWriteLock rw = locks.computeIfAbsent(object, k -> new ReentrantReadWriteLock());
            Lock lock = method.equals("GET") || method.equals("HEAD") ? rw.readLock() : rw.writeLock();
            lock.lock();
            try (Socket up = new Socket(upstream.getHost(), upstream.getPort())) {
                OutputStream o = up.getOutputStream();
                o.write(forwarded(head).getBytes(StandardCharsets.ISO_8859_1));
                o.write(body);
                o.flush();
                up.getInputStream().transferTo(client.getOutputStream());
            } finally {
                lock.unlock();
            }
        } catch (IOException e) {
            // the client or the server went away: the client sees a closed connection
        }
    }

    /** The request head without Expect (answered here) and with Connection: close. */
    private static String forwarded(String head) {
        StringBuilder b = new StringBuilder();
        for (String line : head.split("\r\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String l = line.toLowerCase(Locale.ROOT);
            if (l.startsWith("expect:") || l.startsWith("connection:")) {
                continue;
            }
            b.append(line).append("\r\n");
        }
        return b.append("Connection: close\r\n\r\n").toString();
    }

    @Override
    public void close() throws Exception {
        socket.close();
        acceptor.join(5000);
    }
}
