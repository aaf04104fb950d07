package dev.zarrj.api;

/** No array or group exists at a hierarchy path (there is no {@code zarr.json} for it). */
public class NodeNotFoundException extends ZarrException {
    private static final long serialVersionUID = 1L;

    /** @param message the path and the store */
    public NodeNotFoundException(String message) {
        super("ZARR-NOT-FOUND", message);
    }
}
