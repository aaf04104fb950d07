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

    exports dev.zarrj.store.fs;

    provides StoreProvider with FileStoreProvider;
}
