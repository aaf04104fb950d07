package dev.zarrj.store.zip;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.store.StoreProvider;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code zip} provider is found by {@link ServiceLoader}: through {@code provides} on the
 * module path, through the generated {@code META-INF/services} entry on the class path (Surefire
 * runs this class both ways).
 */
class ZipStoreProviderClassPathTest {
    @TempDir
    Path tmp;

    @Test
    void serviceLoaderFindsTheZipProvider() {
        // Test code runs inside this module, which declares no 'uses'; on the class path this is a no-op.
        getClass().getModule().addUses(StoreProvider.class);
        List<StoreProvider> zip = ServiceLoader.load(StoreProvider.class, getClass().getClassLoader()).stream()
                .map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("zip"))
                .toList();
        assertEquals(1, zip.size(), "exactly one 'zip' provider");
        assertEquals("dev.zarrj.store.zip.internal.ZipStoreProvider", zip.get(0).getClass().getName());
        assertEquals(Boolean.getBoolean("zarrj.expectClassPath"), !getClass().getModule().isNamed(),
                "runs on the path Surefire was asked for");
        URI uri = URI.create("zip:" + tmp.resolve("p.zip").toUri().getRawPath());
        try (Store store = zip.get(0).open(uri, false)) {
            store.set(StoreKey.of("k"), ByteBuffer.allocate(3));
        }
        try (Store store = zip.get(0).open(uri, true)) {
            assertEquals(List.of(StoreKey.of("k")), store.list());
        }
    }
}
