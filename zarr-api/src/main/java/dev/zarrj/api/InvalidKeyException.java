package dev.zarrj.api;

/**
 * A store key or prefix is not allowed: empty segments, {@code .} or {@code ..} segments, a leading
 * or trailing {@code /}, a backslash or a NUL. Keys that could leave a store's root never reach it.
 */
public class InvalidKeyException extends ZarrException {
    private static final long serialVersionUID = 1L;

    /** @param message the key and why it is refused */
    public InvalidKeyException(String message) {
        super("ZARR-KEY", message);
    }
}
