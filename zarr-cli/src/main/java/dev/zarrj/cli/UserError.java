package dev.zarrj.cli;

/** A mistake on the command line (bad URI, path, region, option): one line, exit status 2. */
public final class UserError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UserError(String message) {
        super(message);
    }

    public UserError(String message, Throwable cause) {
        super(message, cause);
    }
}
