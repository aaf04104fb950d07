package dev.zarrj.core.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.transformer.StorageTransformer;
import dev.zarrj.api.transformer.StorageTransformerProvider;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Writers of different elements of one chunk lose nothing when they write through different
 * handles of the array: the read-modify-write of a partial chunk is exclusive per stored chunk, not
 * per handle. Each test writes every element of a few chunks one at a time from several threads
 * spread over two handles, so that updates of one chunk through both handles overlap many times.
 */
class ConcurrentHandlesTest {
    private static final int LENGTH = 256;
    private static final int CHUNK = 64;
    private static final int THREADS = 8;
    private static final int ROUNDS = 3;

    @Test
    void twoHandlesOfOneArrayLoseNoWrites() throws Exception {
        // A storage transformer gives each handle a store wrapper of its own over the one store.
        ExtensionRegistry.Builder registry = ExtensionRegistry.builder();
        for (ExtensionPoint p : ExtensionPoint.values()) {
            registry.loadAll(p, ServiceLoader.load(p.providerType(), getClass().getClassLoader()));
        }
        registry.add(new IdentityTransformerProvider());
        try (Zarr zarr = Zarr.builder().registry(registry.build()).threads(2).build()) {
            Store store = zarr.openStore("memory:");
            for (int round = 0; round < ROUNDS; round++) {
                String path = "/a" + round;
                zarr.array(DataTypes.INT32, LENGTH).chunks(CHUNK).storageTransformers(
                        JsonNodeFactory.instance.arrayNode().add(JsonNodeFactory.instance.objectNode()
                                .put("name", IdentityTransformerProvider.NAME))).create(store, path);
                ZarrArray first = zarr.openArray(store, path);
                ZarrArray second = zarr.openArray(store, path);
                writeEveryElement(first, second);
                assertEveryElementWritten(zarr.openArray(store, path));
            }
        }
    }

    @Test
    void twoStoresOfOneLocationLoseNoWrites() throws Exception {
        // As two Zarr instances with a store each over one directory: two Store objects, one place.
        try (Zarr zarr = Zarr.builder().threads(2).build(); Zarr other = Zarr.builder().threads(2).build()) {
            Store place = zarr.openStore("memory:");
            Store viaFirst = forwarding(place, false);
            Store viaSecond = forwarding(place, false);
            assertNotSame(viaFirst, viaSecond);
            for (int round = 0; round < ROUNDS; round++) {
                String path = "/a" + round;
                zarr.array(DataTypes.INT32, LENGTH).chunks(CHUNK).create(place, path);
                writeEveryElement(zarr.openArray(viaFirst, path), other.openArray(viaSecond, path));
                assertEveryElementWritten(zarr.openArray(place, path));
            }
        }
    }

    /** Element {@code i} gets {@code i + 1}, written alone by thread {@code i % THREADS}; even threads use {@code a}. */
    private static void writeEveryElement(ZarrArray a, ZarrArray b) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                ZarrArray handle = t % 2 == 0 ? a : b;
                writers.add(pool.submit(() -> {
                    for (int i = thread; i < LENGTH; i += THREADS) {
                        handle.write(new long[] {i}, new long[] {1}, new int[] {i + 1});
                    }
                }));
            }
            for (Future<?> w : writers) {
                w.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    private static void assertEveryElementWritten(ZarrArray a) {
        int[] got = a.read().toIntArray();
        int lost = 0;
        for (int i = 0; i < LENGTH; i++) {
            lost += got[i] == i + 1 ? 0 : 1;
        }
        assertEquals(0, lost, "elements lost by concurrent writers of one chunk");
    }

    /**
     * A store object of its own that forwards every call to {@code store}. A whole value it gets
     * (what a partial update of a chunk reads) comes back after a pause, so that an update of the
     * same chunk through another store object, if nothing excludes it, starts in the meantime.
     *
     * @param describedApart whether it describes itself as a wrapper of its own (as a storage
     *                       transformer's may), rather than as {@code store}'s location
     */
    private static Store forwarding(Store store, boolean describedApart) {
        return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, args) -> {
                    if (describedApart && method.getName().equals("describe")) {
                        return "wrapper@" + System.identityHashCode(proxy) + "(" + store.describe() + ")";
                    }
                    Object result;
                    try {
                        result = method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("get") && args.length == 1) {
                        Thread.sleep(1);
                    }
                    return result;
                });
    }

    /** {@code test_identity}: hands each array a new forwarding wrapper of the store. */
    public static final class IdentityTransformerProvider implements StorageTransformerProvider {
        static final String NAME = "test_identity";

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public StorageTransformer create(ExtensionConfig config, ProviderContext context) {
            return new StorageTransformer() {
                @Override
                public String name() {
                    return NAME;
                }

                @Override
                public ObjectNode configuration() {
                    return JsonNodeFactory.instance.objectNode();
                }

                @Override
                public Store apply(Store next, String arrayPrefix) {
                    return forwarding(next, true);
                }
            };
        }
    }
}
