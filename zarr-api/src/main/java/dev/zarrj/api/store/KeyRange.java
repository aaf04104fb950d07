package dev.zarrj.api.store;

import dev.zarrj.api.ByteRange;
import java.util.Objects;

/**
 * A key and a byte range of its value: one request of {@code get_partial_values}.
 *
 * @param key   the key
 * @param range the range
 */
public record KeyRange(StoreKey key, ByteRange range) {
    public KeyRange {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(range, "range");
    }
}
