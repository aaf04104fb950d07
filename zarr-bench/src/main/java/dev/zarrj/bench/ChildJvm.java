package dev.zarrj.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@link ChildMain} in a JVM of its own: the same java binary, the same module path (or
 * class path) as this one, and a heap limit of its own.
 */
final class ChildJvm {
    private static final String MAIN = "dev.zarrj.bench.ChildMain";
    private static final long TIMEOUT_MINUTES = 30;

    private ChildJvm() {}

    /** What one child reported: its row, or an error (and whether it ran out of memory). */
    record Outcome(Row row, String error, boolean oom) {}

    /**
     * The java command and the path arguments that start a JVM with this one's modules, or why
     * that cannot be done.
     */
    static Result<List<String>> launcher() {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String p : new String[] {"jna.library.path", "jna.boot.library.path"}) {
            if (System.getProperty(p) != null) {
                cmd.add("-D" + p + "=" + System.getProperty(p));
            }
        }
        String modulePath = System.getProperty("jdk.module.path");
        String classPath = System.getProperty("java.class.path");
        if (ChildMain.class.getModule().isNamed()) {
            if (modulePath == null || modulePath.isBlank()) {
                return Result.failure("this JVM has no module path to give a child JVM");
            }
            cmd.add("-p");
            cmd.add(modulePath);
            cmd.add("-m");
            cmd.add(ChildMain.class.getModule().getName() + "/" + MAIN);
        } else {
            if (classPath == null || classPath.isBlank()) {
                return Result.failure("this JVM has no class path to give a child JVM");
            }
            cmd.add("-cp");
            cmd.add(classPath);
            cmd.add(MAIN);
        }
        return Result.of(cmd);
    }

    /** A value or the reason there is none. */
    record Result<T>(T value, String problem) {
        static <T> Result<T> of(T value) {
            return new Result<>(value, null);
        }

        static <T> Result<T> failure(String problem) {
            return new Result<>(null, problem);
        }
    }

    /** Runs one operation in a child JVM with {@code -Xmx<heapMib>m}; its standard error goes to the log. */
    static Outcome run(List<String> launcher, VolumeBench.Spec spec, String op, Path dir, int threads, int heapMib,
                       Log log) throws IOException, InterruptedException {
        return run(launcher, List.of(spec.toJson().toString(), op, dir.toAbsolutePath().toString(), String.valueOf(threads)),
                heapMib, log);
    }

    /** Runs {@link ChildMain} with {@code args} in a child JVM with {@code -Xmx<heapMib>m}; its standard error goes to the log. */
    static Outcome run(List<String> launcher, List<String> args, int heapMib, Log log) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(launcher.get(0));
        cmd.add("-Xmx" + heapMib + "m");
        cmd.addAll(launcher.subList(1, launcher.size()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        // Interrupted (Ctrl-C), this JVM stops its child rather than leave it running.
        Thread stop = new Thread(p::destroyForcibly, "bench-child-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        try {
            return await(p, log);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stop);
            } catch (IllegalStateException e) {
                // already shutting down: the hook runs
            }
        }
    }

    private static Outcome await(Process p, Log log) throws IOException, InterruptedException {
        ProcessLines.Result out = ProcessLines.read(p, log, "child", "bench-child-stderr");
        String last = out.lastJson();
        if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return new Outcome(null, "the child JVM did not finish within " + TIMEOUT_MINUTES + " minutes", false);
        }
        out.stderrPump().join(5000);
        int code = p.exitValue();
        if (last == null) {
            return new Outcome(null, "the child JVM exited with status " + code + " without a result", false);
        }
        JsonNode n = new ObjectMapper().readTree(last);
        if (n.has("error")) {
            return new Outcome(null, n.get("error").asText(), n.path("oom").asBoolean());
        }
        if (code != 0) {
            return new Outcome(null, "the child JVM exited with status " + code, false);
        }
        return new Outcome(Row.fromJson(n), null, false);
    }
}
