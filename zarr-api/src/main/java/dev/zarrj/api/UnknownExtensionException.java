package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * Metadata names an extension that no installed provider implements, and the extension may not
 * be skipped (it lacks {@code "must_understand": false}, or is a data type, chunk grid or chunk key
 * encoding).
 *
 * <p>The message names the extension, the extension point, the module that provides it when
 * zarrj knows one, and the names that are installed.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public class UnknownExtensionException extends InvalidMetadataException {
    private static final long serialVersionUID = 1L;

    private final String extensionName;

    /** @param extensionName the unknown name as written in the metadata */
    public UnknownExtensionException(String pointer, String extensionName, String message) {
        this(pointer, extensionName, message, null);
    }

    /** As {@link #UnknownExtensionException(String, String, String)}, with a cause. */
    public UnknownExtensionException(String pointer, String extensionName, String message, Throwable cause) {
        super("ZARR-UNKNOWN-EXT", pointer, message, cause);
        this.extensionName = extensionName;
    }

    /** The unknown extension's name. */
    public String extensionName() {
        return extensionName;
    }
}
