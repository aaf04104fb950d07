package dev.zarrj.bench.remote;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * An s3proxy server on loopback for the remote benchmark: a child {@code java -jar} process with
 * the file system backend (objects are files under a folder, so the server's heap stays small
 * whatever the array's size) and no authorization (every request is accepted unsigned, which is
 * what a public-read bucket gives zarrita's plain HTTP reads; zarrj opens the store with
 * {@code anonymous=true}).
 *
 * <p>The jar is the one Maven resolved for zarr-bench's build ({@code s3proxy.properties}, written
 * by the build), or the file the system property {@code zarrj.s3proxy.jar} names.
 */
public final class S3ProxyServer implements AutoCloseable {
    private static final long START_SECONDS = 90;

    private final Process process;
    private final Path log;
    private final InetSocketAddress address;
    /** Stops the server if this JVM is interrupted (Ctrl-C) before {@link #close()}. */
    private final Thread stop;

    private S3ProxyServer(Process process, Path log, InetSocketAddress address) {
        this.process = process;
        this.log = log;
        this.address = address;
        this.stop = new Thread(process::destroyForcibly, "s3proxy-stop");
        Runtime.getRuntime().addShutdownHook(stop);
    }

    /** The s3proxy jar, or why there is none. */
    public static Optional<Path> jar(StringBuilder problem) {
        String path = System.getProperty("zarrj.s3proxy.jar");
        if (path == null) {
            try (InputStream in = S3ProxyServer.class.getResourceAsStream("s3proxy.properties")) {
                if (in != null) {
                    Properties p = new Properties();
                    p.load(in);
                    path = p.getProperty("jar");
                }
            } catch (IOException e) {
                problem.append("cannot read s3proxy.properties: ").append(e.getMessage());
                return Optional.empty();
            }
        }
        if (path == null || path.isBlank() || path.startsWith("${")) {
            problem.append("no s3proxy jar known to this build (set -Dzarrj.s3proxy.jar=PATH)");
            return Optional.empty();
        }
        Path jar = Path.of(path);
        if (!Files.isRegularFile(jar)) {
            problem.append("the s3proxy jar ").append(jar).append(" does not exist (build zarr-bench with Maven once, online)");
            return Optional.empty();
        }
        return Optional.of(jar);
    }

    /**
     * Starts s3proxy with its objects under {@code dir/data} and its log at {@code dir/s3proxy.log},
     * and waits until it accepts connections.
     */
    public static S3ProxyServer start(Path jar, Path dir) throws IOException, InterruptedException {
        Path data = Files.createDirectories(dir.resolve("data"));
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        Path props = dir.resolve("s3proxy.properties");
        Files.write(props, List.of(
                "s3proxy.endpoint=http://127.0.0.1:" + port,
                "s3proxy.authorization=none",
                "jclouds.provider=filesystem",
                "jclouds.filesystem.basedir=" + data.toAbsolutePath(),
                "jclouds.identity=bench",
                "jclouds.credential=bench"));
        Path log = dir.resolve("s3proxy.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx384m", "-jar", jar.toString(), "--properties", props.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        S3ProxyServer server = new S3ProxyServer(p, log, address);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(address, 500);
                return server;
            } catch (IOException notYet) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    server.close();
                    throw new IOException("s3proxy did not start within " + START_SECONDS + " s: " + tail(log));
                }
                Thread.sleep(100);
            }
        }
    }

    /** Where it listens (loopback). */
    public InetSocketAddress address() {
        return address;
    }

    /** {@code http://127.0.0.1:port}. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + address.getPort());
    }

    /** Creates a bucket (an unsigned PUT, which this server accepts). */
    public void createBucket(String bucket) throws IOException {
        HttpURLConnection c = (HttpURLConnection) endpoint().resolve("/" + bucket).toURL().openConnection();
        c.setRequestMethod("PUT");
        c.setDoOutput(true);
        c.setFixedLengthStreamingMode(0);
        c.getOutputStream().close();
        int code = c.getResponseCode();
        c.disconnect();
        if (code != 200 && code != 409) {
            throw new IOException("s3proxy: creating bucket " + bucket + " answered HTTP " + code);
        }
    }

    /** The end of the server's log, for error messages. */
    public String logTail() {
        return tail(log);
    }

    private static String tail(Path log) {
        try {
            String s = Files.readString(log);
            return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        try {
            Runtime.getRuntime().removeShutdownHook(stop);
        } catch (IllegalStateException e) {
            // already shutting down: the hook runs
        }
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
    }
}
