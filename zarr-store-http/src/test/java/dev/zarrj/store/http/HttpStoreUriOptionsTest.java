package dev.zarrj.store.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.store.StoreProvider;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** Store options in the URI's query: read, applied, and refused naming the option when wrong. */
class HttpStoreUriOptionsTest {
    @Test
    void optionsInTheQueryApplyAndAreNotPartOfTheRoot() {
        byte[] ten = "0123456789".getBytes(StandardCharsets.US_ASCII);
        try (TestServer server = TestServer.serving(Map.of("a/v", ten))) {
            URI uri = URI.create(server.uri("/data") + "?connect-timeout=5s&request-timeout=2m&max-concurrent-requests=7");
            try (Store s = HttpStores.open(uri)) {
                assertEquals(server.uri("/data").toString(), s.describe(), "the query is no part of the location");
                assertEquals(7, s.ioConcurrency());
                ByteBuffer v = s.get(StoreKey.of("a/v")).orElseThrow();
                byte[] got = new byte[v.remaining()];
                v.get(got);
                assertArrayEquals(ten, got);
                assertTrue(server.requests().contains("GET /data/a/v"), "keys go after the path, not the query: "
                        + server.requests());
            }
            StoreProvider http = ServiceLoader.load(StoreProvider.class).stream().map(ServiceLoader.Provider::get)
                    .filter(p -> p.name().equals("http")).findFirst().orElseThrow();
            try (Store s = http.open(URI.create(server.uri("/data") + "?max-concurrent-requests=3"), true)) {
                assertEquals(3, s.ioConcurrency(), "the provider reads the options too");
            }
        }
    }

    @Test
    void durationsAndCounts() {
        HttpStoreOptions d = HttpStoreOptions.defaults();
        assertEquals(Duration.ofMillis(500), d.withUriOptions(URI.create("http://h/d?request-timeout=500ms")).requestTimeout());
        assertEquals(Duration.ofSeconds(30), d.withUriOptions(URI.create("http://h/d?request-timeout=30s")).requestTimeout());
        assertEquals(Duration.ofMinutes(2), d.withUriOptions(URI.create("http://h/d?request-timeout=2m")).requestTimeout());
        assertEquals(Duration.ofHours(1), d.withUriOptions(URI.create("http://h/d?connect-timeout=1h")).connectTimeout());
        assertEquals(Duration.ofSeconds(90), d.withUriOptions(URI.create("http://h/d?connect-timeout=PT1M30S")).connectTimeout());
        HttpStoreOptions o = d.withMaxConcurrentRequests(5).withUriOptions(URI.create("http://h/d?request-timeout=45s"));
        assertEquals(new HttpStoreOptions(d.connectTimeout(), Duration.ofSeconds(45), 5), o,
                "options the URI does not name are kept");
        assertEquals(64, d.maxConcurrentRequests());
        assertEquals(d, d.withUriOptions(URI.create("http://h/d")));
    }

    @Test
    void unknownOptionsAndBadValuesAreRefusedNamingThem() {
        String[][] cases = {
            {"http://h/d?sig=1", "unknown option 'sig'"},
            {"http://h/d?timeout=5s", "unknown option 'timeout'"},
            {"http://h/d?request-timeout=5", "option 'request-timeout' is '5'"},
            {"http://h/d?request-timeout=0s", "option 'request-timeout' is '0s'"},
            {"http://h/d?connect-timeout=soon", "option 'connect-timeout' is 'soon'"},
            {"http://h/d?max-concurrent-requests=0", "option 'max-concurrent-requests' is '0'"},
            {"http://h/d?max-concurrent-requests=many", "option 'max-concurrent-requests' is 'many'"},
            {"http://h/d?request-timeout=1s&request-timeout=2s", "option 'request-timeout' given twice"},
        };
        for (String[] c : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> HttpStores.open(URI.create(c[0])), c[0]);
            assertTrue(e.getMessage().contains(c[1]), c[0] + ": " + e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HttpStores.open(URI.create("http://u:secret@h/d?x=1")));
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
    }
}
