package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A store operation failed (I/O error, unreachable resource). Names the store and the key.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public class StoreException extends ZarrException {
    private static final long serialVersionUID = 1L;

    /** @param message what failed, naming the store and key */
    public StoreException(String message, Throwable cause) {
        super("ZARR-STORE", message, cause);
    }

    /** Protected constructor for subclasses that use their own code. */
    protected StoreException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
