package dev.zarrj.store.fs;

import dev.zarrj.api.store.ForwardingStore;
import dev.zarrj.api.store.Store;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link ForwardingStore} that changes nothing, over the file system store, against the store
 * contract: the file store's own lent reads, conditional and asynchronous writes and leftovers
 * all reach the contract through it.
 */
class ForwardingFileStoreConformanceTest extends FileStoreConformanceTest {
    @Override
    protected Store newStore() {
        return new ForwardingStore(super.newStore()) {};
    }

    @Override
    protected Optional<Store> newReadOnlyStore(Map<String, byte[]> content) {
        return super.newReadOnlyStore(content).map(store -> new ForwardingStore(store) {});
    }
}
