package dev.zarrj.bench;

import java.io.PrintWriter;
import java.util.spi.ToolProvider;

/**
 * {@code zarr bench} as the JDK tool {@code zarr-bench}: the {@code zarr} command finds it with
 * {@link ToolProvider#findFirst} when this module is on its module path (or class path), and hands
 * it the arguments after {@code bench}, so that the command needs neither this module nor the
 * native bindings it calls at compile time.
 */
public final class BenchTool implements ToolProvider {
    /** The tool's name, which the {@code zarr} command looks up. */
    public static final String NAME = "zarr-bench";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int run(PrintWriter out, PrintWriter err, String... args) {
        return ZarrBench.run(out, err, args);
    }
}
