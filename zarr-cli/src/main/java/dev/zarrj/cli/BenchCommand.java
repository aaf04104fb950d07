package dev.zarrj.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.spi.ToolProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Unmatched;

/**
 * {@code zarr bench}: runs the benchmark harness of the {@code zarr-bench} module (the JDK tool
 * {@code zarr-bench}, found at run time) with every argument after {@code bench}, its
 * {@code --help} included. The harness calls the native bindings directly for its ceilings; found
 * this way, neither it nor they are needed to build or run the other commands.
 */
@Command(name = "bench",
        footerHeading = "%nExamples:%n",
        footer = {"  zarr bench --size tiny --dir /tmp/bench",
                "  zarr bench --help                    # the harness's own options"},
        description = "Measure zarrj's read and write throughput and latency on the file system store, "
                + "each next to its ceiling (the same work without zarrj) measured in the same run.")
final class BenchCommand implements Callable<Integer> {
    /** The name of the tool that {@code zarr-bench} provides. */
    static final String TOOL = "zarr-bench";

    @ParentCommand
    ZarrCli root;

    @Unmatched
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
        // Elapsed time on standard error while the harness runs; its own lines go above the bar.
        try (Progress progress = root.progress("bench", -1, "runs", true)) {
            PrintWriter out = progress.around(root.out());
            PrintWriter err = progress.around(root.err());
            try {
                return run(ToolProvider.findFirst(TOOL), root.debug, args, out, err);
            } finally {
                out.flush();
                err.flush();
            }
        }
    }

    /** Runs the tool, when there is one, with {@code args} (and {@code --debug} first when asked). */
    static int run(Optional<ToolProvider> tool, boolean debug, List<String> args, PrintWriter out, PrintWriter err) {
        ToolProvider bench = tool.orElseThrow(() -> new UserError(
                "bench needs the zarr-bench module (dev.zarrj.bench) on the module path or class path"));
        List<String> all = new ArrayList<>();
        if (debug) {
            all.add("--debug");
        }
        all.addAll(args);
        return bench.run(out, err, all.toArray(String[]::new));
    }
}
