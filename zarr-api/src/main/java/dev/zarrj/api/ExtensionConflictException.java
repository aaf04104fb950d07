package dev.zarrj.api;

/**
 * Two different providers claim the same extension name with the same priority. The message
 * names every claimant with its class, module and jar; raise one provider's priority or remove one.
 */
public class ExtensionConflictException extends ZarrException {
    private static final long serialVersionUID = 1L;

    /** @param message the name and every claimant */
    public ExtensionConflictException(String message) {
        super("ZARR-CONFLICT", message);
    }
}
