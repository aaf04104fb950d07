package dev.zarrj.conformance.vectors;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The outcome of verifying one array of a manifest.
 *
 * @param path     the array's path in the manifest
 * @param status   passed, failed, or skipped
 * @param reason   for a failure, what was wrong; for a skip, why (naming the missing extension);
 *                 empty for a pass; never null
 * @param mismatch the first element that differs, when the failure is a wrong value
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record VectorResult(String path, Status status, String reason, Optional<Mismatch> mismatch) {
    /** Passed, failed or skipped. */
    public enum Status {
        /** Every check passed. */
        PASS,
        /** A check failed: see the reason. */
        FAIL,
        /** Not verifiable here, for example because an extension it needs is not installed. */
        SKIP
    }

    public VectorResult {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(mismatch, "mismatch");
    }

    /**
     * The first element whose value differs.
     *
     * @param element  its position in C order
     * @param index    its index in the array
     * @param expected the manifest's value, in manifest form
     * @param got      the value read, in manifest form
     */
    public record Mismatch(long element, long[] index, String expected, String got) {
        public Mismatch {
            index = index.clone();
        }

        @Override
        public long[] index() {
            return index.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Mismatch m && element == m.element && Arrays.equals(index, m.index)
                    && expected.equals(m.expected) && got.equals(m.got);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(element) * 31 + Arrays.hashCode(index);
        }

        @Override
        public String toString() {
            return "element " + element + " " + Arrays.toString(index) + ": expected " + expected + ", got " + got;
        }
    }

    static VectorResult pass(String path) {
        return new VectorResult(path, Status.PASS, "", Optional.empty());
    }

    static VectorResult fail(String path, String reason) {
        return new VectorResult(path, Status.FAIL, reason, Optional.empty());
    }

    static VectorResult fail(String path, Mismatch m) {
        return new VectorResult(path, Status.FAIL, m.toString(), Optional.of(m));
    }

    static VectorResult skip(String path, String reason) {
        return new VectorResult(path, Status.SKIP, reason, Optional.empty());
    }

    /** One line for a report: {@code PASS path}, {@code FAIL path: reason}, {@code SKIP path: reason}. */
    public String line() {
        return reason.isEmpty() ? status + " " + path : status + " " + path + ": " + reason;
    }

    /**
     * The closing line of a report, {@code "N passed, M failed"}, followed by {@code ", K skipped"}
     * when some were skipped.
     */
    public static String summary(List<VectorResult> results) {
        long passed = results.stream().filter(r -> r.status == Status.PASS).count();
        long failed = results.stream().filter(r -> r.status == Status.FAIL).count();
        long skipped = results.stream().filter(r -> r.status == Status.SKIP).count();
        return passed + " passed, " + failed + " failed" + (skipped > 0 ? ", " + skipped + " skipped" : "");
    }
}
