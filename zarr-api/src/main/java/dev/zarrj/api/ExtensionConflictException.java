package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * Two different providers claim the same extension name with the same priority. The message
 * names every claimant with its class, module and jar; raise one provider's priority or remove one.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public class ExtensionConflictException extends ZarrException {
    private static final long serialVersionUID = 1L;

    /** @param message the name and every claimant */
    public ExtensionConflictException(String message) {
        super("ZARR-CONFLICT", message);
    }
}
