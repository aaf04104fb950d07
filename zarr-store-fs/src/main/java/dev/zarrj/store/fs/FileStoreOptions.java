package dev.zarrj.store.fs;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * How a file system store behaves.
 *
 * <p>Immutable; start from {@link #defaults()} and change what you need, for example
 * {@code FileStoreOptions.defaults().withFsync(true)}.
 *
 * @param readOnly whether writes are refused with a {@link dev.zarrj.api.ReadOnlyException}
 * @param fsync    whether each {@code set} forces the new value and its directory entry to the
 *                 device before returning; slower, but the value survives a power loss. Off by
 *                 default: the write is atomic either way.
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public record FileStoreOptions(boolean readOnly, boolean fsync) {
    private static final FileStoreOptions DEFAULTS = new FileStoreOptions(false, false);

    /** Read-write, without fsync. */
    public static FileStoreOptions defaults() {
        return DEFAULTS;
    }

    /** These options with {@code readOnly} changed. */
    public FileStoreOptions withReadOnly(boolean readOnly) {
        return new FileStoreOptions(readOnly, fsync);
    }

    /** These options with {@code fsync} changed. */
    public FileStoreOptions withFsync(boolean fsync) {
        return new FileStoreOptions(readOnly, fsync);
    }
}
