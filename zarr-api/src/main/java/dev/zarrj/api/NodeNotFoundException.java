package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * No array or group exists at a hierarchy path (there is no {@code zarr.json} for it).
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public class NodeNotFoundException extends ZarrException {
    private static final long serialVersionUID = 1L;

    /** @param message the path and the store */
    public NodeNotFoundException(String message) {
        super("ZARR-NOT-FOUND", message);
    }
}
