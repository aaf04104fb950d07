package dev.zarrj.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.bench.data.Host;
import dev.zarrj.bench.raw.RawCodec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code zarr bench}: zarrj's throughput and latency on the file system store, each figure next
 * to its ceiling measured in the same run (see docs/benchmarks.md), and tensorstore beside the
 * float32 workloads where a Python with it is found ({@link TensorstorePeer}).
 *
 * <p>Prints a table, the JSON document and the targets (or, with {@code --json}, only the
 * JSON document); progress goes to standard error. Exit status 0, or 1 when a workload failed
 * (data read back wrong, a child JVM crashed); a target missed is information, not a failure.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure zarrj's read and write throughput and latency on the file system store, "
                + "each next to its ceiling (the same work without zarrj) measured in the same run.")
public final class BenchCommand implements Callable<Integer> {
    @Option(names = "--quick", description = "The same workloads at reduced sizes (well under a minute on two cores).")
    boolean quick;

    @Option(names = "--size", hidden = true, paramLabel = "full|quick|tiny",
            description = "Sizes: full (default), quick (--quick), tiny (seconds; for tests).")
    String size = "full";

    @Option(names = "--threads", paramLabel = "N", description = "zarrj's threads and the ceiling's (default: the cores, ${DEFAULT-VALUE}).")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--only", paramLabel = "REGEX",
            description = "Run only the workloads whose name matches (found anywhere in it), e.g. 'float32/zstd' or 'uint16'; "
                    + "the remote section only when the pattern says 'remote' (or with --remote).")
    String only;

    @Option(names = "--remote", description = "Also run the remote section: s3proxy on loopback behind a relay that adds "
            + "0, 20 and 50 ms to each request (a few minutes). '--only remote' runs it alone.")
    boolean remote;

    @Option(names = "--remote-big", description = "With the remote section, also read a 2 GiB array at 50 ms in a child JVM "
            + "with -Xmx256m (the bounded-memory target; writing it first takes a few minutes).")
    boolean remoteBig;

    @Option(names = "--io-concurrency", paramLabel = "N", description = "The remote section's zarrj ioConcurrency "
            + "(default: zarrj's choice for the store). The ioConcurrency = threads baseline keeps its own.")
    Integer ioConcurrency;

    @Option(names = "--tensorstore-python", paramLabel = "PATH", description = "The Python (with tensorstore and numpy) "
            + "that measures tensorstore beside each float32 chain (default: $" + TensorstorePeer.PYTHON_ENV
            + ", else bench/tensorstore/.venv/bin/python, else python3; skipped with the reason when none imports tensorstore).")
    String tensorstorePython;

    @Option(names = "--no-tensorstore", description = "Do not measure tensorstore beside the float32 chains.")
    boolean noTensorstore;

    @Option(names = "--json", description = "Print only the JSON document on standard output.")
    boolean json;

    @Option(names = "--debug", hidden = true, description = "Print stack traces of errors (zarr --debug bench passes it on).")
    boolean debug;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Work directory, kept afterwards (default: a new temporary directory, deleted at the end). "
                    + "The float32 arrays are at DIR/float32/<chain>.")
    Path dir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Scale scale = scale();
        if (threads < 1) {
            throw new UsageError("--threads " + threads + ": must be at least 1");
        }
        if (ioConcurrency != null && ioConcurrency < 1) {
            throw new UsageError("--io-concurrency " + ioConcurrency + ": must be at least 1");
        }
        Predicate<String> selected = selection();
        boolean keep = dir != null;
        Path work = workDir();
        // Interrupted (Ctrl-C), a temporary work directory is deleted all the same.
        Thread cleanup = new Thread(() -> deleteQuietly(work), "bench-cleanup");
        if (!keep) {
            Runtime.getRuntime().addShutdownHook(cleanup);
        }
        Log log = new Log(err);
        Optional<Double> loadBefore = Host.loadAverage();
        loadBefore.ifPresent(l -> log.line("load average %.2f on %d cores (what else this machine runs)", l,
                Runtime.getRuntime().availableProcessors()));
        log.line("gzip runs on %s", RawCodec.gzipImplementation());
        List<Row> rows = new ArrayList<>();
        List<Failure> failures = new ArrayList<>();
        BenchFailure fatal = null;
        Float32Bench float32 = null;
        try {
            Workbench bench = new Workbench(scale, threads, work, log, selected);
            float32 = new Float32Bench(bench, new Float32Bench.PeerOptions(tensorstorePython, noTensorstore, keep));
            rows.addAll(float32.run());
            rows.addAll(new SparseBench(bench).run());
            VolumeRuns volumes = new VolumeRuns(scale, threads, work, keep, log, selected);
            try {
                volumes.run();
            } finally {
                rows.addAll(volumes.rows);
                failures.addAll(volumes.failures);
            }
            if (remote || remoteBig || (only != null && only.contains("remote") && RemoteBench.anySelected(selected))) {
                RemoteBench remoteBench = new RemoteBench(bench, remoteBig, ioConcurrency);
                try {
                    rows.addAll(remoteBench.run());
                } finally {
                    failures.addAll(remoteBench.failures);
                }
            }
        } catch (BenchFailure e) {
            fatal = e;
        } finally {
            if (!keep) {
                Runtime.getRuntime().removeShutdownHook(cleanup);
                Files2.deleteTree(work);
            }
        }
        double elapsed = log.elapsed();
        String load = loadNote(loadBefore, Host.loadAverage());
        List<Targets.Target> targets = Targets.evaluate(rows, failures, threads, scale);
        ObjectNode doc = document(scale, work, rows, targets);
        if (float32 != null && float32.peer().isPresent()) {
            doc.set("tensorstore", float32.peer().get().toJson(threads));
        }
        String text = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc);
        if (json) {
            out.println(text);
        } else {
            printTable(out, rows);
            out.println();
            out.println(text);
            out.println();
            printTargets(out, targets);
            out.printf(Locale.ROOT, "%nrun time: %.1f s%n", elapsed);
            if (!load.isEmpty()) {
                out.println(load);
            }
        }
        out.flush();
        log.line("done in %.1f s", elapsed);
        if (!load.isEmpty()) {
            log.line("%s", load);
        }
        List<String> problems = new ArrayList<>();
        if (fatal != null) {
            problems.add(fatal.getMessage());
        }
        for (Failure f : failures) {
            if (!f.oom()) {
                problems.add(f.toString());
            }
        }
        for (String p : problems) {
            err.println("zarr bench: " + p);
        }
        err.flush();
        return problems.isEmpty() ? 0 : 1;
    }

    /**
     * The load average before and after, and a warning when other processes competed for the
     * CPU: then every figure, and most of all the thread scaling, is lower and noisier.
     */
    private static String loadNote(Optional<Double> before, Optional<Double> after) {
        if (before.isEmpty() || after.isEmpty()) {
            return "";
        }
        int cores = Runtime.getRuntime().availableProcessors();
        String note = String.format(Locale.ROOT, "load average (1 min): %.2f before, %.2f after, on %d cores", before.get(),
                after.get(), cores);
        if (before.get() > cores / 2.0) {
            note += "; other processes were using the CPU when the run started, so its figures (the thread scaling"
                    + " above all) are lower and noisier than on an idle machine";
        }
        return note;
    }

    private static void deleteQuietly(Path work) {
        try {
            Files2.deleteTree(work);
        } catch (RuntimeException e) {
            System.err.println("zarr bench: could not delete " + work + ": " + e.getMessage());
        }
    }

    private Scale scale() {
        if (quick) {
            return Scale.QUICK;
        }
        try {
            return Scale.named(size);
        } catch (IllegalArgumentException e) {
            throw new UsageError("--size " + size + ": must be full, quick or tiny");
        }
    }

    private Predicate<String> selection() {
        if (only == null) {
            return name -> true;
        }
        try {
            Pattern p = Pattern.compile(only);
            return name -> p.matcher(name).find();
        } catch (PatternSyntaxException e) {
            throw new UsageError("--only '" + only + "': not a regular expression: " + e.getDescription());
        }
    }

    private Path workDir() throws IOException {
        if (dir == null) {
            return Files.createTempDirectory("zarr-bench-");
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UsageError("--dir " + dir + ": not a directory");
        }
        return Files.createDirectories(dir);
    }

    private static ObjectNode document(Scale scale, Path work, List<Row> rows, List<Targets.Target> targets) {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.set("machine", Machine.describe(scale != Scale.FULL, work));
        ArrayNode w = doc.putArray("workloads");
        rows.forEach(r -> w.add(r.toJson()));
        ArrayNode t = doc.putArray("targets");
        targets.stream().filter(x -> x.met() != null).forEach(x -> t.add(x.toJson()));
        return doc;
    }

    private static void printTable(PrintWriter out, List<Row> rows) {
        String format = "%-32s %-18s %7s %5s %10s %10s %10s %9s %12s %6s %9s %6s %9s %9s %9s%n";
        out.printf(Locale.ROOT, format, "workload", "op", "threads", "L ms", "seconds", "p90", "p99", "MB/s", "ceiling MB/s",
                "ratio", "ts MB/s", "vs ts", "requests", "in flight", "peak RSS");
        for (Row r : rows) {
            String op = r.ioConcurrency == null ? r.op : r.op + " io=" + r.ioConcurrency;
            out.printf(Locale.ROOT, format, r.name, op, r.threads == null ? "" : r.threads,
                    r.latencyMs == null ? "" : r.latencyMs, seconds(r.seconds),
                    r.p90Seconds == null ? "" : seconds(r.p90Seconds),
                    r.p99Seconds == null ? "" : seconds(r.p99Seconds),
                    String.format(Locale.ROOT, "%.1f", r.mbPerS),
                    r.ceilingMbPerS == null ? "" : String.format(Locale.ROOT, "%.1f", r.ceilingMbPerS),
                    r.ratioToCeiling() == null ? "" : String.format(Locale.ROOT, "%.2f", r.ratioToCeiling()),
                    r.tensorstoreMbPerS == null ? "" : String.format(Locale.ROOT, "%.1f", r.tensorstoreMbPerS),
                    r.ratioToTensorstore() == null ? "" : String.format(Locale.ROOT, "%.2f", r.ratioToTensorstore()),
                    r.httpRequests != null ? r.httpRequests : r.storeRequests == null ? "" : r.storeRequests,
                    r.peakInFlight == null ? "" : r.peakInFlight,
                    r.peakRssMb == null ? "" : String.format(Locale.ROOT, "%.0f MB", r.peakRssMb));
        }
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, s < 0.1 ? "%.6f" : "%.3f", s);
    }

    private static void printTargets(PrintWriter out, List<Targets.Target> targets) {
        out.println("targets:");
        for (Targets.Target t : targets) {
            String mark = t.met() == null ? "n/a " : t.met() ? "MET " : "MISS";
            out.printf(Locale.ROOT, "  [%s] %s%n         %s%n", mark, t.target(), t.detail());
        }
    }
}
