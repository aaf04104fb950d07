package dev.zarrj.cli;

import static dev.zarrj.cli.CliRun.zarr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code zarr bench} hands every argument after {@code bench} to the zarr-bench module's tool,
 * found at run time (it is on this module's test path as on bin/zarr's), and reports its
 * errors and exit status as the other commands do. What the harness measures is tested in zarr-bench.
 */
class BenchDispatchTest {
    @TempDir
    Path tmp;

    @Test
    void helpListsBenchAndBenchHelpIsTheHarnesses() {
        CliRun top = zarr("--help");
        assertEquals(0, top.code(), top.err());
        assertTrue(top.out().lines().anyMatch(l -> l.strip().startsWith("bench ")), top.out());
        CliRun help = zarr("bench", "--help");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().startsWith("Usage: zarr bench "), help.out());
        assertTrue(help.out().contains("--quick") && help.out().contains("--threads"), help.out());
    }

    @Test
    void argumentsReachTheHarnessInOrder() throws Exception {
        Path dir = tmp.resolve("bench");
        CliRun r = zarr("bench", "--size", "tiny", "--json", "--dir", dir.toString(), "--only", "float32/bytes$");
        assertEquals(0, r.code(), r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertEquals(dir.toAbsolutePath().toString(), doc.get("machine").get("dir").asText());
        assertTrue(doc.get("workloads").size() > 0, r.out());
        doc.get("workloads").forEach(w -> assertEquals("float32/bytes", w.get("name").asText(), w.toString()));
    }

    @Test
    void badOptionsAreOneLineUserErrorsAndDebugShowsTheTrace() {
        CliRun bad = zarr("bench", "--threads", "0");
        assertEquals(2, bad.code());
        assertEquals("zarr: --threads 0: must be at least 1", bad.err().strip());
        CliRun debug = zarr("--debug", "bench", "--threads", "0");
        assertEquals(2, debug.code());
        assertTrue(debug.err().startsWith("zarr: --threads 0: must be at least 1") && debug.err().contains("dev.zarrj.bench.UsageError: --threads 0"),
                debug.err());
    }

    @Test
    void withoutTheHarnessBenchSaysWhichModuleToAdd() {
        UserError e = assertThrows(UserError.class, () -> BenchCommand.run(Optional.empty(), false, List.of("--quick"), null, null));
        assertTrue(e.getMessage().contains("zarr-bench"), e.getMessage());
    }
}
