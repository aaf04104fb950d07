package dev.zarrj.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrNode;
import java.nio.ByteBuffer;

/**
 * Zarr v3 {@code zarr.json} documents: opening the node (every data type, grid, key encoding and
 * codec chain the installed modules know, sharding and dimension names included), reading a small
 * corner of an array, and walking a group's inline consolidated metadata.
 */
class MetadataFuzzTest {
    private static final Zarr ZARR = Zarr.builder().threads(1).build();

    @FuzzTest(maxDuration = "10s")
    void zarrJson(byte[] document) {
        open(document);
    }

    @FuzzTest(maxDuration = "5s")
    void groupJson(byte[] document) {
        open(document);
    }

    /** A group's {@code zarr.json} with {@code consolidated_metadata}: the nodes it lists are opened through it. */
    @FuzzTest(maxDuration = "10s")
    void consolidated(byte[] document) {
        open(document);
    }

    private static void open(byte[] document) {
        Outcomes.zarrErrorOrNothing(() -> {
            try (Store store = ZARR.openStore("memory:")) {
                store.set(StoreKey.of("zarr.json"), ByteBuffer.wrap(document));
                ZarrNode node = ZARR.open(store, "");
                Nodes.visit(node);
            }
        });
    }
}
