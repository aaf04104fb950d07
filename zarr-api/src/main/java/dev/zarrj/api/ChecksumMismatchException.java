package dev.zarrj.api;

/** A checksum stored with encoded data does not match the data (for example {@code crc32c}). */
public class ChecksumMismatchException extends CorruptDataException {
    private static final long serialVersionUID = 1L;

    /** @param message which checksum, the stored and the computed value */
    public ChecksumMismatchException(String message) {
        super("ZARR-CHECKSUM", message, null);
    }
}
