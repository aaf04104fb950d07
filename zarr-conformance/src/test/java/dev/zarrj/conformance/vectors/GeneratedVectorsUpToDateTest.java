package dev.zarrj.conformance.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The committed vectors are the generator's output as it stands, so that the build never needs
 * Node: the files in the resources are exactly those the manifest lists, and the generator's
 * inputs (script and lock file) are those it recorded. If this fails, run
 * {@code npm ci && node generate.mjs} in {@code zarr-conformance/vectors-gen} and commit the result.
 */
class GeneratedVectorsUpToDateTest {
    private static final Path MODULE = Path.of("").toAbsolutePath();
    private static final Path STORE = MODULE.resolve("src/main/resources" + KitVectors.ZARRITA);
    private static final Path GENERATOR = MODULE.resolve("vectors-gen");
    private static final String RERUN = "; run 'npm ci && node generate.mjs' in zarr-conformance/vectors-gen and commit the result";

    @Test
    void theCommittedStoreIsExactlyWhatTheManifestLists() throws IOException {
        assertTrue(Files.isDirectory(STORE), "tests run in the module's directory: " + STORE);
        Map<String, String> onDisk = new TreeMap<>();
        try (Stream<Path> files = Files.walk(STORE)) {
            for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                String rel = STORE.relativize(p).toString().replace('\\', '/');
                if (!rel.equals("manifest.json")) {
                    onDisk.put(rel, KitVectors.sha256(Files.readAllBytes(p)));
                }
            }
        }
        Map<String, String> listed = new TreeMap<>();
        KitVectors.manifest().files().forEach((k, v) -> listed.put(k, v.sha256()));
        assertFalse(listed.isEmpty());
        assertEquals(listed, onDisk, "the store in the resources differs from the manifest's file list" + RERUN);
    }

    @Test
    void theGeneratorIsUnchangedSinceTheVectorsWereWritten() throws IOException {
        Map<String, String> recorded = KitVectors.manifest().generatorInputs();
        assertEquals(3, recorded.size(), "generate.mjs, zarrita-setup.mjs, package-lock.json");
        for (Map.Entry<String, String> e : recorded.entrySet()) {
            String now = KitVectors.sha256(Files.readAllBytes(GENERATOR.resolve(e.getKey())));
            assertEquals(e.getValue(), now, "vectors-gen/" + e.getKey() + " changed since the vectors were generated" + RERUN);
        }
    }
}
