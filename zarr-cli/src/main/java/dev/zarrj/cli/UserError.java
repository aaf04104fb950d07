package dev.zarrj.cli;

/** A mistake on the command line (bad URI, path, region, option): one line, exit status 2. */
final class UserError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UserError(String message) {
        super(message);
    }

    UserError(String message, Throwable cause) {
        super(message, cause);
    }
}
