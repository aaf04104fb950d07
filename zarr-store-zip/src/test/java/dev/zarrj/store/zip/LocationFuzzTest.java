package dev.zarrj.store.zip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random store locations, inner folders, node paths and keys ({@link LocationFuzz}): each
 * opens and reads, or throws a {@code ZarrException}.
 */
class LocationFuzzTest {
    private static final int CASES = 1000;

    @TempDir
    Path tmp;

    @Test
    void randomLocationsPathsAndKeysOnlyEverThrowZarrException() throws Exception {
        Map<String, Integer> stats = new TreeMap<>();
        List<String> failures = LocationFuzz.run(tmp, 22, CASES, stats);
        assertEquals(List.of(), failures.subList(0, Math.min(5, failures.size())), failures.size() + " failures");
        assertEquals(CASES, stats.get("cases"));
        assertTrue(stats.getOrDefault("opened", 0) > CASES / 10, stats.toString());
        assertTrue(stats.getOrDefault("nodes opened", 0) > 0, stats.toString());
    }
}
