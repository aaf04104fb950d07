import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.store.zip.internal.ZipStoreProvider;

/**
 * The zip store: a Zarr hierarchy inside a zip archive, at its root or under a folder, opened from
 * a {@link java.nio.file.Path} with {@link dev.zarrj.store.zip.ZipStores} or from a {@code zip:}
 * URI.
 *
 * @provides StoreProvider {@code zip}
 */
module dev.zarrj.store.zip {
    requires static transitive org.apiguardian.api;
    requires transitive dev.zarrj.api;
    requires org.apache.commons.compress;
    requires static com.google.auto.service;

    exports dev.zarrj.store.zip;

    provides StoreProvider with ZipStoreProvider;
}
