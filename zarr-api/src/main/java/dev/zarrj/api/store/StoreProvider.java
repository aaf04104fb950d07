package dev.zarrj.api.store;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.NamedProvider;
import dev.zarrj.api.StoreException;
import java.net.URI;
import org.apiguardian.api.API;

/**
 * Opens stores for one URI scheme, as {@code java.nio.file.spi.FileSystemProvider} does for file
 * systems. {@link #name()} is the scheme ({@code file}, {@code zip}, {@code memory}).
 * A {@link java.util.ServiceLoader} service.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface StoreProvider extends NamedProvider {
    /**
     * Opens (and, for writing, creates on first write) the store a URI names.
     *
     * @param uri      a URI of this provider's scheme
     * @param readOnly whether to refuse writes
     * @throws StoreException           when it cannot be opened
     * @throws IllegalArgumentException when the URI is not one this provider understands
     */
    Store open(URI uri, boolean readOnly);
}
