package dev.zarrj.store.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.store.StoreProvider;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The {@code http} and {@code https} providers are found by {@link ServiceLoader}: through
 * {@code provides} on the module path, through the generated {@code META-INF/services} entries on
 * the class path (Surefire runs this class both ways).
 */
class HttpStoreProviderClassPathTest {
    @Test
    void serviceLoaderFindsBothSchemes() {
        getClass().getModule().addUses(StoreProvider.class);
        Map<String, StoreProvider> byName = new TreeMap<>();
        ServiceLoader.load(StoreProvider.class, getClass().getClassLoader()).stream()
                .map(ServiceLoader.Provider::get)
                .filter(p -> p.name().startsWith("http"))
                .forEach(p -> byName.put(p.name(), p));
        assertEquals(java.util.Set.of("http", "https"), byName.keySet());
        byte[] value = {1, 2, 3};
        try (TestServer server = TestServer.serving(Map.of("k", value));
             Store store = byName.get("http").open(server.uri("/data"), true)) {
            ByteBuffer b = store.get(StoreKey.of("k")).orElseThrow();
            byte[] got = new byte[b.remaining()];
            b.get(got);
            assertArrayEquals(value, got);
        }
        assertEquals("https://example.org/set.zarr",
                byName.get("https").open(URI.create("https://example.org/set.zarr/"), true).describe());
        assertThrows(IllegalArgumentException.class,
                () -> byName.get("https").open(URI.create("http://example.org/set.zarr"), true));
    }
}
