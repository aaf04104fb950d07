package dev.zarrj.store.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.ValueChangedException;
import dev.zarrj.api.store.KeyRange;
import dev.zarrj.api.store.RangeReader;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.store.http.TestServer.Mode;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class HttpStoreTest {
    private static final byte[] TEN = "0123456789".getBytes(StandardCharsets.US_ASCII);
    private static final String ODD_KEY = "odd dir/a%b?c#d;e\u00e9";

    private final TestServer server = TestServer.serving(Map.of(
            "a/v", TEN,
            "empty", new byte[0],
            ODD_KEY, "odd".getBytes(StandardCharsets.US_ASCII),
            "%2e%2e/x", "dots".getBytes(StandardCharsets.US_ASCII)));
    private final List<Store> stores = new ArrayList<>();

    @AfterEach
    void close() {
        stores.forEach(Store::close);
        server.close();
    }

    private Store open(String path) {
        Store s = HttpStores.open(server.uri(path));
        stores.add(s);
        return s;
    }

    private static byte[] bytes(Optional<ByteBuffer> v) {
        ByteBuffer b = v.orElseThrow().duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static List<ByteRange> ranges() {
        return List.of(ByteRange.all(), ByteRange.of(0, 10), ByteRange.of(2, 3), ByteRange.of(9, 1),
                ByteRange.of(10, 0), ByteRange.of(4, 0), ByteRange.from(3), ByteRange.from(10),
                ByteRange.suffix(4), ByteRange.suffix(10), ByteRange.suffix(0));
    }

    private static List<ByteRange> outside() {
        return List.of(ByteRange.of(8, 3), ByteRange.of(11, 1), ByteRange.of(11, 0), ByteRange.from(11),
                ByteRange.suffix(11));
    }

    @Test
    void aRangeReaderSendsTheFirstETagAsIfMatchAndNoticesAReplacedValue() {
        server.etags(true);
        Store s = open("/data");
        StoreKey k = StoreKey.of("a/v");
        try (RangeReader r = s.rangeReader(k)) {
            assertArrayEquals("012".getBytes(StandardCharsets.US_ASCII), bytes(r.get(ByteRange.of(0, 3))));
            assertTrue(r.versioned(), "the server sent an ETag");
            assertArrayEquals("345".getBytes(StandardCharsets.US_ASCII), bytes(r.get(ByteRange.of(3, 3))));
            server.put("a/v", "abcdefghij".getBytes(StandardCharsets.US_ASCII));
            ValueChangedException e = assertThrows(ValueChangedException.class, () -> r.get(ByteRange.of(6, 3)));
            assertTrue(e.getMessage().contains("'a/v'") && e.getMessage().contains("412"), e.getMessage());
            assertThrows(ValueChangedException.class, () -> r.getAll(List.of(ByteRange.of(0, 1), ByteRange.of(5, 2))));
        }
        List<String> requests = server.requests();
        assertEquals(5, requests.size(), "one request per range read, no extra one: " + requests);
        assertFalse(requests.get(0).contains("If-Match"), requests.get(0));
        for (String later : requests.subList(1, 5)) {
            assertTrue(later.contains("[If-Match \""), later);
        }
        try (RangeReader fresh = s.rangeReader(k)) {
            assertArrayEquals("ghi".getBytes(StandardCharsets.US_ASCII), bytes(fresh.get(ByteRange.of(6, 3))));
        }
    }

    @Test
    void withoutETagsARangeReaderIsNotVersionedAndReadsAsBefore() {
        Store s = open("/data");
        try (RangeReader r = s.rangeReader(StoreKey.of("a/v"))) {
            assertArrayEquals("012".getBytes(StandardCharsets.US_ASCII), bytes(r.get(ByteRange.of(0, 3))));
            assertFalse(r.versioned(), "no ETag, nothing to compare");
            server.put("a/v", "abcdefghij".getBytes(StandardCharsets.US_ASCII));
            // The documented limit: the new value's bytes.
            assertArrayEquals("def".getBytes(StandardCharsets.US_ASCII), bytes(r.get(ByteRange.of(3, 3))));
        }
        assertTrue(server.requests().stream().noneMatch(q -> q.contains("If-Match")), server.requests().toString());
    }

    @Test
    void getsWholeValuesAndAbsentKeys() {
        Store s = open("/data");
        assertArrayEquals(TEN, bytes(s.get(StoreKey.of("a/v"))));
        assertArrayEquals(new byte[0], bytes(s.get(StoreKey.of("empty"))));
        assertEquals(Optional.empty(), s.get(StoreKey.of("a/missing")));
        assertEquals(Optional.empty(), s.get(StoreKey.of("a/missing"), ByteRange.of(1, 2)));
        assertEquals(Optional.empty(), s.get(StoreKey.of("a/missing"), ByteRange.suffix(0)));
    }

    @Test
    void rootWithTrailingSlashNamesTheSameKeys() {
        Store s = open("/data/");
        assertArrayEquals(TEN, bytes(s.get(StoreKey.of("a/v"))));
        assertEquals(open("/data").describe(), s.describe());
    }

    @Test
    void keySegmentsArePercentEncodedExactly() {
        Store s = open("/data");
        assertArrayEquals("odd".getBytes(StandardCharsets.US_ASCII), bytes(s.get(StoreKey.of(ODD_KEY))));
        assertArrayEquals("dots".getBytes(StandardCharsets.US_ASCII), bytes(s.get(StoreKey.of("%2e%2e/x"))));
        List<String> seen = server.requests();
        assertEquals("GET /data/odd%20dir/a%25b%3Fc%23d%3Be%C3%A9", seen.get(0));
        // A key spelling an escaped ".." reaches the server as literal text, never as a parent.
        assertEquals("GET /data/%252e%252e/x", seen.get(1));
    }

    @ParameterizedTest
    @EnumSource(value = Mode.class, names = {"HONOURS_RANGE", "IGNORES_RANGE"})
    void rangedGetsReturnExactlyTheBytesAsked(Mode mode) {
        server.mode(mode);
        Store s = open("/data");
        for (ByteRange r : ranges()) {
            long[] se = r.resolve(TEN.length);
            byte[] expected = java.util.Arrays.copyOfRange(TEN, (int) se[0], (int) se[1]);
            assertArrayEquals(expected, bytes(s.get(StoreKey.of("a/v"), r)), mode + " " + r);
        }
        assertTrue(server.requests().contains("GET /data/a/v bytes=2-4"), server.requests().toString());
        assertTrue(server.requests().contains("GET /data/a/v bytes=-4"), server.requests().toString());
        assertTrue(server.requests().contains("GET /data/a/v bytes=3-"), server.requests().toString());
    }

    @ParameterizedTest
    @EnumSource(value = Mode.class, names = {"HONOURS_RANGE", "IGNORES_RANGE"})
    void rangesOutsideTheValueFailAsInEveryStore(Mode mode) {
        server.mode(mode);
        Store s = open("/data");
        for (ByteRange r : outside()) {
            StoreException e = assertThrows(StoreException.class, () -> s.get(StoreKey.of("a/v"), r), mode + " " + r);
            assertInstanceOf(IllegalArgumentException.class, e.getCause(), e.toString());
            assertTrue(e.getMessage().contains("a/v") && e.getMessage().contains("10 bytes"), e.getMessage());
        }
        StoreException e = assertThrows(StoreException.class, () -> s.get(StoreKey.of("empty"), ByteRange.of(0, 1)));
        assertInstanceOf(IllegalArgumentException.class, e.getCause());
        assertArrayEquals(new byte[0], bytes(s.get(StoreKey.of("empty"), ByteRange.from(0))));
        assertArrayEquals(new byte[0], bytes(s.get(StoreKey.of("empty"), ByteRange.suffix(0))));
    }

    @Test
    void aContentRangeOtherThanTheOneAskedIsRefused() {
        server.mode(Mode.WRONG_CONTENT_RANGE);
        Store s = open("/data");
        StoreException e = assertThrows(StoreException.class, () -> s.get(StoreKey.of("a/v"), ByteRange.of(2, 3)));
        assertTrue(e.getMessage().contains("Content-Range 'bytes 3-5/10' instead of bytes 2-4"), e.getMessage());
        assertTrue(e.getMessage().contains(server.uri("/data/a/v").toString()), e.getMessage());
        assertThrows(StoreException.class, () -> s.get(StoreKey.of("a/v"), ByteRange.of(0, 9)));
    }

    @Test
    void aBodyShorterThanItsContentRangeIsRefused() {
        server.mode(Mode.SHORT_BODY);
        Store s = open("/data");
        StoreException e = assertThrows(StoreException.class, () -> s.get(StoreKey.of("a/v"), ByteRange.of(2, 3)));
        assertTrue(e.getMessage().contains("a body of 2 bytes"), e.getMessage());
    }

    @Test
    void otherStatusesAreErrorsNamingTheUrlAndStatus() {
        server.mode(Mode.ERROR_500);
        Store s = open("/data");
        StoreException e = assertThrows(StoreException.class, () -> s.get(StoreKey.of("a/v")));
        assertTrue(e.getMessage().contains(server.uri("/data/a/v") + " answered HTTP 500"), e.getMessage());
        e = assertThrows(StoreException.class, () -> s.get(StoreKey.of("a/v"), ByteRange.suffix(2)));
        assertTrue(e.getMessage().contains("(Range: bytes=-2) answered HTTP 500"), e.getMessage());
    }

    @Test
    void anUnreachableServerIsAStoreExceptionNamingTheUrl() {
        URI uri = server.uri("/data");
        server.close();
        Store s = HttpStores.open(uri);
        StoreException e = assertThrows(StoreException.class, () -> s.get(StoreKey.of("a/v")));
        assertTrue(e.getMessage().contains(uri + "/a/v"), e.getMessage());
    }

    @Test
    void redirectsAreFollowedWithTheirRange() {
        Store s = open("/moved");
        assertArrayEquals(TEN, bytes(s.get(StoreKey.of("a/v"))));
        assertArrayEquals("234".getBytes(StandardCharsets.US_ASCII), bytes(s.get(StoreKey.of("a/v"), ByteRange.of(2, 3))));
        assertEquals(OptionalLong.of(10), s.size(StoreKey.of("a/v")));
        assertTrue(server.requests().contains("GET /data/a/v bytes=2-4"), server.requests().toString());
    }

    @Test
    void sizeComesFromHead() {
        Store s = open("/data");
        assertEquals(OptionalLong.of(10), s.size(StoreKey.of("a/v")));
        assertEquals(OptionalLong.of(0), s.size(StoreKey.of("empty")));
        assertEquals(OptionalLong.empty(), s.size(StoreKey.of("nope")));
        assertTrue(s.exists(StoreKey.of("a/v")));
        assertFalse(s.exists(StoreKey.of("nope")));
        assertEquals(List.of("HEAD /data/a/v", "HEAD /data/empty", "HEAD /data/nope", "HEAD /data/a/v",
                "HEAD /data/nope"), server.requests());
    }

    @Test
    void sizeFallsBackToGetWhenHeadIsRefused() {
        server.headAllowed(false);
        Store s = open("/data");
        assertEquals(OptionalLong.of(10), s.size(StoreKey.of("a/v")));
        assertEquals(OptionalLong.empty(), s.size(StoreKey.of("nope")));
    }

    @Test
    void partialValuesComeBackInOrder() {
        Store s = open("/data");
        List<KeyRange> asked = List.of(
                new KeyRange(StoreKey.of("a/v"), ByteRange.of(0, 2)),
                new KeyRange(StoreKey.of("nope"), ByteRange.of(0, 2)),
                new KeyRange(StoreKey.of("a/v"), ByteRange.suffix(3)),
                new KeyRange(StoreKey.of(ODD_KEY), ByteRange.all()),
                new KeyRange(StoreKey.of("a/v"), ByteRange.from(5)));
        List<Optional<ByteBuffer>> got = s.getPartialValues(asked);
        assertEquals(5, got.size());
        assertArrayEquals("01".getBytes(StandardCharsets.US_ASCII), bytes(got.get(0)));
        assertEquals(Optional.empty(), got.get(1));
        assertArrayEquals("789".getBytes(StandardCharsets.US_ASCII), bytes(got.get(2)));
        assertArrayEquals("odd".getBytes(StandardCharsets.US_ASCII), bytes(got.get(3)));
        assertArrayEquals("56789".getBytes(StandardCharsets.US_ASCII), bytes(got.get(4)));
        assertEquals(5, server.requests().size());
    }

    @Test
    void partialValuesReportTheFirstFailure() {
        server.mode(Mode.WRONG_CONTENT_RANGE);
        Store s = HttpStores.open(server.uri("/data"), HttpStoreOptions.defaults().withMaxConcurrentRequests(2));
        stores.add(s);
        List<KeyRange> asked = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            asked.add(new KeyRange(StoreKey.of("a/v"), ByteRange.of(i, 2)));
        }
        assertThrows(StoreException.class, () -> s.getPartialValues(asked));
    }

    @Test
    void isReadOnlyAndNotListable() {
        Store s = open("/data");
        assertEquals(new StoreCapabilities(true, false, false, false), s.capabilities());
        assertThrows(ReadOnlyException.class, () -> s.set(StoreKey.of("a/v"), ByteBuffer.allocate(1)));
        assertThrows(ReadOnlyException.class, () -> s.erase(StoreKey.of("a/v")));
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> s.list());
        assertTrue(e.getMessage().contains("not listable"), e.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> s.listDir("a/"));
        assertThrows(dev.zarrj.api.InvalidKeyException.class, () -> s.listPrefix("a"));
        assertArrayEquals(TEN, bytes(s.get(StoreKey.of("a/v"))));
    }

    @Test
    void describeNamesTheUrlWithoutCredentials() {
        URI plain = server.uri("/data");
        URI withUser = URI.create(plain.getScheme() + "://user:secret@" + plain.getAuthority() + "/data/");
        Store s = HttpStores.open(withUser);
        stores.add(s);
        assertEquals(plain.toString(), s.describe());
        assertArrayEquals(TEN, bytes(s.get(StoreKey.of("a/v"))));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HttpStores.open(URI.create(withUser + "?x=1")));
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
    }

    @Test
    void credentialsAnswerTheRootsChallengeOnly() {
        server.requireBasic("user", "secret");
        URI plain = server.uri("/data");
        Store anonymous = open("/data");
        StoreException e = assertThrows(StoreException.class, () -> anonymous.get(StoreKey.of("a/v")));
        assertTrue(e.getMessage().contains("answered HTTP 401"), e.getMessage());

        String authority = "user:secret@" + plain.getAuthority();
        Store s = HttpStores.open(URI.create("http://" + authority + "/data"));
        stores.add(s);
        assertArrayEquals(TEN, bytes(s.get(StoreKey.of("a/v"))));
        assertEquals(OptionalLong.of(10), s.size(StoreKey.of("a/v")));

        // Redirected to another host name, the credentials are not sent there.
        Store redirected = HttpStores.open(URI.create("http://" + authority + "/elsewhere"));
        stores.add(redirected);
        server.clearRequests();
        // (java.net.http reports a challenge it has no credentials for as an IOException.)
        e = assertThrows(StoreException.class, () -> redirected.get(StoreKey.of("a/v")));
        assertTrue(e.getMessage().contains("/elsewhere/a/v") && e.getMessage().contains("credentials"),
                e.getMessage());
        assertTrue(server.requests().contains("GET /data/a/v"), server.requests().toString());
        assertFalse(server.requests().stream().anyMatch(r -> r.startsWith("GET /data/") && r.endsWith("[auth]")),
                server.requests().toString());
    }

    @Test
    void refusesUrisItCannotAppendKeysTo() {
        assertThrows(IllegalArgumentException.class, () -> HttpStores.open(URI.create("http://h/data?sig=1")));
        assertThrows(IllegalArgumentException.class, () -> HttpStores.open(URI.create("http://h/data#f")));
        assertThrows(IllegalArgumentException.class, () -> HttpStores.open(URI.create("http:data")));
        assertThrows(IllegalArgumentException.class, () -> HttpStores.open(URI.create("ftp://h/data")));
        assertThrows(IllegalArgumentException.class, () -> HttpStores.open(URI.create("http:///data")));
    }
}
