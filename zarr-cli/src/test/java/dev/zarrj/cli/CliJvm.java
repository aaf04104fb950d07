package dev.zarrj.cli;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code zarr} command in a JVM of its own: on this JVM's module path as {@code bin/zarr} runs
 * it ({@link #start}), or on the class path with the test classes, whose
 * {@code META-INF/services} add test-only providers ({@link #startWithTestProviders}).
 */
final class CliJvm {
    private CliJvm() {}

    record Run(int code, String out, String err) {}

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Whether this JVM has a module path or class path to hand on (Surefire gives one). */
    static boolean available() {
        String mp = System.getProperty("jdk.module.path");
        String cp = System.getProperty("java.class.path");
        return (mp != null && !mp.isBlank()) || (cp != null && !cp.isBlank());
    }

    /** Starts {@code zarr args...} as a user runs it: the CLI module on the module path. */
    static Process start(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(java()));
        String mp = System.getProperty("jdk.module.path");
        if (ZarrCli.class.getModule().isNamed() && mp != null && !mp.isBlank()) {
            cmd.addAll(List.of("-p", mp, "-m", "dev.zarrj.cli/" + ZarrCli.class.getName()));
        } else {
            cmd.addAll(List.of("-cp", classPath(), ZarrCli.class.getName()));
        }
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).start();
    }

    /** Starts {@code zarr args...} on the class path, with the test classes and their service files. */
    static Process startWithTestProviders(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(java(), "-cp", classPath(), ZarrCli.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).start();
    }

    private static String classPath() {
        List<String> path = new ArrayList<>();
        try {
            path.add(Path.of(CliJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        } catch (URISyntaxException | RuntimeException e) {
            // no code source: the test classes are on the class path already
        }
        path.add(Path.of("target", "test-classes").toAbsolutePath().toString());
        for (String p : new String[] {System.getProperty("jdk.module.path"), System.getProperty("java.class.path")}) {
            if (p != null && !p.isBlank()) {
                path.add(p);
            }
        }
        return String.join(File.pathSeparator, path);
    }

    /** Waits for a started command and collects its output. */
    static Run finish(Process p) throws IOException, InterruptedException {
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("zarr did not finish: " + err);
        }
        return new Run(p.exitValue(), out, err);
    }
}
