package dev.zarrj.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * An operation needs more memory in one piece than the Java heap can give: a chunk or a region
 * whose metadata and stored bytes are valid but too large for this JVM's maximum heap
 * ({@code -Xmx}).
 *
 * <p>zarrj compares such sizes with the heap before it allocates, and turns an
 * {@link OutOfMemoryError} at its allocation points into this exception, so that a read too large
 * for the heap fails naming what was read and what it needed instead of ending the JVM. Read a
 * smaller region, or give the JVM more heap.
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public class InsufficientMemoryException extends ZarrException {
    private static final long serialVersionUID = 1L;

    private final long bytesNeeded;
    private final long heapMax;

    /**
     * An exception for this JVM's maximum heap ({@link Runtime#maxMemory()}).
     *
     * @param what        what needed the memory, for example {@code "chunk 'a/c/0' of array '/a'"}
     * @param bytesNeeded the bytes it needed in one piece
     * @param cause       the {@link OutOfMemoryError}, or null when the size was refused before allocating
     */
    public InsufficientMemoryException(String what, long bytesNeeded, Throwable cause) {
        this(what, bytesNeeded, Runtime.getRuntime().maxMemory(), cause);
    }

    /** As {@link #InsufficientMemoryException(String, long, Throwable)}, for a given maximum heap. */
    public InsufficientMemoryException(String what, long bytesNeeded, long heapMax, Throwable cause) {
        super("ZARR-MEMORY", what + " needs " + bytes(bytesNeeded) + " in one piece, "
                + (bytesNeeded > heapMax ? "more than" : "more than is free in") + " the Java heap of at most "
                + bytes(heapMax) + "; read a smaller region, or give the JVM more heap (-Xmx)", cause);
        this.bytesNeeded = bytesNeeded;
        this.heapMax = heapMax;
    }

    /** The bytes that were needed in one piece. */
    public long bytesNeeded() {
        return bytesNeeded;
    }

    /** The JVM's maximum heap in bytes when this was thrown ({@link Runtime#maxMemory()}). */
    public long heapMax() {
        return heapMax;
    }

    /** This error with another description of what needed the memory, keeping the sizes and cause. */
    public InsufficientMemoryException reading(String what) {
        return new InsufficientMemoryException(what, bytesNeeded, heapMax, getCause());
    }

    private static String bytes(long n) {
        if (n < 1L << 20) {
            return n + " bytes";
        }
        String[] units = {"MiB", "GiB", "TiB", "PiB", "EiB"};
        double v = n / (double) (1L << 20);
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return n + " bytes (" + String.format(Locale.ROOT, "%.1f", v) + " " + units[u] + ")";
    }
}
