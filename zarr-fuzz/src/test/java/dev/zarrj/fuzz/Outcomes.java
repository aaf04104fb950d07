package dev.zarrj.fuzz;

import dev.zarrj.api.ZarrException;

/**
 * The property every fuzz target checks: a call on untrusted bytes returns, or throws a
 * {@link ZarrException} whose message names what was wrong. Anything else (a
 * {@code RuntimeException} of another kind, an {@code Error}, an {@code OutOfMemoryError} under the
 * module's small heap) leaves the target and is a finding.
 */
public final class Outcomes {
    private Outcomes() {}

    /** An action on fuzzed input. */
    @FunctionalInterface
    public interface Action {
        void run() throws Exception;
    }

    /**
     * Runs {@code action}; a {@link ZarrException} with a message is an accepted outcome and is
     * returned, {@code null} when the action returned normally.
     *
     * @throws AssertionError when a {@code ZarrException} has no message, or a checked exception
     *     that is not one escapes
     */
    public static ZarrException zarrErrorOrNothing(Action action) {
        try {
            action.run();
            return null;
        } catch (ZarrException e) {
            String message = e.getMessage();
            if (message == null || message.isBlank()) {
                throw new AssertionError("a ZarrException without a message", e);
            }
            return e;
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError("a checked exception that is not a ZarrException: " + e, e);
        }
    }
}
