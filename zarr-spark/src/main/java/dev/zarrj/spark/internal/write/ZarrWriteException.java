package dev.zarrj.spark.internal.write;

import dev.zarrj.api.ZarrException;

/**
 * A write that cannot proceed: an option, a column or a value that does not fit the array, or a
 * store that changed under the job. The message names the option, column, row or key.
 */
public final class ZarrWriteException extends ZarrException {
    private static final long serialVersionUID = 1L;

    /** The code of every zarr-spark write error. */
    public static final String CODE = "ZARR-SPARK-WRITE";

    public ZarrWriteException(String message) {
        super(CODE, message);
    }

    public ZarrWriteException(String message, Throwable cause) {
        super(CODE, message, cause);
    }
}
