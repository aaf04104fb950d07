package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A metadata document is of a Zarr format version zarrj does not read (for example Zarr v2).
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public class UnsupportedFormatException extends InvalidMetadataException {
    private static final long serialVersionUID = 1L;

    /** @param message which format was found and what zarrj reads */
    public UnsupportedFormatException(String pointer, String message) {
        this(pointer, message, null);
    }

    /** As {@link #UnsupportedFormatException(String, String)}, with a cause. */
    public UnsupportedFormatException(String pointer, String message, Throwable cause) {
        super("ZARR-FORMAT", pointer, message, cause);
    }
}
