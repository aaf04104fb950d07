package dev.zarrj.store.fs.internal;

import com.google.auto.service.AutoService;
import dev.zarrj.api.StoreException;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreProvider;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Opens {@link FileStore}s for {@code file:} URIs (RFC 8089), the spec's canonical URI form of the
 * file system store.
 *
 * <p>Accepted: {@code file:///data/my%20set.zarr}, {@code file:/data/my%20set.zarr} and
 * {@code file://localhost/data/my%20set.zarr}; percent-escapes are decoded, so each of these
 * names the directory {@code /data/my set.zarr}. Refused with an
 * {@link IllegalArgumentException}: another scheme, a relative ({@code file:data}) URI, another
 * host, a query or a fragment.
 */
@AutoService(StoreProvider.class)
public final class FileStoreProvider implements StoreProvider {
    public FileStoreProvider() {}

    @Override
    public String name() {
        return "file";
    }

    /**
     * Opens the store a {@code file:} URI names, without fsync.
     *
     * @throws StoreException when the directory exists and is not a directory
     */
    @Override
    public Store open(URI uri, boolean readOnly) {
        return new FileStore(toPath(uri), readOnly, false);
    }

    /**
     * The directory a {@code file:} URI names.
     *
     * @throws IllegalArgumentException when the URI is not an absolute local {@code file:} URI
     */
    static Path toPath(URI uri) {
        Objects.requireNonNull(uri, "uri");
        if (!"file".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("'" + uri + "' is not a file: URI");
        }
        if (uri.isOpaque()) {
            throw new IllegalArgumentException("'" + uri
                    + "' is not an absolute file URI; write file:///absolute/path");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("'" + uri + "': a file URI takes no query or fragment");
        }
        String authority = uri.getRawAuthority();
        if (authority != null && !authority.isEmpty() && !authority.equalsIgnoreCase("localhost")) {
            throw new IllegalArgumentException("'" + uri + "': host '" + authority
                    + "' is not local; only file:///path and file://localhost/path are supported");
        }
        String path = uri.getPath();
        if (path == null || path.isEmpty()) {
            throw new IllegalArgumentException("'" + uri + "' names no path");
        }
        try {
            // Rebuilt without the authority, so that the platform maps it (c:/x on Windows too).
            return Path.of(new URI("file", null, path, null));
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + uri + "' does not name a local path: " + e.getMessage(), e);
        }
    }
}
