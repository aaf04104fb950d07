package dev.zarrj.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * s3proxy (in-memory {@code transient} backend, signed requests required) on loopback, from the
 * jar in {@code zarrj.s3proxy.jar}. It ignores {@code If-Match} and {@code If-None-Match}.
 * Tests use it with {@code @ExtendWith(S3Proxy.class)} and {@link #get()}.
 */
public final class S3Proxy extends S3TestServer {
    /** The running server (after {@code beforeAll}). */
    public static Running get() {
        return running(S3Proxy.class);
    }

    @Override
    protected String name() {
        return "s3proxy";
    }

    @Override
    protected String jarProperty() {
        return "zarrj.s3proxy.jar";
    }

    @Override
    protected List<String> arguments(Path dir, int port) throws IOException {
        Path props = dir.resolve("s3proxy.properties");
        Files.write(props, List.of(
                "s3proxy.endpoint=http://127.0.0.1:" + port,
                "s3proxy.authorization=aws-v2-or-v4",
                "s3proxy.identity=" + IDENTITY,
                "s3proxy.credential=" + CREDENTIAL,
                "jclouds.provider=transient",
                "jclouds.identity=remote-identity",
                "jclouds.credential=remote-credential"));
        return List.of("--properties", props.toString());
    }
}
