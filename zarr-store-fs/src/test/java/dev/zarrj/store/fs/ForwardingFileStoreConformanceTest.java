package dev.zarrj.store.fs;

import dev.zarrj.api.store.ForwardingStore;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.conformance.StoreContract;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link ForwardingStore} that changes nothing, over the file system store, against the store
 * contract: the file store's own mapped reads, conditional and asynchronous writes and leftovers
 * all reach the contract through it.
 */
class ForwardingFileStoreConformanceTest extends StoreContract {
    @TempDir
    Path dir;

    private int n;

    private Path nextRoot() {
        return dir.resolve("store-" + n++ + ".zarr");
    }

    @Override
    protected Store newStore() {
        return new ForwardingStore(FileStores.open(nextRoot(), false)) {};
    }

    @Override
    protected Optional<Store> newReadOnlyStore(Map<String, byte[]> content) {
        Path root = nextRoot();
        try (Store w = FileStores.open(root, false)) {
            content.forEach((k, v) -> w.set(StoreKey.of(k), ByteBuffer.wrap(v)));
        }
        return Optional.of(new ForwardingStore(FileStores.open(root, true)) {});
    }
}
