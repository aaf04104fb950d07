package dev.zarrj.conformance.vectors;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Locates the test vectors that other implementations wrote, kept outside the repository: the
 * directory named by the system property or environment variable {@code ZARRJ_VECTORS}, else the
 * first {@code shared/vectors} (holding a {@code MANIFEST.json}) found walking up from the working
 * directory. Tests that read them skip with {@link #ABSENT} when there is none.
 *
 * @since 0.17
 */
@API(status = EXPERIMENTAL, since = "0.17")
public final class SharedVectors {
    /** Why tests that read the shared vectors are skipped when {@link #root()} is empty. */
    public static final String ABSENT = "shared test vectors not found: no shared/vectors/MANIFEST.json above the"
            + " working directory, and ZARRJ_VECTORS not set";

    private SharedVectors() {}

    /** The vectors' root directory, when present. */
    public static Optional<Path> root() {
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
