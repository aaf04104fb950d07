package dev.zarrj.api.store;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Something a writer put beside a store's values that is not a value: the temporary file of a
 * {@code set} that a crash interrupted, a zip store's spill file. A leftover is never a key and
 * never read as data; it only takes space. {@link Store#leftovers()} reports them and
 * {@link Store#removeLeftovers(java.time.Duration)} removes those that no running writer owns.
 *
 * @param location where it is, as the store names its storage (a file's path, an object's name)
 * @param size     its size in bytes
 * @param modified when it was last written
 * @param live     whether a writer that is still running owns it (for example holds a lock on it):
 *                 a live leftover is a write in progress, and is never removed
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Leftover(String location, long size, Instant modified, boolean live) {
    public Leftover {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(modified, "modified");
        if (size < 0) {
            throw new IllegalArgumentException("negative size " + size);
        }
    }
}
