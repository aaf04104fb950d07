package dev.zarrj.api.store;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A key and the size of its value in bytes: one entry of {@link Store#listPrefixSizes}.
 *
 * @param key  the key
 * @param size the size of its value in bytes, 0 or more
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record KeySize(StoreKey key, long size) {
    public KeySize {
        Objects.requireNonNull(key, "key");
        if (size < 0) {
            throw new IllegalArgumentException("negative size " + size + " of key '" + key + "'");
        }
    }
}
