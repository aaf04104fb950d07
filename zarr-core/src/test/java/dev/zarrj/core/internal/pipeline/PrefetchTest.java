package dev.zarrj.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.Zarr;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link Prefetch}: requests in order, bounded by the window and by the bytes held. */
class PrefetchTest {
    private static final int PIECES = 10;

    /** A memory store holding {@code k0..k9} of 100 bytes each, recording the keys requested with getAsync. */
    private static Store recording(List<String> requested) {
        Store memory = Zarr.defaults().openStore("memory:");
        for (int i = 0; i < PIECES; i++) {
            memory.set(StoreKey.of("k" + i), ByteBuffer.wrap(new byte[100]));
        }
        return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getAsync")) {
                        synchronized (requested) {
                            requested.add(args[0].toString());
                        }
                    }
                    try {
                        return method.invoke(memory, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void fetchingWaitsWhileTheBytesHeldReachTheBudget() {
        List<String> requested = new ArrayList<>();
        Prefetch p = new Prefetch(recording(requested), PIECES, j -> StoreKey.of("k" + j), PIECES, 250);
        p.pump();
        assertEquals(List.of("k0", "k1", "k2"), requested, "requests until 300 bytes are held, over a budget of 250");
        assertEquals(100, p.take(0).orElseThrow().remaining());
        p.release(0);
        assertEquals(List.of("k0", "k1", "k2", "k3"), requested, "one more request once 200 bytes are held");
    }

    @Test
    void theWindowBoundsTheRequestsNotYetReleased() {
        List<String> requested = new ArrayList<>();
        Prefetch p = new Prefetch(recording(requested), PIECES, j -> j % 2 == 0 ? StoreKey.of("k" + j) : null, 2,
                Long.MAX_VALUE);
        p.pump();
        assertEquals(List.of("k0", "k2"), requested, "two requests, skipping pieces without a key");
        p.release(0);
        assertEquals(List.of("k0", "k2", "k4"), requested);
        for (int j = 2; j < PIECES; j += 2) {
            Optional<ByteBuffer> v = p.take(j);
            assertTrue(v.isPresent());
            p.release(j);
        }
        assertEquals(List.of("k0", "k2", "k4", "k6", "k8"), requested);
    }
}
