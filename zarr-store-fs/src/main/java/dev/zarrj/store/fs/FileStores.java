package dev.zarrj.store.fs;

import static org.apiguardian.api.API.Status.STABLE;

import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.store.fs.internal.FileStore;
import java.nio.file.Path;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Opens a directory of the local file system as a Zarr store.
 *
 * <p>The store maps the key {@code foo/bar} to the file {@code <root>/foo/bar}, as the spec's file
 * system store does. The root need not exist: it is created by the first write, and reads as an
 * empty store until then. The returned store is thread-safe; see {@link FileStoreOptions} for
 * what can be configured.
 *
 * <pre>{@code
 * try (Store store = FileStores.open(Path.of("data/example.zarr"), false)) {
 *     store.set(StoreKey.of("zarr.json"), ByteBuffer.wrap(json));
 * }
 * }</pre>
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public final class FileStores {
    private FileStores() {}

    /**
     * Opens the store rooted at a directory, with default options otherwise.
     *
     * @param root     the directory; a relative path is resolved against the working directory
     * @param readOnly whether to refuse writes
     * @throws StoreException when {@code root} exists and is not a directory
     */
    public static Store open(Path root, boolean readOnly) {
        return open(root, FileStoreOptions.defaults().withReadOnly(readOnly));
    }

    /**
     * Opens the store rooted at a directory.
     *
     * @param root    the directory; a relative path is resolved against the working directory
     * @param options how the store behaves
     * @throws StoreException when {@code root} exists and is not a directory
     */
    public static Store open(Path root, FileStoreOptions options) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(options, "options");
        return new FileStore(root, options.readOnly(), options.fsync());
    }
}
