package dev.zarrj.api;

/**
 * A write was attempted on a store, array or group that is read-only (a read-only store, or an
 * array opened with an extension that was skipped because of {@code "must_understand": false}).
 */
public class ReadOnlyException extends ZarrException {
    private static final long serialVersionUID = 1L;

    /** @param message what was refused and why it is read-only */
    public ReadOnlyException(String message) {
        super("ZARR-READONLY", message);
    }
}
