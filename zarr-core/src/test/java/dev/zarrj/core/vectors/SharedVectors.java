package dev.zarrj.core.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Locates the shared test vectors written by other implementations: {@code ../shared/vectors}
 * beside the repository (found by walking up from the working directory), or the directory
 * named by the system property or environment variable {@code ZARRJ_VECTORS}.
 */
public final class SharedVectors {
    private SharedVectors() {}

    /** The vectors' root, when present. */
    public static Optional<Path> root() {
        String configured = System.getProperty("ZARRJ_VECTORS", System.getenv("ZARRJ_VECTORS"));
        if (configured != null && Files.isRegularFile(Path.of(configured, "MANIFEST.json"))) {
            return Optional.of(Path.of(configured));
        }
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            Path candidate = dir.resolve("shared").resolve("vectors");
            if (Files.isRegularFile(candidate.resolve("MANIFEST.json"))) {
                return Optional.of(candidate);
            }
            dir = dir.getParent();
        }
        return Optional.empty();
    }

    /** Why vector tests are skipped when {@link #root()} is empty. */
    public static final String ABSENT = "shared test vectors not found: no shared/vectors/MANIFEST.json beside the "
            + "repository or above the working directory, and ZARRJ_VECTORS not set";

    /** The parsed MANIFEST.json. */
    public static JsonNode manifest(Path root) {
        try {
            return new ObjectMapper().readTree(root.resolve("MANIFEST.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
