package dev.zarrj.reliability.differential;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Runs {@code interop/zarrita/differential.mjs} with node: zarrita, pinned in the repository's npm harness. */
final class Zarrita {
    /** What one run printed and how it ended. */
    record Run(int exitCode, List<String> lines) {}

    private final Path harness;

    private Zarrita(Path harness) {
        this.harness = harness;
    }

    /**
     * The harness, or why it cannot run: node missing from PATH, or
     * {@code interop/zarrita/node_modules} not installed ({@code npm ci} there).
     */
    static Zarrita find(StringBuilder whyNot) {
        Path dir = Path.of("").toAbsolutePath();
        Optional<Path> harness = Optional.empty();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("interop/zarrita/differential.mjs"))) {
                harness = Optional.of(p.resolve("interop/zarrita"));
                break;
            }
        }
        if (harness.isEmpty()) {
            whyNot.append("interop/zarrita/differential.mjs not found above ").append(dir);
            return null;
        }
        if (!Files.isDirectory(harness.get().resolve("node_modules/zarrita"))) {
            whyNot.append(harness.get().resolve("node_modules")).append(" is missing: run 'npm ci' in interop/zarrita");
            return null;
        }
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                whyNot.append("'node --version' failed");
                return null;
            }
        } catch (IOException e) {
            whyNot.append("node is not on PATH (").append(e.getMessage()).append(")");
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            whyNot.append("interrupted");
            return null;
        }
        return new Zarrita(harness.get());
    }

    /** {@code node differential.mjs ARGS...} in the harness folder; output lines in order. */
    Run run(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("node", "differential.mjs"));
        command.addAll(args);
        Process p = new ProcessBuilder(command).directory(harness.toFile()).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("node " + String.join(" ", command) + " did not finish");
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8).lines().toList());
    }

    /** The command that replays a run by hand, from the repository's root. */
    static String commandLine(List<String> args) {
        return "(cd interop/zarrita && node differential.mjs " + String.join(" ", args) + ")";
    }
}
