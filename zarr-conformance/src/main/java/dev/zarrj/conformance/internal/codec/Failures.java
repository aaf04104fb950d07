package dev.zarrj.conformance.internal.codec;

import java.util.ArrayList;
import java.util.List;
import org.opentest4j.AssertionFailedError;

/**
 * The outcome of one rule over many cases: each case is checked on its own, and the rule fails
 * once at the end with a message that starts with the rule id and lists the first failures.
 */
public final class Failures {
    private static final int SHOWN = 12;

    /** A broken expectation inside a rule, reported with its message alone. */
    public static final class Violation extends AssertionError {
        private static final long serialVersionUID = 1L;

        public Violation(String message) {
            super(message);
        }
    }

    /** A check that may throw anything. */
    @FunctionalInterface
    public interface Check {
        void run() throws Throwable;
    }

    private final String id;
    private final String rule;
    private final List<String> messages = new ArrayList<>();
    private Throwable firstCause;
    private int checked;
    private int failed;

    /**
     * @param id   the rule id, for example {@code BB01}
     * @param rule the rule in a few words
     */
    public Failures(String id, String rule) {
        this.id = id;
        this.rule = rule;
    }

    /** Fails with a {@link Violation}. */
    public static Violation violation(String message) {
        return new Violation(message);
    }

    /** An exception as "its class: its message". */
    public static String describe(Throwable e) {
        return e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** Runs one case's check (without holding a lock, so checks may run on several threads) and records its failure. */
    public void check(String label, Check check) {
        synchronized (this) {
            checked++;
        }
        try {
            check.run();
        } catch (Violation v) {
            record(label, v.getMessage(), v.getCause());
        } catch (Throwable e) {
            record(label, "threw " + describe(e), e);
        }
    }

    /** Records a failure of one case. */
    public synchronized void fail(String label, String message, Throwable cause) {
        checked++;
        record(label, message, cause);
    }

    private synchronized void record(String label, String message, Throwable cause) {
        failed++;
        if (messages.size() < SHOWN) {
            messages.add(label + ": " + message);
        }
        if (firstCause == null && cause != null) {
            firstCause = cause;
        }
    }

    /** How many cases were checked. */
    public synchronized int checked() {
        return checked;
    }

    /**
     * Fails the rule when any case failed.
     *
     * @throws AssertionFailedError starting with the rule id, listing the first failures
     */
    public synchronized void finish() {
        if (failed == 0) {
            return;
        }
        StringBuilder sb = new StringBuilder(id).append(" (").append(rule).append(") failed for ").append(failed)
                .append(" of ").append(checked).append(checked == 1 ? " case" : " cases");
        if (failed > messages.size()) {
            sb.append(", the first ").append(messages.size()).append(" shown");
        }
        sb.append(':');
        for (String m : messages) {
            sb.append("\n  - ").append(m);
        }
        throw new AssertionFailedError(sb.toString(), firstCause);
    }
}
