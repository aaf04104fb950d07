package dev.zarrj.bench;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * The entry point of {@code zarr bench}: {@code bin/zarr bench ARGS} reaches it through the
 * {@code zarr-bench} tool ({@link BenchTool}), and {@code java -m dev.zarrj.bench/dev.zarrj.bench.ZarrBench} runs it alone.
 *
 * <p>Exit status: 0, 1 when a workload failed, 2 for a bad option (printed as one line
 * {@code zarr: ...}, as the {@code zarr} command prints its user errors).
 */
public final class ZarrBench {
    private ZarrBench() {}

    /** Runs {@code zarr bench args…} with these outputs and returns the exit status. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        BenchCommand bench = new BenchCommand();
        CommandLine cl = new CommandLine(bench);
        cl.getCommandSpec().name("zarr bench");
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            line.getErr().println("zarr: " + message.replaceAll("\\p{Cntrl}", " "));
            if (bench.debug) {
                e.printStackTrace(line.getErr());
            }
            line.getErr().flush();
            return 2;
        });
        cl.setParameterExceptionHandler((e, a) -> {
            e.getCommandLine().getErr().println("zarr: " + String.valueOf(e.getMessage()).replaceAll("\\p{Cntrl}", " "));
            e.getCommandLine().getErr().println("Try 'zarr bench --help' for usage.");
            return 2;
        });
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        System.exit(run(out, err, args));
    }
}
