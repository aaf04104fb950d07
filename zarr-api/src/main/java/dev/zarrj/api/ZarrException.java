package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * The root of every error zarrj reports.
 *
 * <p>Each exception carries a stable {@link #code() code} (for example {@code ZARR-META}) that
 * callers and documentation can refer to, and a message that names what was wrong: the document,
 * JSON field or store key, the offending value, and what is allowed. Subclasses exist where a
 * caller would branch on the kind of failure.
 *
 * <p>Unchecked, like the JDK's {@code UncheckedIOException}: Zarr operations fail for reasons a
 * caller rarely recovers from at the call site.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public class ZarrException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;

    /** Creates an exception with a stable code and a message. */
    public ZarrException(String code, String message) {
        this(code, message, null);
    }

    /** Creates an exception with a stable code, a message and a cause. */
    public ZarrException(String code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /** The stable error code, never null. */
    public String code() {
        return code;
    }

    /** The message without the code prefix. */
    public String detail() {
        return super.getMessage();
    }

    @Override
    public String getMessage() {
        return "[" + code + "] " + super.getMessage();
    }
}
