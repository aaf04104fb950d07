package dev.zarrj.store.s3;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;

/**
 * An S3 server on loopback, run as a child {@code java -jar} process from a jar Maven resolved
 * (its path in a system property the module's pom sets), once for the whole test run: started by
 * the first test class that uses it ({@code @ExtendWith(S3Proxy.class)}, {@code @ExtendWith(S3Mock.class)}),
 * stopped, and its folder removed, when the run ends. A subclass says which jar and arguments.
 */
public abstract class S3TestServer implements BeforeAllCallback {
    /** The identity and credential the servers accept: the surefire configuration gives them to the SDK's default chain. */
    static final String IDENTITY = "zarrj-test-identity";
    static final String CREDENTIAL = "zarrj-test-credential";

    private static final Map<Class<?>, Running> RUNNING = new ConcurrentHashMap<>();

    /** A short name for messages, e.g. {@code s3proxy}. */
    protected abstract String name();

    /** The system property naming the server's jar. */
    protected abstract String jarProperty();

    /** The arguments after {@code java -jar <jar>} for a server on {@code 127.0.0.1:port} keeping its files in {@code dir}. */
    protected abstract List<String> arguments(Path dir, int port) throws IOException;

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(getClass(), k -> start());
    }

    /** The running server of a subclass (after its {@link #beforeAll}). */
    static Running running(Class<? extends S3TestServer> type) {
        Running r = RUNNING.get(type);
        assertNotNull(r, type.getSimpleName() + " not started: annotate the test class with @ExtendWith("
                + type.getSimpleName() + ".class)");
        return r;
    }

    private synchronized Running start() {
        String jar = System.getProperty(jarProperty());
        assertNotNull(jar, "system property " + jarProperty() + " (set by the module's pom) names no " + name() + " jar");
        try {
            Path dir = Files.createTempDirectory("zarrj-" + name());
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            Path log = dir.resolve(name() + ".log");
            // The server's own temporary files (S3Mock: ObjectService*toTempFile, tomcat.*) go in its
            // folder, removed when it stops, not in the system's temporary directory.
            Path tmp = Files.createDirectory(dir.resolve("tmp"));
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                    "-Djava.io.tmpdir=" + tmp, "-jar", jar));
            command.addAll(arguments(dir, port));
            long started = System.nanoTime();
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            // Also when the test JVM is stopped before the run ends (the server would outlive it).
            Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly, name() + "-stop"));
            long deadline = started + TimeUnit.SECONDS.toNanos(90);
            while (true) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
                    break;
                } catch (IOException notYet) {
                    if (!p.isAlive() || System.nanoTime() > deadline) {
                        p.destroyForcibly();
                        throw new IllegalStateException(name() + " did not start: " + Files.readString(log));
                    }
                    Thread.sleep(50);
                }
            }
            System.out.printf("%s listening on 127.0.0.1:%d after %d ms%n", name(), port,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            Running r = new Running(getClass(), p, dir, URI.create("http://127.0.0.1:" + port));
            RUNNING.put(getClass(), r);
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A started server: its endpoint, an administrative client, buckets. */
    public static final class Running implements ExtensionContext.Store.CloseableResource {
        private final Class<?> type;
        private final Process process;
        private final Path dir;
        private final URI endpoint;
        private final S3AsyncClient admin;
        private PerObjectLockProxy proxy;

        private Running(Class<?> type, Process process, Path dir, URI endpoint) {
            this.type = type;
            this.process = process;
            this.dir = dir;
            this.endpoint = endpoint;
            this.admin = S3AsyncClient.builder()
                    .httpClientBuilder(NettyNioAsyncHttpClient.builder())
                    .endpointOverride(endpoint)
                    .region(Region.US_EAST_1)
                    .forcePathStyle(true)
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(IDENTITY, CREDENTIAL)))
                    .build();
        }

        @Override
        public void close() throws IOException, InterruptedException {
            RUNNING.remove(type, this);
            admin.close();
            synchronized (this) {
                if (proxy != null) {
                    try {
                        proxy.close();
                    } catch (Exception e) {
                        // a test thread may still hold a connection; the process ends anyway
                    }
                }
            }
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
            }
            if (Files.exists(dir)) {
                try (Stream<Path> s = Files.walk(dir)) {
                    for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(f);
                    }
                }
            }
        }

        /** {@code http://127.0.0.1:port}. */
        public URI endpoint() {
            return endpoint;
        }

        /**
         * The endpoint of a {@link PerObjectLockProxy} in front of this server (started on first
         * use): one object's requests are linearizable through it.
         */
        public synchronized URI linearizedEndpoint() {
            if (proxy == null) {
                try {
                    proxy = new PerObjectLockProxy(endpoint);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return proxy.endpoint();
        }

        /** As {@link #uri}, through {@link #linearizedEndpoint()}. */
        public URI linearizedUri(String bucket, String prefix, String extra) {
            return URI.create("s3://" + bucket + "/" + prefix + "?endpoint=" + linearizedEndpoint() + extra);
        }

        /** A client with the server's credentials, for setting up buckets. */
        public S3AsyncClient admin() {
            return admin;
        }

        /** A new, empty bucket with a unique name. */
        public String newBucket() {
            String name = "b-" + UUID.randomUUID().toString().substring(0, 18);
            admin.createBucket(r -> r.bucket(name)).join();
            return name;
        }

        /** A new bucket that anyone may read. */
        public String newPublicBucket() {
            String name = "p-" + UUID.randomUUID().toString().substring(0, 18);
            admin.createBucket(r -> r.bucket(name).acl(BucketCannedACL.PUBLIC_READ)).join();
            return name;
        }

        /** {@code s3://bucket/prefix?endpoint=...} plus {@code extra} ("" or {@code &a=b...}). */
        public URI uri(String bucket, String prefix, String extra) {
            return URI.create("s3://" + bucket + "/" + prefix + "?endpoint=" + endpoint + extra);
        }
    }
}
