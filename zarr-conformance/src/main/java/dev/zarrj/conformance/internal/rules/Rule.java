package dev.zarrj.conformance.internal.rules;

import java.util.function.Supplier;
import org.opentest4j.AssertionFailedError;

/**
 * Runs the body of one contract rule so that every way it can fail — a failed assertion, or any
 * exception the implementation throws — surfaces as one {@link AssertionFailedError} whose message
 * starts with the rule id, says the rule, and names the implementation under test.
 */
public final class Rule {
    private Rule() {}

    /** A rule's checks; may throw anything. */
    @FunctionalInterface
    public interface Body {
        void run() throws Throwable;
    }

    /**
     * Runs {@code body}; a failure becomes an {@link AssertionFailedError} reading
     * {@code "<id> violated by <subject>: <statement>: <detail>"}.
     */
    public static void check(String id, String statement, String subject, Body body) {
        check(id, statement, () -> subject, body);
    }

    /** As {@link #check(String, String, String, Body)}, naming the subject as it is when the rule fails. */
    public static void check(String id, String statement, Supplier<String> subject, Body body) {
        try {
            body.run();
        } catch (AssertionFailedError e) {
            throw new AssertionFailedError(header(id, statement, subject.get()) + e.getMessage(), e);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionFailedError(header(id, statement, subject.get()) + "threw " + t, t);
        }
    }

    /** A failure of a rule, for checks written by hand. */
    public static AssertionFailedError fail(String detail) {
        return new AssertionFailedError(detail);
    }

    private static String header(String id, String statement, String subject) {
        return id + " violated by " + subject + ": " + statement + ": ";
    }

    /**
     * Prints that an optional rule is not claimed, so that the report shows why it ran no test:
     * {@code "optional_S22 not claimed by memory:1f: skipped"}.
     */
    public static void notClaimed(String levelAndId, String subject) {
        System.out.println(levelAndId + " not claimed by " + subject + ": skipped");
    }

    /**
     * Prints that a rule gated on a capability does not apply, and why:
     * {@code "required_S03 not applicable to zip:/a.zip: not writable"}.
     */
    public static void notApplicable(String levelAndId, String subject, String reason) {
        System.out.println(levelAndId + " not applicable to " + subject + ": " + reason);
    }
}
