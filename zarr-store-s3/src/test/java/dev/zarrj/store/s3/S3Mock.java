package dev.zarrj.store.s3;

import java.nio.file.Path;
import java.util.List;

/**
 * Adobe S3Mock (a Spring Boot application, objects in a folder, any credentials accepted) on
 * loopback, from the jar in {@code zarrj.s3mock.jar}. It honours {@code If-Match} and
 * {@code If-None-Match}, answering 412 when they fail, so conditional writes are tested on it.
 * Tests use it with {@code @ExtendWith(S3Mock.class)} and {@link #get()}.
 *
 * <p>Its main connector is made plain HTTP on {@code 127.0.0.1:port}; S3Mock always adds a
 * second plain-HTTP connector, which binds every interface (it takes no address), so that one
 * is given a port the system chooses and is never used.
 *
 * <p>S3Mock 4.11.0 writes an object's file in place: a GET that races a PUT of the same object
 * may find the file empty and send fewer bytes than its {@code Content-Length}, then leave the
 * connection open; the client would wait for its read timeout. A one-second keep-alive timeout
 * makes Tomcat close such a connection, so the client sees a short answer at once and retries.
 */
public final class S3Mock extends S3TestServer {
    /** The running server (after {@code beforeAll}). */
    public static Running get() {
        return running(S3Mock.class);
    }

    @Override
    protected String name() {
        return "s3mock";
    }

    @Override
    protected String jarProperty() {
        return "zarrj.s3mock.jar";
    }

    @Override
    protected List<String> arguments(Path dir, int port) {
        return List.of(
                "--server.address=127.0.0.1",
                "--server.port=" + port,
                "--server.ssl.enabled=false",
                "--com.adobe.testing.s3mock.httpPort=0",
                "--server.tomcat.keep-alive-timeout=1s",
                "--com.adobe.testing.s3mock.store.root=" + dir.resolve("objects"),
                "--spring.main.banner-mode=off",
                "--logging.level.root=WARN");
    }
}
