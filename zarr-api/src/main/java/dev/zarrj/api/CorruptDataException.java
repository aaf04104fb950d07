package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * Encoded data could not be decoded: truncated, corrupt, of the wrong size, or failing a checksum.
 *
 * <p>Codecs throw it without knowing the store key; the codec pipeline rethrows it as a
 * {@link ChunkDecodeException} that names the key.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public class CorruptDataException extends ZarrException {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong with the data (sizes found and expected where known) */
    public CorruptDataException(String message) {
        this(message, null);
    }

    /** As {@link #CorruptDataException(String)}, with a cause. */
    public CorruptDataException(String message, Throwable cause) {
        super("ZARR-CORRUPT", message, cause);
    }

    /** Protected constructor for subclasses that use their own code. */
    protected CorruptDataException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
