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
 * Seeded mutations of zip archives holding a Zarr hierarchy ({@link ZipFuzz}): reading each through
 * {@link ZipStores#open} and {@code Zarr} either returns the values written or throws a
 * {@code ZarrException}; a value read whole is never silently different.
 */
class ZipFuzzTest {
    private static final int CASES = 2000;

    @TempDir
    Path tmp;

    @Test
    void mutatedArchivesReadCorrectlyOrFailWithAZarrException() throws Exception {
        Map<String, Integer> stats = new TreeMap<>();
        List<String> failures = ZipFuzz.run(ZipFuzz.bases(tmp, false), 22, CASES, tmp, stats, 5);
        assertEquals(List.of(), failures, String.join("\n\n", failures));
        assertEquals(CASES, stats.get("cases"));
        // The mutations reach past open: archives open, values are read and refused.
        assertTrue(stats.getOrDefault("opened", 0) > CASES / 4, stats.toString());
        assertTrue(stats.getOrDefault("values read", 0) > CASES, stats.toString());
        assertTrue(stats.getOrDefault("values refused", 0) > 0, stats.toString());
        assertTrue(stats.getOrDefault("arrays read", 0) > CASES / 4, stats.toString());
    }
}
