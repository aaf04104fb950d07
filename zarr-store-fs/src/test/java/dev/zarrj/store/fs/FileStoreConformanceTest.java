package dev.zarrj.store.fs;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.conformance.StoreContract;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file system store ({@code zarr-store-fs}) against the store contract: writable directories,
 * and read-only ones opened over a directory written beforehand.
 */
class FileStoreConformanceTest extends StoreContract {
    @TempDir
    Path dir;

    private int n;

    private Path nextRoot() {
        return dir.resolve("store-" + n++ + ".zarr");
    }

    @Override
    protected Store newStore() {
        return FileStores.open(nextRoot(), false);
    }

    @Override
    protected Optional<Store> newReadOnlyStore(Map<String, byte[]> content) {
        Path root = nextRoot();
        try (Store w = FileStores.open(root, false)) {
            content.forEach((k, v) -> w.set(StoreKey.of(k), ByteBuffer.wrap(v)));
        }
        return Optional.of(FileStores.open(root, true));
    }
}
