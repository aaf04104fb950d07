package dev.zarrj.store.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.ConditionalWrites;
import dev.zarrj.api.store.ConditionalWrites.VersionedValue;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * If-None-Match and If-Match against Adobe S3Mock, which honours them (concurrent writers through
 * a {@link PerObjectLockProxy}, as S3Mock's own check is not atomic); and, on a scripted server,
 * answers S3 may give that S3Mock does not.
 */
@ExtendWith(S3Mock.class)
class S3ConditionalWritesTest {
    private static final StoreKey K = StoreKey.of("a/c/0");

    private static Store open(String extra) {
        return S3Stores.open(S3Mock.get().uri(S3Mock.get().newBucket(), "data.zarr", extra), false, Map.of());
    }

    private static ByteBuffer text(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return new String(a, StandardCharsets.UTF_8);
    }

    @Test
    void theCapabilityIsOfferedOnlyWhenTheUriSaysTheServiceHonoursIt() {
        try (Store off = open(""); Store on = open("&conditional-writes=true")) {
            assertEquals(Optional.empty(), off.conditionalWrites(), "an endpoint other than AWS: off by default");
            assertTrue(on.conditionalWrites().isPresent());
        }
    }

    @Test
    void absentPresentStaleAndCurrentVersions() {
        try (Store s = open("&conditional-writes=true")) {
            ConditionalWrites cw = s.conditionalWrites().orElseThrow();
            assertEquals(Optional.empty(), cw.getVersioned(K), "absent");
            assertFalse(cw.setIfMatch(K, text("x"), "\"0123\""), "If-Match on an absent key stores nothing");
            assertEquals(Optional.empty(), s.get(K));
            assertTrue(cw.setIfAbsent(K, text("one")), "absent: stored");
            assertFalse(cw.setIfAbsent(K, text("two")), "present: refused");
            assertEquals("one", text(s.get(K).orElseThrow()), "a refused write leaves the value");
            VersionedValue v1 = cw.getVersioned(K).orElseThrow();
            assertEquals("one", text(v1.value()));
            assertTrue(cw.setIfMatch(K, text("three"), v1.version()), "current version: stored");
            VersionedValue v2 = cw.getVersioned(K).orElseThrow();
            assertEquals("three", text(v2.value()));
            assertNotEquals(v1.version(), v2.version());
            assertFalse(cw.setIfMatch(K, text("four"), v1.version()), "stale version: refused");
            assertEquals("three", text(s.get(K).orElseThrow()));
            s.erase(K);
            assertFalse(cw.setIfMatch(K, text("five"), v2.version()), "erased since: refused");
            assertEquals(Optional.empty(), s.get(K));
        }
    }

    /**
     * Values above the multipart threshold carry the condition on CompleteMultipartUpload. (S3Mock
     * 4.11.0 deletes the object when an upload to its key is aborted, as a refused one is, so
     * the value after a refusal is not checked here; AWS keeps it.)
     */
    @Test
    void multipartValuesAreConditionalToo() {
        try (Store s = open("&conditional-writes=true&multipart-threshold=5242880&part-size=5242880")) {
            ConditionalWrites cw = s.conditionalWrites().orElseThrow();
            byte[] big = new byte[(5 << 20) + 1000];
            new Random(1).nextBytes(big);
            byte[] other = big.clone();
            other[0] ^= 1;
            assertTrue(cw.setIfAbsent(K, ByteBuffer.wrap(big)));
            VersionedValue v1 = cw.getVersioned(K).orElseThrow();
            assertArrayEquals(big, bytes(v1.value()));
            assertTrue(cw.setIfMatch(K, ByteBuffer.wrap(other), v1.version()), "current version: stored");
            assertArrayEquals(other, bytes(s.get(K).orElseThrow()));
            assertFalse(cw.setIfMatch(K, ByteBuffer.wrap(big), v1.version()), "stale: the multipart upload is refused");
            assertEquals(List.of(), S3Mock.get().admin().listMultipartUploads(r -> r.bucket(bucketOf(s))).join()
                    .uploads(), "refused uploads are aborted");
            s.set(K, ByteBuffer.wrap(big));
            assertFalse(cw.setIfAbsent(K, ByteBuffer.wrap(other)), "present: the multipart upload is refused");
        }
    }

    /** Four threads each add 25 to a counter by read, increment, setIfMatch, retry: none is lost. */
    @Test
    void concurrentCompareAndSetIncrementsLoseNothing() throws Exception {
        try (Store s = S3Stores.open(S3Mock.get().linearizedUri(S3Mock.get().newBucket(), "data.zarr",
                "&conditional-writes=true"), false, Map.of())) {
            ConditionalWrites cw = s.conditionalWrites().orElseThrow();
            assertTrue(cw.setIfAbsent(K, text("0")));
            AtomicInteger refused = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    fs.add(pool.submit(() -> {
                        for (int i = 0; i < 25; i++) {
                            while (true) {
                                VersionedValue v = cw.getVersioned(K).orElseThrow();
                                int n = Integer.parseInt(text(v.value()));
                                if (cw.setIfMatch(K, text(Integer.toString(n + 1)), v.version())) {
                                    break;
                                }
                                refused.incrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : fs) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
            assertEquals("100", text(s.get(K).orElseThrow()), "increments lost (" + refused + " retries)");
        }
    }

    @Test
    void aReadOnlyStoreRefusesConditionalWrites() {
        String bucket = S3Mock.get().newBucket();
        URI uri = S3Mock.get().uri(bucket, "data.zarr", "&conditional-writes=true");
        try (Store s = S3Stores.open(uri, true, Map.of())) {
            ConditionalWrites cw = s.conditionalWrites().orElseThrow();
            assertThrows(ReadOnlyException.class, () -> cw.setIfAbsent(K, text("x")));
            assertThrows(ReadOnlyException.class, () -> cw.setIfMatch(K, text("x"), "\"v\""));
            assertEquals(Optional.empty(), cw.getVersioned(K));
        }
    }

    // ---- answers S3Mock does not give: a scripted server ----

    private static Store scripted(ScriptedHttpServer server) {
        return S3Stores.open(URI.create("s3://bucket/p?region=us-east-1&anonymous=true&conditional-writes=true&endpoint="
                + server.endpoint()), false, Map.of());
    }

    private static ScriptedHttpServer.Answer error(int status, String code) {
        return new ScriptedHttpServer.Answer(status, List.of("Content-Type: application/xml"),
                ("<Error><Code>" + code + "</Code><Message>m</Message></Error>").getBytes(StandardCharsets.UTF_8));
    }

    /** AWS answers 409 ConditionalRequestConflict while another write to the key is in progress, and asks for a retry. */
    @Test
    void aConflictIsRetriedAndThenDecidedByTheCondition() throws Exception {
        AtomicInteger n = new AtomicInteger();
        try (ScriptedHttpServer server = new ScriptedHttpServer(head -> switch (n.incrementAndGet()) {
                    case 1, 2 -> error(409, "ConditionalRequestConflict");
                    case 3 -> error(412, "PreconditionFailed");
                    default -> new ScriptedHttpServer.Answer(200, List.of("ETag: \"e2\""), new byte[0]);
                });
                Store s = scripted(server)) {
            ConditionalWrites cw = s.conditionalWrites().orElseThrow();
            assertFalse(cw.setIfAbsent(K, text("x")), "409, 409, then 412: the key is present");
            assertEquals(3, server.requests.size(), String.join("\n", server.requests));
            for (String r : server.requests) {
                assertTrue(r.startsWith("PUT /bucket/p/a/c/0") && r.toLowerCase().contains("if-none-match: *"), r);
            }
            assertTrue(cw.setIfMatch(K, text("y"), "\"e1\""));
            assertTrue(server.requests.get(3).toLowerCase().contains("if-match: \"e1\""), server.requests.get(3));
        }
    }

    @Test
    void otherFailuresAreErrorsNamingTheKeyAndStatus() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(head -> error(403, "AccessDenied"));
                Store s = scripted(server)) {
            ConditionalWrites cw = s.conditionalWrites().orElseThrow();
            StoreException e = assertThrows(StoreException.class, () -> cw.setIfAbsent(K, text("x")));
            assertTrue(e.getMessage().contains("set if absent of key 'a/c/0'") && e.getMessage().contains("HTTP 403"),
                    e.getMessage());
            e = assertThrows(StoreException.class, () -> cw.getVersioned(K));
            assertTrue(e.getMessage().contains("key 'a/c/0'") && e.getMessage().contains("HTTP 403"), e.getMessage());
        }
    }

    @Test
    void aServerWithoutETagsCannotGiveVersions() throws Exception {
        try (ScriptedHttpServer server = new ScriptedHttpServer(head -> new ScriptedHttpServer.Answer(200, List.of(),
                "v".getBytes(StandardCharsets.UTF_8)));
                Store s = scripted(server)) {
            StoreException e = assertThrows(StoreException.class, () -> s.conditionalWrites().orElseThrow().getVersioned(K));
            assertTrue(e.getMessage().contains("no ETag"), e.getMessage());
        }
    }

    private static String bucketOf(Store s) {
        String d = s.describe(); // s3://bucket/prefix/ at endpoint
        return d.substring("s3://".length(), d.indexOf('/', "s3://".length()));
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }
}
