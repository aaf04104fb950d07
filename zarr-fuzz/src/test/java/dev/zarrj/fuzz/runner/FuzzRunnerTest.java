package dev.zarrj.fuzz.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** How the runner reads the driver's output and decides that a target failed. */
class FuzzRunnerTest {
    private static final FuzzRunner.Target TARGET = new FuzzRunner.Target(FuzzRunnerTest.class, "m");

    @Test
    void readsTheExecutedUnitsOfTheFinalStatistics() {
        String out = "#4096\tpulse  cov: 1\nDone 4236 runs in 11 second(s)\nstat::number_of_executed_units: 4236\n"
                + "stat::average_exec_per_sec:     385\n";
        assertEquals(4236, FuzzRunner.executions(out));
        assertEquals(77, FuzzRunner.executions("Done 77 runs in 0 second(s)\n"));
        assertEquals(0, FuzzRunner.executions("Exception in thread \"main\" java.lang.UnsatisfiedLinkError: no jazzer_driver\n"));
    }

    @Test
    void aDriverThatDidNotFuzzFailsInsteadOfPassingEmpty() {
        // The native driver failing to load ends the child with an error and no execution.
        assertFalse(new FuzzRunner.Result(TARGET, 0, 0, 1.0, 1, List.of(), "UnsatisfiedLinkError", Path.of("x.log")).ok());
        assertFalse(new FuzzRunner.Result(TARGET, 0, 0, 1.0, 0, List.of(), "", Path.of("x.log")).ok());
        assertFalse(new FuzzRunner.Result(TARGET, 10, 5, 1.0, 0, List.of(Path.of("crash-1")), "", Path.of("x.log")).ok());
        assertTrue(new FuzzRunner.Result(TARGET, 10, 5, 1.0, 0, List.of(), "", Path.of("x.log")).ok());
    }

    @Test
    void theExcerptStartsAtTheFindingAndStopsBeforeTheStatistics() {
        String out = "INFO: x\n#1 INITED\n== Java Exception: java.lang.IllegalStateException: boom\n\tat a.B.c(B.java:6)\n"
                + "Base64: WnE=\nstat::number_of_executed_units: 3\n";
        String excerpt = FuzzRunner.excerpt(out);
        assertTrue(excerpt.startsWith("== Java Exception: java.lang.IllegalStateException: boom"), excerpt);
        assertTrue(excerpt.endsWith("Base64: WnE="), excerpt);
    }

    @Test
    void theSummaryHasARowPerTargetAndMarksFailures() {
        FuzzRunner runner = new FuzzRunner(Path.of("."), "", new FuzzRunner.Settings(3, 0, Pattern.compile(".*"), 2, 10, 1536, "256m"));
        String table = runner.summary(List.of(
                new FuzzRunner.Result(TARGET, 1234, 411, 3.0, 0, List.of(), "", Path.of("x.log")),
                new FuzzRunner.Result(new FuzzRunner.Target(FuzzRunnerTest.class, "n"), 0, 0, 1.0, 1, List.of(), "", Path.of("y.log"))));
        assertTrue(table.contains("FuzzRunnerTest.m") && table.contains("1234") && table.contains("411"), table);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("FuzzRunnerTest.n") && l.endsWith("FAILED")), table);
        assertTrue(table.contains("1 target(s) failed"), table);
    }
}
