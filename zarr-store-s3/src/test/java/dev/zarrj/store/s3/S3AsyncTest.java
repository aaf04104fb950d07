package dev.zarrj.store.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The asynchronous methods keep requests in flight without a thread each: started from one
 * thread, they reach a server that holds every request until 16 have arrived.
 */
class S3AsyncTest {
    private static final int N = 16;
    private static final Pattern RANGE = Pattern.compile("(?im)^range: bytes=(\\d+)-(\\d+)\r?$");

    /** GET with a one-byte range answers that byte of 0..99; PUT and DELETE succeed. */
    private static ScriptedHttpServer.Answer s3(String head) {
        if (head.startsWith("GET ")) {
            Matcher m = RANGE.matcher(head);
            if (!m.find()) {
                return new ScriptedHttpServer.Answer(400, List.of(), new byte[0]);
            }
            int first = Integer.parseInt(m.group(1));
            int last = Integer.parseInt(m.group(2));
            byte[] body = new byte[last - first + 1];
            for (int i = 0; i < body.length; i++) {
                body[i] = (byte) (first + i);
            }
            return new ScriptedHttpServer.Answer(206,
                    List.of("Content-Range: bytes " + first + "-" + last + "/100", "ETag: \"e\""), body);
        }
        if (head.startsWith("DELETE ")) {
            return new ScriptedHttpServer.Answer(204, List.of(), new byte[0]);
        }
        return new ScriptedHttpServer.Answer(200, List.of("ETag: \"e\""), new byte[0]);
    }

    private static Store open(PeakCountingServer server, boolean readOnly) {
        return S3Stores.open(URI.create("s3://bucket/p?region=us-east-1&anonymous=true&endpoint=" + server.endpoint()),
                readOnly, Map.of());
    }

    @Test
    void getPartialValuesAsyncKeepsAllRangesInFlightAtOnce() throws Exception {
        try (PeakCountingServer server = new PeakCountingServer(N, S3AsyncTest::s3); Store s = open(server, true)) {
            List<KeyRange> ranges = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                ranges.add(new KeyRange(StoreKey.of("c/" + i), ByteRange.of(i, 1)));
            }
            List<Optional<ByteBuffer>> got = s.getPartialValuesAsync(ranges).get();
            for (int i = 0; i < N; i++) {
                assertEquals(ByteBuffer.wrap(new byte[] {(byte) i}), got.get(i).orElseThrow(), "range " + i);
            }
            assertEquals(N, server.peak(), "requests in flight at once");
        }
    }

    @Test
    void getAsyncCallsFromOneThreadOverlap() throws Exception {
        try (PeakCountingServer server = new PeakCountingServer(N, S3AsyncTest::s3); Store s = open(server, true)) {
            List<CompletableFuture<Optional<ByteBuffer>>> fs = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                fs.add(s.getAsync(StoreKey.of("c/" + i), ByteRange.of(2 * i, 2)));
            }
            for (int i = 0; i < N; i++) {
                assertArrayEquals(new byte[] {(byte) (2 * i), (byte) (2 * i + 1)}, bytes(fs.get(i).get().orElseThrow()));
            }
            assertEquals(N, server.peak(), "requests in flight at once");
        }
    }

    @Test
    void setAsyncAndEraseAsyncCallsFromOneThreadOverlap() throws Exception {
        try (PeakCountingServer server = new PeakCountingServer(N, S3AsyncTest::s3); Store s = open(server, false)) {
            List<CompletableFuture<Void>> fs = new ArrayList<>();
            ByteBuffer value = ByteBuffer.wrap(new byte[] {1, 2, 3});
            for (int i = 0; i < N / 2; i++) {
                fs.add(s.setAsync(StoreKey.of("c/" + i), value));
                fs.add(s.eraseAsync(StoreKey.of("d/" + i)));
            }
            CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)).get();
            assertEquals(N, server.peak(), "requests in flight at once");
        }
    }

    @Test
    void asyncFailuresCompleteTheFutureWithTheBlockingMethodsException() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(head -> new ScriptedHttpServer.Answer(403,
                List.of("Content-Type: application/xml"),
                "<Error><Code>AccessDenied</Code><Message>no</Message></Error>".getBytes()));
                Store s = S3Stores.open(URI.create("s3://bucket/p?region=us-east-1&anonymous=true&endpoint="
                        + server.endpoint()), false, Map.of());
                Store ro = S3Stores.open(URI.create("s3://bucket/p?region=us-east-1&anonymous=true&endpoint="
                        + server.endpoint()), true, Map.of())) {
            ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> s.getAsync(StoreKey.of("a")).get());
            StoreException se = assertInstanceOf(StoreException.class, e.getCause(), "not wrapped");
            assertTrue(se.getMessage().contains("get of key 'a'") && se.getMessage().contains("HTTP 403 AccessDenied"),
                    se.getMessage());
            StoreException blocking = org.junit.jupiter.api.Assertions.assertThrows(StoreException.class,
                    () -> s.get(StoreKey.of("a")));
            assertEquals(se.getMessage(), blocking.getMessage(), "one message for both paths");
            e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> s.setAsync(StoreKey.of("a"), ByteBuffer.allocate(1)).get());
            assertTrue(assertInstanceOf(StoreException.class, e.getCause()).getMessage().contains("set of key 'a'"));
            int before = server.requests.size();
            e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> ro.setAsync(StoreKey.of("a"), ByteBuffer.allocate(1)).get());
            assertInstanceOf(ReadOnlyException.class, e.getCause());
            e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> ro.eraseAsync(StoreKey.of("a")).get());
            assertInstanceOf(ReadOnlyException.class, e.getCause());
            assertEquals(before, server.requests.size(), "a read-only store sends nothing");
        }
    }

    @Test
    void ioConcurrencySuitsARemoteStore() throws Exception {
        try (PeakCountingServer server = new PeakCountingServer(1, S3AsyncTest::s3); Store s = open(server, true)) {
            assertEquals(64, s.ioConcurrency());
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }
}
