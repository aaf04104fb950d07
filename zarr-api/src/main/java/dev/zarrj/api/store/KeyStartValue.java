package dev.zarrj.api.store;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.ByteBuffer;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Bytes to write into a value at an offset: one request of {@code set_partial_values}.
 *
 * @param key   the key
 * @param start the offset in the value
 * @param value the bytes (position to limit)
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record KeyStartValue(StoreKey key, long start, ByteBuffer value) {
    public KeyStartValue {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (start < 0) {
            throw new IllegalArgumentException("negative start " + start);
        }
    }
}
