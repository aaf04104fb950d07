package dev.zarrj.store.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.store.StoreProvider;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code file} provider is found by {@link ServiceLoader}: through {@code provides} on the
 * module path, through the generated {@code META-INF/services} entry on the class path (Surefire
 * runs this class both ways).
 */
class FileStoreProviderClassPathTest {
    @TempDir
    Path tmp;

    @Test
    void serviceLoaderFindsTheFileProvider() {
        // Test code runs inside this module, which declares no 'uses'; on the class path this is a no-op.
        getClass().getModule().addUses(StoreProvider.class);
        List<StoreProvider> file = ServiceLoader.load(StoreProvider.class, getClass().getClassLoader()).stream()
                .map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("file"))
                .toList();
        assertEquals(1, file.size(), "exactly one 'file' provider");
        assertEquals("dev.zarrj.store.fs.internal.FileStoreProvider", file.get(0).getClass().getName());
        Store store = file.get(0).open(tmp.toUri(), false);
        store.set(StoreKey.of("k"), ByteBuffer.allocate(3));
        assertEquals(List.of(StoreKey.of("k")), store.list());
    }
}
