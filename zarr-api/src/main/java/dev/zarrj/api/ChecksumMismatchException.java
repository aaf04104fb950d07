package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A checksum stored with encoded data does not match the data (for example {@code crc32c}).
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public class ChecksumMismatchException extends CorruptDataException {
    private static final long serialVersionUID = 1L;

    /** @param message which checksum, the stored and the computed value */
    public ChecksumMismatchException(String message) {
        super("ZARR-CHECKSUM", message, null);
    }
}
