package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A store key or prefix is not allowed: empty segments, {@code .} or {@code ..} segments, a leading
 * or trailing {@code /}, a backslash or a NUL. Keys that could leave a store's root never reach it.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public class InvalidKeyException extends ZarrException {
    private static final long serialVersionUID = 1L;

    /** @param message the key and why it is refused */
    public InvalidKeyException(String message) {
        super("ZARR-KEY", message);
    }
}
