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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A minimal HTTP/1.1 server on loopback that answers every request with what a script returns
 * (one request per connection), to play S3 servers that misbehave: ignoring {@code Range},
 * throttling. Records the request heads it saw.
 */
final class ScriptedHttpServer implements AutoCloseable {
    /** An answer: status, extra header lines, body. */
    record Answer(int status, List<String> headers, byte[] body) {}

    private final ServerSocket socket;
    private final Thread thread;
    final List<String> requests = new CopyOnWriteArrayList<>();
    final List<String> bodies = new CopyOnWriteArrayList<>();

    ScriptedHttpServer(Function<String, Answer> script) throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        thread = new Thread(() -> {
            while (!socket.isClosed()) {
                try (Socket c = socket.accept()) {
                    String head = readHead(c.getInputStream());
                    continueIfExpected(head, c.getOutputStream());
                    int length = contentLength(head);
                    String body = length > 0
                            ? new String(c.getInputStream().readNBytes(length), StandardCharsets.UTF_8) : "";
                    requests.add(head);
                    bodies.add(body);
                    Answer a = script.apply(head);
                    StringBuilder out = new StringBuilder("HTTP/1.1 " + a.status() + " X\r\n");
                    for (String h : a.headers()) {
                        out.append(h).append("\r\n");
                    }
                    out.append("Content-Length: ").append(a.body().length).append("\r\nConnection: close\r\n\r\n");
                    OutputStream o = c.getOutputStream();
                    o.write(out.toString().getBytes(StandardCharsets.ISO_8859_1));
                    if (!head.startsWith("HEAD ")) {
                        o.write(a.body());
                    }
                    o.flush();
                } catch (IOException e) {
                    // closed, or the client went away
                }
            }
        }, "scripted-http");
        thread.setDaemon(true);
        thread.start();
    }

    static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int state = 0;
        while (state < 4) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            b.write(c);
            state = (c == '\r' && (state == 0 || state == 2)) || (c == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    /** Answers {@code Expect: 100-continue} (the SDK's PutObject sends it), so the client sends its body. */
    static void continueIfExpected(String head, OutputStream out) throws IOException {
        if (head.toLowerCase(java.util.Locale.ROOT).contains("\nexpect: 100-continue")) {
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }
    }

    static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(line.substring(15).trim());
            }
        }
        return 0;
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }

    @Override
    public void close() throws Exception {
        socket.close();
        thread.join(5000);
    }
}
