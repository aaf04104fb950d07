import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.store.fs.internal.FileStoreProvider;

/**
 * The file system store: Zarr keys as files under a root directory, opened from a
 * {@link java.nio.file.Path} with {@link dev.zarrj.store.fs.FileStores} or from a {@code file:} URI.
 *
 * @provides StoreProvider {@code file}
 */
module dev.zarrj.store.fs {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires static com.google.auto.service;
    // sun.misc.Unsafe.invokeCleaner, to unmap a file as soon as its reader is done (Unmapper).
    // Not static: an application started with -m resolves only what its modules require.
    requires jdk.unsupported;

    exports dev.zarrj.store.fs;

    provides StoreProvider with FileStoreProvider;
}
