package dev.zarrj.bench;

/** A workload went wrong (data read back differs, a child JVM failed): exit status 1. */
final class BenchFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BenchFailure(String message) {
        super(message);
    }

    BenchFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
