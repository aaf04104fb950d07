package dev.zarrj.store.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Servers s3proxy cannot play: one that ignores {@code Range} (answers 200 with the whole value,
 * as zarr-java#52/#79 lost data to), one that answers a wrong {@code Content-Range}, and one that
 * throttles (503) before answering.
 */
class S3MisbehavingServerTest {
    private static final byte[] VALUE = "0123456789".getBytes(StandardCharsets.US_ASCII);

    private static Store open(ScriptedHttpServer server) {
        return S3Stores.open(URI.create("s3://bucket/p?region=us-east-1&anonymous=true&endpoint=" + server.endpoint()),
                true, Map.of());
    }

    private static Store openWritable(ScriptedHttpServer server) {
        return S3Stores.open(URI.create("s3://bucket/p?region=us-east-1&anonymous=true&endpoint=" + server.endpoint()),
                false, Map.of());
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    /** s3proxy refuses the SDK's DeleteObjects (501), so the batches are checked here. */
    @Test
    void eraseValuesSendsOneDeleteObjectsPerThousandKeys() throws Exception {
        byte[] ok = "<?xml version=\"1.0\"?><DeleteResult></DeleteResult>".getBytes(StandardCharsets.UTF_8);
        try (ScriptedHttpServer server = new ScriptedHttpServer(head -> new ScriptedHttpServer.Answer(200,
                List.of("Content-Type: application/xml"), ok));
                Store s = openWritable(server)) {
            List<StoreKey> keys = new java.util.ArrayList<>();
            for (int i = 0; i < 2001; i++) {
                keys.add(StoreKey.of(String.format("c/%04d", i)));
            }
            s.eraseValues(keys);
            assertEquals(3, server.requests.size(), "2001 keys: 3 DeleteObjects requests");
            int total = 0;
            for (int i = 0; i < 3; i++) {
                assertTrue(server.requests.get(i).startsWith("POST /bucket?delete"), server.requests.get(i));
                int n = count(server.bodies.get(i), "<Key>");
                assertTrue(n <= 1000, "at most 1000 keys per request: " + n);
                total += n;
            }
            assertEquals(2001, total);
            assertTrue(String.join("", server.bodies).contains("<Key>p/c/2000</Key>"), "object names are prefix + key");
        }
    }

    @Test
    void aDeletionTheServerReportsAsFailedIsAnErrorNamingTheObject() throws Exception {
        byte[] failed = ("<?xml version=\"1.0\"?><DeleteResult><Error><Key>p/c/1</Key><Code>AccessDenied</Code>"
                + "<Message>Access Denied</Message></Error></DeleteResult>").getBytes(StandardCharsets.UTF_8);
        try (ScriptedHttpServer server = new ScriptedHttpServer(head -> new ScriptedHttpServer.Answer(200,
                List.of("Content-Type: application/xml"), failed));
                Store s = openWritable(server)) {
            StoreException e = assertThrows(StoreException.class,
                    () -> s.eraseValues(List.of(StoreKey.of("c/0"), StoreKey.of("c/1"))));
            assertTrue(e.getMessage().contains("'p/c/1'") && e.getMessage().contains("AccessDenied")
                    && e.getMessage().contains("bucket 'bucket'"), e.getMessage());
        }
    }

    @Test
    void aServerThatIgnoresTheRangeIsAnErrorNotTheWrongBytes() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(
                head -> new ScriptedHttpServer.Answer(200, List.of(), VALUE));
                Store s = open(server)) {
            StoreException e = assertThrows(StoreException.class, () -> s.get(StoreKey.of("k"), ByteRange.of(2, 3)));
            assertTrue(e.getMessage().contains("ignored the range") && e.getMessage().contains("'k'")
                    && e.getMessage().contains("bucket 'bucket'"), e.getMessage());
            assertThrows(StoreException.class, () -> s.get(StoreKey.of("k"), ByteRange.suffix(4)));
            assertTrue(server.requests.get(0).toLowerCase().contains("range: bytes=2-4"), server.requests.get(0));
            assertTrue(server.requests.get(1).toLowerCase().contains("range: bytes=-4"), server.requests.get(1));
            assertTrue(server.requests.get(0).startsWith("GET /bucket/p/k"), "path-style on 127.0.0.1: " + server.requests.get(0));
        }
    }

    @Test
    void aContentRangeThatIsNotTheOneAskedForIsAnError() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(head -> new ScriptedHttpServer.Answer(206,
                List.of("Content-Range: bytes 0-2/10"), "012".getBytes(StandardCharsets.US_ASCII)));
                Store s = open(server)) {
            StoreException e = assertThrows(StoreException.class, () -> s.get(StoreKey.of("k"), ByteRange.of(2, 3)));
            assertTrue(e.getMessage().contains("bytes 0-2/10"), e.getMessage());
        }
    }

    @Test
    void throttlingAnswersAreRetried() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        String slowDown = "<?xml version=\"1.0\"?><Error><Code>SlowDown</Code><Message>Reduce your request rate</Message></Error>";
        try (ScriptedHttpServer server = new ScriptedHttpServer(head -> calls.incrementAndGet() <= 2
                ? new ScriptedHttpServer.Answer(503, List.of("Content-Type: application/xml"),
                        slowDown.getBytes(StandardCharsets.UTF_8))
                : new ScriptedHttpServer.Answer(200, List.of(), VALUE));
                Store s = open(server)) {
            ByteBuffer got = s.get(StoreKey.of("k")).orElseThrow();
            assertEquals(ByteBuffer.wrap(VALUE), got);
            assertEquals(3, calls.get(), "two 503 answers, then the value");
        }
    }

    @Test
    void aServerThatKeepsFailingIsAnErrorNamingTheStatus() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (ScriptedHttpServer server = new ScriptedHttpServer(head -> {
            calls.incrementAndGet();
            return new ScriptedHttpServer.Answer(500, List.of(), new byte[0]);
        });
                Store s = open(server)) {
            StoreException e = assertThrows(StoreException.class, () -> s.size(StoreKey.of("k")));
            assertTrue(e.getMessage().contains("HTTP 500") && e.getMessage().contains("'k'"), e.getMessage());
            assertEquals(6, calls.get(), "the standard retry strategy's 6 attempts");
        }
    }
}
