package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.ListDirResult;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreCapabilities;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A group's children are discovered with one listing and their metadata documents read
 * concurrently, up to ioConcurrency at once: on an object store, opening a hierarchy of many
 * arrays costs about one request's latency per level, not two requests per child.
 */
class GroupChildrenRequestsTest {
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    private static void hierarchy(Zarr zarr, Store store, int arrays) {
        zarr.createGroup(store, "/g");
        for (int i = 0; i < arrays; i++) {
            try (ZarrArray a = zarr.array(DataTypes.INT32, 4).chunks(2).create(store, "/g/a" + i)) {
                a.write(new long[] {0}, new long[] {4}, new int[] {i, i, i, i});
            }
        }
        zarr.createGroup(store, "/g/sub");
        store.set(StoreKey.of("g/__notanode/zarr.json"), ByteBuffer.wrap("{}".getBytes()));
        store.set(StoreKey.of("g/nodoc/c/0"), ByteBuffer.allocate(8)); // a prefix without zarr.json
    }

    @Test
    void childrenAreOpenedWithTheirDocumentsInFlightTogether() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(16).build()) {
            MetadataStore store = new MetadataStore(zarr.openStore("memory:"), scheduler);
            hierarchy(zarr, store, 40);
            store.reset();

            List<ZarrNode> children = zarr.openGroup(store, "/g").children();

            assertEquals(41, children.size());
            List<String> names = new ArrayList<>();
            for (ZarrNode n : children) {
                names.add(n.path());
            }
            assertTrue(names.contains("/g/a7") && names.contains("/g/sub") && !names.contains("/g/nodoc"), names.toString());
            assertInstanceOf(ZarrGroup.class, children.get(names.indexOf("/g/sub")));
            assertEquals(16, store.peak.get(), "documents in flight at once");
            // The group's own document is one blocking get; each child's is one asynchronous get, and nothing more.
            assertEquals(1, store.blockingGets.get(), "blocking metadata reads");
            assertEquals(42, store.asyncGets.get(), "asynchronous metadata reads: 41 children and the prefix without one");
        }
    }

    @Test
    void childNamesCostTheSameAndSkipPrefixesWithoutADocument() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(8).build()) {
            MetadataStore store = new MetadataStore(zarr.openStore("memory:"), scheduler);
            hierarchy(zarr, store, 10);
            ZarrGroup g = zarr.openGroup(store, "/g");
            store.reset();

            List<String> names = g.childNames();

            assertEquals(11, names.size(), names.toString());
            assertTrue(!names.contains("nodoc") && !names.contains("__notanode"), names.toString());
            assertEquals(8, store.peak.get(), "documents in flight at once");
        }
    }

    @Test
    void aFailedDocumentReadFailsTheListingNamingTheKey() {
        try (Zarr zarr = Zarr.builder().threads(2).ioConcurrency(8).build()) {
            MetadataStore store = new MetadataStore(zarr.openStore("memory:"), scheduler);
            hierarchy(zarr, store, 5);
            ZarrGroup g = zarr.openGroup(store, "/g");
            store.failing = "g/a3/zarr.json";

            StoreException e = assertThrows(StoreException.class, g::children);
            assertTrue(e.getMessage().contains("g/a3/zarr.json"), e.getMessage());
        }
    }

    /**
     * A memory store whose asynchronous reads of {@code zarr.json} documents complete after 20 ms
     * on a scheduler, counting them, their peak in flight and the blocking reads of documents.
     */
    private static final class MetadataStore implements Store {
        private final Store memory;
        private final ScheduledExecutorService scheduler;
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();
        final AtomicInteger asyncGets = new AtomicInteger();
        final AtomicInteger blockingGets = new AtomicInteger();
        volatile String failing;

        MetadataStore(Store memory, ScheduledExecutorService scheduler) {
            this.memory = memory;
            this.scheduler = scheduler;
        }

        void reset() {
            peak.set(0);
            asyncGets.set(0);
            blockingGets.set(0);
        }

        private static boolean document(StoreKey key) {
            return key.value().endsWith("zarr.json");
        }

        @Override public StoreCapabilities capabilities() { return memory.capabilities(); }
        @Override public String describe() { return "metadata-delayed(" + memory.describe() + ")"; }

        @Override
        public Optional<ByteBuffer> get(StoreKey key) {
            if (document(key)) {
                blockingGets.incrementAndGet();
            }
            return memory.get(key);
        }

        @Override
        public CompletableFuture<Optional<ByteBuffer>> getAsync(StoreKey key) {
            if (!document(key)) {
                return Store.super.getAsync(key);
            }
            asyncGets.incrementAndGet();
            peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            CompletableFuture<Optional<ByteBuffer>> f = new CompletableFuture<>();
            scheduler.schedule(() -> {
                inFlight.decrementAndGet();
                if (key.value().equals(failing)) {
                    f.completeExceptionally(new StoreException(describe() + ": cannot read '" + key + "'", null));
                } else {
                    f.complete(memory.get(key));
                }
            }, 20, TimeUnit.MILLISECONDS);
            return f;
        }

        @Override public void set(StoreKey key, ByteBuffer value) { memory.set(key, value); }
        @Override public void erase(StoreKey key) { memory.erase(key); }
        @Override public List<StoreKey> listPrefix(String prefix) { return memory.listPrefix(prefix); }
        @Override public ListDirResult listDir(String prefix) { return memory.listDir(prefix); }
    }
}
