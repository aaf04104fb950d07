package dev.zarrj.fuzz.runner;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bounded fuzz run of {@code mvn verify} (failsafe, after surefire has replayed every committed
 * corpus): every {@code @FuzzTest} of the module, a few seconds each, in child JVMs. A finding, or a
 * driver that does not fuzz at all (its native library failing to load, say), fails the build.
 * See {@link FuzzRunner} for the {@code zarrj.fuzz.*} properties and {@code bin/zarr-fuzz} for long runs.
 */
class FuzzRunIT {
    @Test
    void everyTargetFuzzesWithoutAFinding() throws Exception {
        String classPath = System.getProperty("java.class.path");
        assertTrue(Arrays.stream(classPath.split(File.pathSeparator)).anyMatch(e -> e.contains("jazzer")),
                "the class path of the fuzz children must hold Jazzer (failsafe's useManifestOnlyJar=false): " + classPath);
        FuzzRunner.Settings settings = FuzzRunner.Settings.fromSystemProperties();
        FuzzRunner runner = new FuzzRunner(Path.of(System.getProperty("basedir", ".")), classPath, settings);
        List<FuzzRunner.Target> targets = runner.discover();
        assertFalse(targets.isEmpty(), "no @FuzzTest method matches zarrj.fuzz.only='" + settings.only() + "'");
        System.out.println("zarr-fuzz: fuzzing " + targets.size() + " targets, " + settings.budget() + " ...");
        List<FuzzRunner.Result> results = runner.run(targets);
        System.out.print(runner.summary(results));
        if (results.stream().anyMatch(r -> !r.ok())) {
            String report = runner.failures(results);
            System.out.println(report);
            fail("fuzzing found a problem (summary in target/fuzz-summary.txt):" + report);
        }
    }
}
