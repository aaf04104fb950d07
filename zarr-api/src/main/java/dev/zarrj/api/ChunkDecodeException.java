package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A stored chunk could not be decoded. Names the store key; the cause says why (often a
 * {@link CorruptDataException} or {@link ChecksumMismatchException}).
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public class ChunkDecodeException extends CorruptDataException {
    private static final long serialVersionUID = 1L;

    private final String key;

    /**
     * @param key   the store key of the chunk
     * @param cause why decoding failed
     */
    public ChunkDecodeException(String key, Throwable cause) {
        super("ZARR-CHUNK", "chunk '" + key + "' could not be decoded: " + describe(cause), cause);
        this.key = key;
    }

    private static String describe(Throwable cause) {
        if (cause instanceof ZarrException z) {
            String m = z.getMessage();
            return m == null ? z.getClass().getSimpleName() : m;
        }
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    /** The store key of the chunk that failed to decode. */
    public String key() {
        return key;
    }
}
