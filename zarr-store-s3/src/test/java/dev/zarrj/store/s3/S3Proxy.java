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
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
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
 * One s3proxy server (in-memory {@code transient} backend, signed requests required) on
 * loopback for the whole test run, started as a child {@code java -jar} process from the jar
 * Maven resolved ({@code zarrj.s3proxy.jar}); stopped, and its folder removed, when the run ends.
 * Tests use it with {@code @ExtendWith(S3Proxy.class)} and {@link #get()}.
 */
public final class S3Proxy implements BeforeAllCallback, ExtensionContext.Store.CloseableResource {
    /** The identity and credential the server accepts: the surefire configuration gives them to the SDK's default chain. */
    static final String IDENTITY = "zarrj-test-identity";
    static final String CREDENTIAL = "zarrj-test-credential";

    private static S3Proxy instance;

    private final Process process;
    private final Path dir;
    private final URI endpoint;
    private final S3AsyncClient admin;

    public S3Proxy() {
        process = null;
        dir = null;
        endpoint = null;
        admin = null;
    }

    private S3Proxy(Process process, Path dir, URI endpoint) {
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
    public void beforeAll(ExtensionContext context) {
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(S3Proxy.class, k -> start());
    }

    /** The running server (after {@link #beforeAll}). */
    public static synchronized S3Proxy get() {
        assertNotNull(instance, "S3Proxy not started: annotate the test class with @ExtendWith(S3Proxy.class)");
        return instance;
    }

    private static synchronized S3Proxy start() {
        String jar = System.getProperty("zarrj.s3proxy.jar");
        assertNotNull(jar, "system property zarrj.s3proxy.jar (set by the module's pom) names no s3proxy jar");
        try {
            Path dir = Files.createTempDirectory("zarrj-s3proxy");
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            URI endpoint = URI.create("http://127.0.0.1:" + port);
            Path props = dir.resolve("s3proxy.properties");
            Files.write(props, List.of(
                    "s3proxy.endpoint=" + endpoint,
                    "s3proxy.authorization=aws-v2-or-v4",
                    "s3proxy.identity=" + IDENTITY,
                    "s3proxy.credential=" + CREDENTIAL,
                    "jclouds.provider=transient",
                    "jclouds.identity=remote-identity",
                    "jclouds.credential=remote-credential"));
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process p = new ProcessBuilder(java, "-Xmx512m", "-jar", jar, "--properties", props.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("s3proxy.log").toFile())
                    .start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
                    break;
                } catch (IOException notYet) {
                    if (!p.isAlive() || System.nanoTime() > deadline) {
                        p.destroyForcibly();
                        throw new IllegalStateException("s3proxy did not start: " + Files.readString(dir.resolve("s3proxy.log")));
                    }
                    Thread.sleep(100);
                }
            }
            instance = new S3Proxy(p, dir, endpoint);
            return instance;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        admin.close();
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
        synchronized (S3Proxy.class) {
            instance = null;
        }
    }

    /** {@code http://127.0.0.1:port}. */
    public URI endpoint() {
        return endpoint;
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
