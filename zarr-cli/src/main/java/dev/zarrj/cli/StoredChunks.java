package dev.zarrj.cli;

import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.ZarrArray;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What an array has stored: its chunks (shards when sharded), their stored bytes, and their
 * decoded bytes. Found with one listing with sizes of the array's prefix
 * ({@link Store#listPrefixSizes}), so that an object store answers with a request per thousand
 * keys rather than one per chunk.
 *
 * @param count   the chunks stored
 * @param bytes   their stored size
 * @param decoded their decoded size (a double: a sum of sizes up to 2^63 each could overflow a long)
 */
record StoredChunks(long count, long bytes, double decoded) {
    /** The chunks of {@code a} that {@code store} (a listable store, the array's) holds. */
    static StoredChunks of(Store store, ZarrArray a) throws InterruptedException, ExecutionException {
        String prefix = a.path().equals("/") ? "" : a.path().substring(1) + "/";
        List<KeySize> listed;
        if (!listsSizes(store) && store.ioConcurrency() > 1) {
            // Sizes the store's listing does not carry, each a request that mostly waits: asked
            // as many at once as the store suggests, not one after another as the default would.
            List<StoreKey> keys = store.listPrefix(prefix);
            long[] sizes = sizes(store, keys);
            listed = new ArrayList<>(keys.size());
            for (int i = 0; i < sizes.length; i++) {
                if (sizes[i] >= 0) {
                    listed.add(new KeySize(keys.get(i), sizes[i]));
                }
            }
        } else {
            listed = store.listPrefixSizes(prefix);
        }
        long count = 0;
        long bytes = 0;
        double decoded = 0;
        for (KeySize k : listed) {
            Optional<long[]> c = a.chunkCoords(k.key().value());
            if (c.isPresent()) {
                count++;
                bytes += k.size();
                decoded += a.chunkByteSize(c.get());
            }
        }
        return new StoredChunks(count, bytes, decoded);
    }

    /** Whether the store answers {@link Store#listPrefixSizes} itself rather than by the default. */
    private static boolean listsSizes(Store store) {
        try {
            return store.getClass().getMethod("listPrefixSizes", String.class).getDeclaringClass() != Store.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** The sizes of these keys' values (-1 when absent), as many asked at once as the store suggests. */
    private static long[] sizes(Store store, List<StoreKey> keys) throws InterruptedException, ExecutionException {
        long[] out = new long[keys.size()];
        int threads = Math.max(1, Math.min(keys.size(), store.ioConcurrency()));
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "zarr-info-size");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Long>> futures = new ArrayList<>(keys.size());
            for (StoreKey k : keys) {
                futures.add(pool.submit(() -> store.size(k).orElse(-1)));
            }
            for (int i = 0; i < out.length; i++) {
                try {
                    out[i] = futures.get(i).get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException cause) {
                        throw cause;
                    }
                    throw e;
                }
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
