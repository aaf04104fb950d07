package dev.zarrj.bench;

/** A mistake on the command line (a bad option value): one line, exit status 2. */
final class UsageError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageError(String message) {
        super(message);
    }
}
