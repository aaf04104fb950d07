package dev.zarrj.store.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.api.store.StoreProvider;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code s3} provider is found by {@link ServiceLoader}: through {@code provides} on the
 * module path, through the generated {@code META-INF/services} entry on the class path (Surefire
 * runs this class both ways), and its store works either way.
 */
@ExtendWith(S3Proxy.class)
class S3StoreProviderClassPathTest {
    @Test
    void serviceLoaderFindsTheS3Provider() {
        getClass().getModule().addUses(StoreProvider.class);
        List<StoreProvider> s3 = ServiceLoader.load(StoreProvider.class, getClass().getClassLoader()).stream()
                .map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("s3"))
                .toList();
        assertEquals(1, s3.size(), "exactly one 's3' provider");
        assertEquals("dev.zarrj.store.s3.internal.S3StoreProvider", s3.get(0).getClass().getName());
        String bucket = S3Proxy.get().newBucket();
        try (Store store = s3.get(0).open(S3Proxy.get().uri(bucket, "cp", ""), false)) {
            store.set(StoreKey.of("k"), ByteBuffer.allocate(3));
            assertEquals(List.of(StoreKey.of("k")), store.list());
        }
    }
}
