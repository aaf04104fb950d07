package dev.zarrj.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Programs some tests compare zarrj with: zarr-python 2 ({@code /usr/bin/python3} with Debian's
 * python3-zarr) and zarrita (Node, {@code interop/zarrita} after {@code npm ci}). Each lookup says
 * why a program is missing, for the test to skip with.
 */
final class ExternalTools {
    static final String PYTHON = "/usr/bin/python3";

    private ExternalTools() {}

    record Result(int exit, String out, String err) {}

    /** Runs a command to its end (at most 5 minutes), with both outputs. */
    static Result run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> {
            try {
                return p.getErrorStream().readAllBytes();
            } catch (IOException e) {
                return new byte[0];
            }
        });
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in 300 s");
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8),
                new String(err.join(), StandardCharsets.UTF_8));
    }

    /** Why zarr-python 2 cannot run here, or empty when it can. */
    static Optional<String> pythonZarr2Missing() {
        if (!Files.isExecutable(Path.of(PYTHON))) {
            return Optional.of(PYTHON + " is missing");
        }
        try {
            Result r = run(List.of(PYTHON, "-c", "import zarr, numcodecs; print(zarr.__version__)"));
            if (r.exit() != 0) {
                return Optional.of(PYTHON + " lacks zarr-python (Debian: apt-get install python3-zarr)");
            }
            return r.out().strip().startsWith("2.") ? Optional.empty()
                    : Optional.of(PYTHON + " has zarr-python " + r.out().strip() + ", not 2");
        } catch (IOException e) {
            return Optional.of(PYTHON + " does not run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /** Why zarrita cannot run here (no Node, or interop/zarrita without its packages), or empty. */
    static Optional<String> zarritaMissing() {
        Optional<Path> dir = repoFile("interop/zarrita/package.json").map(Path::getParent);
        if (dir.isEmpty()) {
            return Optional.of("interop/zarrita not found above the working directory");
        }
        if (!Files.isDirectory(dir.get().resolve("node_modules").resolve("zarrita"))) {
            return Optional.of("interop/zarrita has no node_modules (run npm ci there)");
        }
        try {
            return run(List.of("node", "--version")).exit() == 0 ? Optional.empty()
                    : Optional.of("node does not run");
        } catch (IOException e) {
            return Optional.of("node is not installed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /** A file of the repository, found above the working directory by its path there. */
    static Optional<Path> repoFile(String relative) {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path f = d.resolve(relative);
            if (Files.exists(f)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
