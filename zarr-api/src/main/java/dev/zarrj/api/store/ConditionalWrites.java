package dev.zarrj.api.store;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ReadOnlyException;
import dev.zarrj.api.StoreException;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Writes that take effect only if a key is still as the writer last saw it: a store's optional
 * capability ({@link Store#conditionalWrites()}), what S3's {@code If-None-Match: *} and
 * {@code If-Match: <etag>} give.
 *
 * <p>With it, a read-modify-write of one value by several processes loses nothing: each writer
 * reads the value and its {@linkplain VersionedValue#version() version}, changes it, and stores it
 * with {@link #setIfMatch}; a writer whose version is stale stores nothing, reads again and
 * retries. zarrj does this for partial writes of a chunk or shard, and creates an array or group
 * with {@link #setIfAbsent} when asked not to overwrite, so that of two processes creating one
 * node exactly one wins.
 *
 * <p>The check and the write are one atomic step against every other conditional write to the
 * key, from this process or any other that reaches the same storage. A version is an opaque token
 * (an ETag, a generation, a digest of the value): it changes whenever the value changes; it may
 * also change when a value is rewritten unchanged, which costs a retry, never a lost write.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface ConditionalWrites {
    /**
     * The value of a key with its current version, or empty when the key is absent.
     *
     * @throws StoreException when the store cannot be read
     */
    Optional<VersionedValue> getVersioned(StoreKey key);

    /**
     * Stores a value (position to limit) only if the key is absent, as {@link Store#set} would.
     *
     * @return true when the value was stored; false when the key holds a value, which is left
     *         unchanged
     * @throws ReadOnlyException when the store is not writable
     * @throws StoreException    when the write fails
     */
    boolean setIfAbsent(StoreKey key, ByteBuffer value);

    /**
     * Stores a value (position to limit) only if the key's current version is {@code version},
     * as {@link Store#set} would.
     *
     * @param version a version {@link #getVersioned} returned for this key
     * @return true when the value was stored; false when the key has since been changed or
     *         erased, in which case nothing was written
     * @throws ReadOnlyException when the store is not writable
     * @throws StoreException    when the write fails
     */
    boolean setIfMatch(StoreKey key, ByteBuffer value, String version);

    /**
     * A value with the version it had when it was read.
     *
     * @param value   the value, owned by the caller
     * @param version an opaque token, not empty, that {@link #setIfMatch} compares
     * @since 0.1
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    record VersionedValue(ByteBuffer value, String version) {
        public VersionedValue {
            java.util.Objects.requireNonNull(value, "value");
            if (version == null || version.isEmpty()) {
                throw new IllegalArgumentException("a version must not be null or empty");
            }
        }
    }
}
