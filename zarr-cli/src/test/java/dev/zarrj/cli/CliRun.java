package dev.zarrj.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** One run of the {@code zarr} command in this JVM, through its entry point: exit status and both outputs. */
record CliRun(int code, String out, String err) {
    /** Runs {@code zarr args…}. */
    static CliRun zarr(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ZarrCli.run(args, out, err);
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
