package dev.zarrj.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A value was replaced or erased while it was being read in several ranged requests, so that the
 * ranges read so far and the ones still to read would come from different versions of it
 * (a shard's index from one, its inner chunks from another). Thrown by a
 * {@link dev.zarrj.api.store.RangeReader} that can tell; zarrj then starts the read of that
 * chunk or shard over, a bounded number of times.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public class ValueChangedException extends StoreException {
    private static final long serialVersionUID = 1L;

    /** @param message which store and key changed, and how the store noticed */
    public ValueChangedException(String message, Throwable cause) {
        super("ZARR-STORE-CHANGED", message, cause);
    }
}
