package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A write was attempted on a store, array or group that is read-only (a read-only store, or an
 * array opened with an extension that was skipped because of {@code "must_understand": false}).
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public class ReadOnlyException extends ZarrException {
    private static final long serialVersionUID = 1L;

    /** @param message what was refused and why it is read-only */
    public ReadOnlyException(String message) {
        super("ZARR-READONLY", message);
    }
}
