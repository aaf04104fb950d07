package dev.zarrj.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Zarr v2 metadata ({@code .zarray}, {@code .zgroup}, {@code .zattrs}, {@code .zmetadata}), opened through {@link Zarr} as format 2. */
class V2MetadataFuzzTest {
    private static final Zarr ZARR = Zarr.builder().threads(1).build();
    private static final byte[] ZGROUP = "{\"zarr_format\":2}".getBytes(StandardCharsets.UTF_8);

    /**
     * One node: the input is its documents separated by NUL bytes, the first stored as
     * {@code .zarray} when it mentions {@code "shape"} (else {@code .zgroup}), the second as
     * {@code .zattrs}.
     */
    @FuzzTest(maxDuration = "10s")
    void node(byte[] input) {
        Outcomes.zarrErrorOrNothing(() -> {
            try (Store store = ZARR.openStore("memory:")) {
                int nul = indexOf(input, 0);
                byte[] first = nul < 0 ? input : Arrays.copyOf(input, nul);
                boolean array = new String(first, StandardCharsets.ISO_8859_1).contains("\"shape\"");
                store.set(StoreKey.of(array ? ".zarray" : ".zgroup"), ByteBuffer.wrap(first));
                if (nul >= 0) {
                    int end = indexOf(input, nul + 1);
                    byte[] attrs = Arrays.copyOfRange(input, nul + 1, end < 0 ? input.length : end);
                    if (attrs.length > 0) {
                        store.set(StoreKey.of(".zattrs"), ByteBuffer.wrap(attrs));
                    }
                }
                Nodes.visit(ZARR.open(store, "", 2));
            }
        });
    }

    /** A root group's consolidated {@code .zmetadata}: the nodes it lists are opened through it. */
    @FuzzTest(maxDuration = "10s")
    void zmetadata(byte[] input) {
        Outcomes.zarrErrorOrNothing(() -> {
            try (Store store = ZARR.openStore("memory:")) {
                store.set(StoreKey.of(".zgroup"), ByteBuffer.wrap(ZGROUP));
                store.set(StoreKey.of(".zmetadata"), ByteBuffer.wrap(input));
                Nodes.visit(ZARR.open(store, "", 2));
            }
        });
    }

    private static int indexOf(byte[] b, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == 0) {
                return i;
            }
        }
        return -1;
    }
}
