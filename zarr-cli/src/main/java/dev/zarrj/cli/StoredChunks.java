package dev.zarrj.cli;

import dev.zarrj.api.store.KeySize;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.ZarrArray;
import java.util.Optional;

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
    static StoredChunks of(Store store, ZarrArray a) {
        String prefix = a.path().equals("/") ? "" : a.path().substring(1) + "/";
        long count = 0;
        long bytes = 0;
        double decoded = 0;
        for (KeySize k : store.listPrefixSizes(prefix)) {
            Optional<long[]> c = a.chunkCoords(k.key().value());
            if (c.isPresent()) {
                count++;
                bytes += k.size();
                decoded += a.chunkByteSize(c.get());
            }
        }
        return new StoredChunks(count, bytes, decoded);
    }
}
