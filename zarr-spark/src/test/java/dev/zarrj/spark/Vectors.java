package dev.zarrj.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Locates the shared test vectors written by other implementations: the first
 * {@code shared/vectors/MANIFEST.json} found walking up from the working directory, or the
 * directory named by the system property or environment variable {@code ZARRJ_VECTORS}.
 */
final class Vectors {
    private Vectors() {}

    /** Why vector tests are skipped when {@link #root()} is empty. */
    static final String ABSENT = "shared test vectors not found: no shared/vectors/MANIFEST.json above the working"
            + " directory, and ZARRJ_VECTORS not set";

    static Optional<Path> root() {
        String configured = System.getProperty("ZARRJ_VECTORS", System.getenv("ZARRJ_VECTORS"));
        if (configured != null && Files.isRegularFile(Path.of(configured, "MANIFEST.json"))) {
            return Optional.of(Path.of(configured));
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("vectors");
            if (Files.isRegularFile(candidate.resolve("MANIFEST.json"))) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
