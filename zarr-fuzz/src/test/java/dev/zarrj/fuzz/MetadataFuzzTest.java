package dev.zarrj.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrNode;
import java.nio.ByteBuffer;

/** Zarr v3 {@code zarr.json} documents: opening the node, and reading a bounded part of an array. */
class MetadataFuzzTest {
    private static final Zarr ZARR = Zarr.builder().threads(1).build();

    @FuzzTest(maxDuration = "10s")
    void zarrJson(byte[] document) {
        Outcomes.zarrErrorOrNothing(() -> {
            try (Store store = ZARR.openStore("memory:")) {
                store.set(StoreKey.of("zarr.json"), ByteBuffer.wrap(document));
                ZarrNode node = ZARR.open(store, "");
                if (node instanceof ZarrArray array) {
                    long[] shape = array.shape();
                    long[] extent = new long[shape.length];
                    for (int d = 0; d < shape.length; d++) {
                        extent[d] = Math.min(shape[d], 4);
                    }
                    NdArray values = array.read(new long[shape.length], extent);
                    if (values.elementCount() != product(extent)) {
                        throw new AssertionError("read " + values.elementCount() + " elements of a region of " + product(extent));
                    }
                }
            }
        });
    }

    private static long product(long[] extent) {
        long p = 1;
        for (long e : extent) {
            p *= e;
        }
        return p;
    }

    @FuzzTest(maxDuration = "5s")
    void groupJson(byte[] document) {
        zarrJson(document);
    }
}
