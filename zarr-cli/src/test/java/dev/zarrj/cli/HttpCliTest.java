package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI on a hierarchy served over HTTP by a loopback server that, like many simple servers,
 * ignores {@code Range} and answers every GET with the whole file.
 */
class HttpCliTest {
    @TempDir
    Path tmp;

    private static void serve(Path dir, HttpExchange ex) throws IOException {
        try (ex) {
            Path p = dir.resolve(ex.getRequestURI().getPath().substring(1)).normalize();
            if (!p.startsWith(dir) || !Files.isRegularFile(p)) {
                ex.sendResponseHeaders(404, -1);
                return;
            }
            byte[] b = Files.readAllBytes(p);
            if (ex.getRequestMethod().equals("HEAD")) {
                ex.getResponseHeaders().set("Content-Length", Long.toString(b.length));
                ex.sendResponseHeaders(200, -1);
                return;
            }
            ex.sendResponseHeaders(200, b.length == 0 ? -1 : b.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(b);
            }
        }
    }

    @Test
    void infoAndCatReadAHierarchyOverHttp() {
        Path demo = tmp.resolve("demo.zarr");
        assertEquals(0, CliRun.zarr("demo", demo.toString()).code());
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        server.createContext("/", ex -> serve(tmp, ex));
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/demo.zarr";
            CliRun plugins = CliRun.zarr("plugins");
            assertTrue(plugins.out().contains("dev.zarrj.store.http.internal.HttpStoreProvider"), plugins.out());
            assertTrue(plugins.out().contains("dev.zarrj.store.http.internal.HttpsStoreProvider"), plugins.out());

            CliRun root = CliRun.zarr("info", url);
            assertEquals(0, root.code(), root.err());
            assertTrue(root.out().contains("store: " + url), root.out());
            assertTrue(root.out().contains("children not listed"), root.out());

            String array = "/weather/temperature_sharded";
            CliRun info = CliRun.zarr("info", url, "--path", array);
            assertEquals(0, info.code(), info.err());
            assertTrue(info.out().contains("shape [24,180,360]"), info.out());
            assertTrue(info.out().contains("stored shards not listed"), info.out());

            String region = "3:5,10:60,170:200";
            CliRun remote = CliRun.zarr("cat", url, "--path", array, "--region", region, "--format", "json");
            CliRun local = CliRun.zarr("cat", demo.toString(), "--path", array, "--region", region, "--format", "json");
            assertEquals(0, remote.code(), remote.err());
            assertEquals(local.out(), remote.out());
            assertTrue(remote.out().length() > 1000, remote.out());

            CliRun withOptions = CliRun.zarr("info", url + "?request-timeout=30s&max-concurrent-requests=8",
                    "--path", array);
            assertEquals(0, withOptions.code(), withOptions.err());
            assertTrue(withOptions.out().contains("shape [24,180,360]"), withOptions.out());
            CliRun badOption = CliRun.zarr("info", url + "?request-timeout=soon");
            assertEquals(2, badOption.code(), badOption.err());
            assertEquals(1, badOption.err().strip().lines().count(), badOption.err());
            assertTrue(badOption.err().contains("option 'request-timeout' is 'soon'"), badOption.err());

            // a store that cannot be listed: its chunks are read one by one, not copied from a listing
            Path copy = tmp.resolve("copy.zarr");
            CliRun copied = CliRun.zarr("copy", url, copy.toString(), "--path", array);
            assertEquals(0, copied.code(), copied.err());
            assertTrue(copied.out().contains("re-encoded (the source cannot be listed)"), copied.out());
            CliRun back = CliRun.zarr("cat", copy.toString(), "--path", array, "--region", region, "--format", "json");
            assertEquals(local.out(), back.out());

            CliRun missing = CliRun.zarr("info", url, "--path", "/nope");
            assertEquals(2, missing.code(), missing.err());
            assertEquals(1, missing.err().strip().lines().count(), missing.err());
        } finally {
            server.stop(0);
        }
    }
}
