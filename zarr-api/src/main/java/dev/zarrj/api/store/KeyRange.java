package dev.zarrj.api.store;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ByteRange;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A key and a byte range of its value: one request of {@code get_partial_values}.
 *
 * @param key   the key
 * @param range the range
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record KeyRange(StoreKey key, ByteRange range) {
    public KeyRange {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(range, "range");
    }
}
