package dev.zarrj.cli;

import dev.zarrj.conformance.runner.ConformanceRunner;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code zarr conformance}: the conformance kit against every installed provider and plugin. */
@Command(name = "conformance",
        footerHeading = "%nExamples:%n",
        footer = {"  zarr conformance",
                "  zarr conformance --plugin-path plugins/ --no-vectors"}, mixinStandardHelpOptions = true,
        description = "Run the conformance kit's contracts against every provider found (with --plugin-path, "
                + "the plugin jars in their own layer) and verify the kit's vectors. One line per rule: PASS, "
                + "FAIL with the reason, SKIP with the reason; then 'N passed, M failed'. Exit 1 on any failure.")
final class ConformanceCommand implements Callable<Integer> {
    @ParentCommand
    ZarrCli root;

    @Option(names = "--no-vectors", description = "Skip the kit's test vectors.")
    boolean noVectors;

    @Override
    public Integer call() {
        int failures = new ConformanceRunner(root.zarr().registry(), root.out()).run(!noVectors);
        if (failures > 0) {
            throw new ZarrCli.CheckFailed(failures + " conformance rule(s) failed");
        }
        return 0;
    }
}
