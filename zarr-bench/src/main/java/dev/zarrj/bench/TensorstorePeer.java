package dev.zarrj.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * tensorstore (Google's C++ array engine, through its Python wheel) as the float32 workloads'
 * peer: {@code bench/tensorstore/bench.py} run by a Python that imports {@code tensorstore} and
 * {@code numpy}, with tensorstore's {@code data_copy_concurrency} and {@code file_io_concurrency}
 * limited to zarrj's threads, its cache off and no fsync. Where no such Python or no script is
 * found, the peer is skipped and {@link #skipped()} says why.
 */
final class TensorstorePeer {
    /** The environment variable naming the Python to use (after {@code --tensorstore-python}). */
    static final String PYTHON_ENV = "ZARR_BENCH_PYTHON";
    static final String SETUP = "bench/tensorstore/setup.sh (python3 -m venv bench/tensorstore/.venv && "
            + "bench/tensorstore/.venv/bin/pip install tensorstore==0.1.85 numpy)";
    private static final String CHECK = "import importlib.metadata as m, tensorstore, numpy; print(m.version('tensorstore'))";
    private static final long CHECK_SECONDS = 120;
    private static final long RUN_MINUTES = 30;

    private final String python;
    private final Path script;
    private final String version;
    private final String skipped;

    private TensorstorePeer(String python, Path script, String version, String skipped) {
        this.python = python;
        this.script = script;
        this.version = version;
        this.skipped = skipped;
    }

    static TensorstorePeer skip(String reason) {
        return new TensorstorePeer(null, null, null, reason);
    }

    /**
     * Finds the script and the Python: {@code option} when given, else {@link #PYTHON_ENV} when
     * set (either alone), else {@code bench/tensorstore/.venv/bin/python} beside the script, then
     * {@code python3} on the PATH; the first that imports tensorstore and numpy.
     */
    static TensorstorePeer find(String option) {
        Optional<Path> script = script();
        if (script.isEmpty()) {
            return skip("bench/tensorstore/bench.py not found (it is in the repository, not the distribution: run "
                    + "bin/zarr bench from a checkout)");
        }
        List<String> pythons = new ArrayList<>();
        String env = System.getenv(PYTHON_ENV);
        if (option != null) {
            pythons.add(option);
        } else if (env != null && !env.isBlank()) {
            pythons.add(env);
        } else {
            Path venv = script.get().getParent().resolve(".venv").resolve("bin").resolve("python");
            if (Files.isExecutable(venv)) {
                pythons.add(venv.toString());
            }
            pythons.add("python3");
        }
        List<String> tried = new ArrayList<>();
        for (String p : pythons) {
            String[] answer = check(p);
            if (answer[0] != null) {
                return new TensorstorePeer(p, script.get(), answer[0], null);
            }
            tried.add(p + " (" + answer[1] + ")");
        }
        String from = option != null ? "--tensorstore-python" : env != null && !env.isBlank() ? PYTHON_ENV
                : "bench/tensorstore/.venv, then python3 on the PATH";
        return skip("no Python with tensorstore and numpy: tried " + String.join(", ", tried) + " [from " + from
                + "]; make one with " + SETUP + ", or name one with --tensorstore-python PATH or " + PYTHON_ENV);
    }

    /** {version, null} when {@code python} imports tensorstore and numpy, else {null, why not}. */
    private static String[] check(String python) {
        Process p;
        try {
            p = new ProcessBuilder(python, "-c", CHECK).redirectErrorStream(true).start();
        } catch (IOException e) {
            return new String[] {null, "cannot run it: " + e.getMessage()};
        }
        try {
            p.getOutputStream().close();
            // Its few lines fit in the pipe: wait first, so that a Python that hangs is given up on.
            if (!p.waitFor(CHECK_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new String[] {null, "no answer within " + CHECK_SECONDS + " s"};
            }
            String out = read(p.getInputStream()).strip();
            if (p.exitValue() != 0) {
                String[] lines = out.split("\n");
                return new String[] {null, lines[lines.length - 1].strip()};
            }
            return new String[] {out.isEmpty() ? "unknown" : out.lines().reduce((a, b) -> b).orElse(out), null};
        } catch (IOException e) {
            p.destroyForcibly();
            return new String[] {null, e.getMessage()};
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return new String[] {null, "interrupted"};
        }
    }

    private static String read(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    /** {@code bench/tensorstore/bench.py} in a folder above this code (the repository), if there. */
    static Optional<Path> script() {
        Set<Path> candidates = new LinkedHashSet<>();
        try {
            Path here = Path.of(TensorstorePeer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path p = here; p != null; p = p.getParent()) {
                candidates.add(p.resolve("bench").resolve("tensorstore"));
            }
        } catch (URISyntaxException | RuntimeException e) {
            // no code source: then the working directory only
        }
        candidates.add(Path.of("bench", "tensorstore").toAbsolutePath());
        for (Path c : candidates) {
            if (Files.isRegularFile(c.resolve("bench.py"))) {
                return Optional.of(c.resolve("bench.py").toAbsolutePath());
            }
        }
        return Optional.empty();
    }

    boolean available() {
        return skipped == null;
    }

    /** Why the peer does not run, or null when it does. */
    String skipped() {
        return skipped;
    }

    String python() {
        return python;
    }

    String version() {
        return version;
    }

    /** The JSON document's {@code tensorstore} object: the Python, version and settings, or the reason it was skipped. */
    ObjectNode toJson(int threads) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        if (!available()) {
            n.put("skipped", skipped);
            return n;
        }
        n.put("version", version);
        n.put("python", python);
        n.put("script", script.toString());
        n.put("data_copy_concurrency", threads);
        n.put("file_io_concurrency", threads);
        n.put("cache_pool_total_bytes_limit", 0);
        n.put("file_io_sync", false);
        return n;
    }

    /**
     * Runs the script with {@code spec} (see bench.py) and returns its {@code ops} object: each
     * op's median {@code seconds} and {@code runs}. Its standard error goes to the log.
     *
     * @throws BenchFailure when it fails (tensorstore could not read zarrj's array, or read other values)
     */
    JsonNode run(ObjectNode spec, String workload, Log log) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(python, script.toString(), spec.toString());
        pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        Process p = pb.start();
        Thread stop = new Thread(p::destroyForcibly, "bench-tensorstore-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        try {
            ProcessLines.Result out = ProcessLines.read(p, log, "tensorstore", "bench-tensorstore-stderr");
            String last = out.lastJson();
            if (!p.waitFor(RUN_MINUTES, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new BenchFailure(workload + ": tensorstore did not finish within " + RUN_MINUTES + " minutes");
            }
            out.stderrPump().join(5000);
            JsonNode n = last == null ? null : new ObjectMapper().readTree(last);
            if (n == null || n.has("error") || p.exitValue() != 0 || !n.has("ops")) {
                throw new BenchFailure(workload + ": tensorstore failed (" + python + " " + script + ", exit status "
                        + p.exitValue() + "): " + (n != null && n.has("error") ? n.get("error").asText() : "no result"));
            }
            return n.get("ops");
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stop);
            } catch (IllegalStateException e) {
                // already shutting down: the hook runs
            }
        }
    }
}
