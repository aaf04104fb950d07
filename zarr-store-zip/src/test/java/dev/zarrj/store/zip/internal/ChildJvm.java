package dev.zarrj.store.zip.internal;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A JVM of its own running a main class of these tests on the class path: this JVM's module path
 * and class path, and the test classes.
 */
final class ChildJvm implements AutoCloseable {
    final Process process;
    final BufferedReader out;

    private ChildJvm(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static ChildJvm start(Class<?> main, String... args) throws IOException {
        List<String> path = new ArrayList<>();
        for (String p : new String[] {System.getProperty("jdk.module.path"), System.getProperty("java.class.path")}) {
            if (p != null && !p.isBlank()) {
                path.add(p);
            }
        }
        try {
            path.add(Path.of(main.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        } catch (URISyntaxException | RuntimeException e) {
            path.add(Path.of("target", "test-classes").toAbsolutePath().toString());
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", String.join(File.pathSeparator, path), main.getName()));
        cmd.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start());
    }

    /** The next line the child prints, or null at its end. */
    String line() throws IOException {
        return out.readLine();
    }

    /** Closes its standard input and waits for it to end; its exit status. */
    int finish() throws IOException, InterruptedException {
        process.getOutputStream().close();
        return process.waitFor();
    }

    /** Kills it, if it still runs. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
