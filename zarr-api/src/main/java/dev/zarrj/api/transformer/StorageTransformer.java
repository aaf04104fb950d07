package dev.zarrj.api.transformer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.Extension;
import dev.zarrj.api.store.Store;
import org.apiguardian.api.API;

/**
 * Modifies requests between an array and its store (the {@code storage_transformers} of array
 * metadata). A transformer serves the same store interface it wraps. Immutable and thread-safe.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface StorageTransformer extends Extension {
    /**
     * The store an array at {@code arrayPrefix} sees through this transformer.
     *
     * @param next        the next transformer or the store itself
     * @param arrayPrefix the array's key prefix ({@code ""} for a root array, else ending in {@code /})
     */
    Store apply(Store next, String arrayPrefix);
}
