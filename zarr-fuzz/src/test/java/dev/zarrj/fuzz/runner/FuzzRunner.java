package dev.zarrj.fuzz.runner;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Fuzzes every {@link FuzzTest} method of this module with the Jazzer driver, each in a child JVM
 * with a small heap, two at a time, for a bounded time or a fixed number of executions.
 *
 * <p>Targets are found by reflection over the compiled test classes, so a new {@code @FuzzTest}
 * in any package of the module is fuzzed without a list to edit. Each child gets the committed
 * inputs ({@code <Class>Inputs/<method>}) as seeds and a scratch corpus in a temporary folder that
 * is deleted afterwards; crash files stay under {@code target/fuzz-findings/<target>}.
 *
 * <p>Settings (system properties): {@code zarrj.fuzz.seconds} (per target, default 3),
 * {@code zarrj.fuzz.runs} (a fixed number of executions per target instead; 0 = use seconds),
 * {@code zarrj.fuzz.only} (a regex on {@code Class.method}, simple or qualified class name),
 * {@code zarrj.fuzz.jobs} (children at once, default 2), {@code zarrj.fuzz.timeout} (seconds per
 * input, default 30: a hang never ends, while the first inputs of a cold JVM on a loaded machine
 * took 10 s, class loading and instrumentation included), {@code zarrj.fuzz.rssMb} (default
 * 1536; a child with a 256 MB heap has about 550 MB resident), {@code zarrj.fuzz.heap} (default
 * 256m).
 *
 * <p>A child that exits with an error without executing an input (the driver's native library
 * failing to load, say) fails its target: a run never passes by fuzzing nothing.
 */
public final class FuzzRunner {
    private static final Pattern EXECUTED = Pattern.compile("stat::number_of_executed_units:\\s*(\\d+)");
    private static final Pattern RATE = Pattern.compile("stat::average_exec_per_sec:\\s*(\\d+)");
    private static final Pattern DONE = Pattern.compile("^Done (\\d+) runs in (\\d+) second", Pattern.MULTILINE);

    /** One target: a class and one of its {@code @FuzzTest} methods. */
    public record Target(Class<?> type, String method) {
        /** {@code SimpleName.method}, as printed. */
        public String id() {
            return type.getSimpleName() + "." + method;
        }

        /** The committed inputs folder under {@code testClasses}, as Jazzer's JUnit integration names it. */
        Path inputs(Path root) {
            return root.resolve(type.getPackageName().replace('.', '/'))
                    .resolve(type.getSimpleName() + "Inputs").resolve(method);
        }
    }

    /** What one child reported. */
    public record Result(Target target, long executions, long execPerSecond, double seconds, int exitCode,
            List<Path> findings, String excerpt, Path log) {
        /** Whether the target passed: the driver ran, executed inputs and found nothing. */
        public boolean ok() {
            return exitCode == 0 && findings.isEmpty() && executions > 0;
        }
    }

    /** The settings of one run. */
    public record Settings(long seconds, long runs, Pattern only, int jobs, int timeout, int rssMb, String heap) {
        /** Reads the {@code zarrj.fuzz.*} system properties. */
        public static Settings fromSystemProperties() {
            String only = System.getProperty("zarrj.fuzz.only", "");
            return new Settings(
                    Long.getLong("zarrj.fuzz.seconds", 3),
                    Long.getLong("zarrj.fuzz.runs", 0),
                    Pattern.compile(only.isBlank() ? ".*" : only),
                    Integer.getInteger("zarrj.fuzz.jobs", 2),
                    Integer.getInteger("zarrj.fuzz.timeout", 30),
                    Integer.getInteger("zarrj.fuzz.rssMb", 1536),
                    System.getProperty("zarrj.fuzz.heap", "256m"));
        }

        String budget() {
            return runs > 0 ? runs + " executions per target" : seconds + " s per target";
        }
    }

    private final Path module;
    private final Path testClasses;
    private final String classPath;
    private final Settings settings;

    /**
     * @param module      the module's folder (Maven's {@code basedir})
     * @param classPath   the class path of the children: test classes, zarrj and Jazzer
     */
    public FuzzRunner(Path module, String classPath, Settings settings) {
        this.module = module.toAbsolutePath().normalize();
        this.testClasses = this.module.resolve("target/test-classes");
        this.classPath = classPath;
        this.settings = settings;
    }

    /** Every {@code @FuzzTest} method among the compiled test classes that {@code only} selects, sorted. */
    public List<Target> discover() throws IOException {
        List<Target> targets = new ArrayList<>();
        ClassLoader loader = FuzzRunner.class.getClassLoader();
        try (Stream<Path> files = Files.walk(testClasses)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = testClasses.relativize(file).toString().replace('/', '.').replace('\\', '.');
                name = name.substring(0, name.length() - ".class".length());
                Class<?> type;
                try {
                    type = Class.forName(name, false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    throw new IllegalStateException("cannot load test class " + name + ": " + e, e);
                }
                for (Method m : type.getDeclaredMethods()) {
                    if (m.isAnnotationPresent(FuzzTest.class) && !Modifier.isStatic(m.getModifiers())) {
                        Target t = new Target(type, m.getName());
                        String qualified = type.getName() + "." + m.getName();
                        if (settings.only().matcher(t.id()).find() || settings.only().matcher(qualified).find()) {
                            targets.add(t);
                        }
                    }
                }
            }
        }
        targets.sort(Comparator.comparing(t -> t.type().getName() + "." + t.method()));
        return targets;
    }

    /** Fuzzes every target, {@code jobs} at a time, and writes {@code target/fuzz-summary.txt}. */
    public List<Result> run(List<Target> targets) throws Exception {
        Path findingsRoot = module.resolve("target/fuzz-findings");
        Path logs = module.resolve("target/fuzz-logs");
        Files.createDirectories(logs);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, settings.jobs()));
        try {
            List<Future<Result>> futures = new ArrayList<>();
            for (Target t : targets) {
                futures.add(pool.submit(() -> fuzz(t, findingsRoot.resolve(t.id()), logs.resolve(t.id() + ".log"))));
            }
            List<Result> results = new ArrayList<>();
            for (Future<Result> f : futures) {
                results.add(f.get());
            }
            Files.writeString(module.resolve("target/fuzz-summary.txt"), summary(results), StandardCharsets.UTF_8);
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private Result fuzz(Target t, Path findings, Path log) throws IOException, InterruptedException {
        deleteTree(findings);
        Files.createDirectories(findings);
        // The child's own temporary folder holds the scratch corpus and everything the child
        // leaves in java.io.tmpdir (the driver's extracted agent and native libraries, a target's
        // files if it is killed), so that removing it leaves nothing behind.
        Path scratch = Files.createTempDirectory("zarrj-fuzz-");
        Path corpus = Files.createDirectory(scratch.resolve("corpus"));
        Path tmp = Files.createDirectory(scratch.resolve("tmp"));
        try {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-Xmx" + settings.heap());
            cmd.add("-Djava.io.tmpdir=" + tmp);
            cmd.add("-Djava.util.logging.config.file=" + testClasses.resolve("fuzz-logging.properties"));
            cmd.add("-cp");
            cmd.add(classPath);
            cmd.add("com.code_intelligence.jazzer.Jazzer");
            cmd.add("--target_class=" + t.type().getName());
            cmd.add("--target_method=" + t.method());
            cmd.add("--instrumentation_includes=dev.zarrj.**");
            cmd.add("--custom_hook_includes=dev.zarrj.**");
            cmd.add("--reproducer_path=" + findings);
            cmd.add("-artifact_prefix=" + findings + "/");
            cmd.add("-timeout=" + settings.timeout());
            cmd.add("-rss_limit_mb=" + settings.rssMb());
            cmd.add("-print_final_stats=1");
            if (settings.runs() > 0) {
                cmd.add("-runs=" + settings.runs());
                // The driver turns @FuzzTest(maxDuration) into a time limit; this one replaces it.
                cmd.add("-max_total_time=0");
            } else {
                cmd.add("-max_total_time=" + settings.seconds());
            }
            cmd.add(corpus.toString());
            Path seeds = t.inputs(testClasses);
            if (Files.isDirectory(seeds)) {
                cmd.add(seeds.toString());
            }
            long start = System.nanoTime();
            Process p = new ProcessBuilder(cmd).directory(findings.toFile())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            // A hang the per-input timeout missed (in the driver itself) must end too.
            long limit = settings.runs() > 0 ? TimeUnit.DAYS.toSeconds(1) : 4 * settings.seconds() + 120;
            boolean exited = p.waitFor(limit, TimeUnit.SECONDS);
            if (!exited) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            String output = Files.readString(log, StandardCharsets.ISO_8859_1);
            long executions = executions(output);
            List<Path> crashes;
            try (Stream<Path> s = Files.list(findings)) {
                crashes = s.filter(f -> f.getFileName().toString().matches("(crash|timeout|oom|leak)-.*"))
                        .sorted().toList();
            }
            String excerpt = exited ? excerpt(output) : "the driver did not exit within " + limit + " s; killed";
            int exit = exited ? p.exitValue() : -1;
            try (Stream<Path> s = Files.list(findings)) {
                if (s.findAny().isEmpty()) {
                    Files.delete(findings);
                }
            }
            Matcher rate = RATE.matcher(output);
            long perSecond = rate.find() ? Long.parseLong(rate.group(1)) : 0;
            return new Result(t, executions, perSecond, seconds, exit, crashes, excerpt, log);
        } finally {
            deleteTree(scratch);
        }
    }

    static long executions(String output) {
        Matcher m = EXECUTED.matcher(output);
        long n = -1;
        while (m.find()) {
            n = Long.parseLong(m.group(1));
        }
        if (n < 0) {
            Matcher d = DONE.matcher(output);
            while (d.find()) {
                n = Long.parseLong(d.group(1));
            }
        }
        return Math.max(n, 0);
    }

    /** The driver's report of a finding (from its first {@code ==} line), or the end of its output. */
    static String excerpt(String output) {
        List<String> lines = output.lines().toList();
        int from = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("== ") || lines.get(i).startsWith("==") && lines.get(i).contains("ERROR")) {
                from = i;
                break;
            }
        }
        if (from < 0) {
            from = Math.max(0, lines.size() - 25);
        }
        int to = from;
        while (to < lines.size() && to < from + 45 && !lines.get(to).startsWith("stat::")) {
            to++;
        }
        return String.join("\n", lines.subList(from, to));
    }

    /** The report of every failed target: the exception, the input, and how to keep it as a regression input. */
    public String failures(List<Result> results) throws IOException {
        StringBuilder b = new StringBuilder();
        for (Result r : results) {
            if (r.ok()) {
                continue;
            }
            b.append("\n=== ").append(r.target().id()).append(": ");
            if (r.findings().isEmpty()) {
                b.append(r.executions() == 0
                        ? "the Jazzer driver did not fuzz (exit " + r.exitCode() + "; did its native library load?)"
                        : "the driver exited with " + r.exitCode() + " and left no crash file");
            } else {
                b.append("finding");
            }
            b.append("\n").append(r.excerpt()).append("\n");
            for (Path f : r.findings()) {
                byte[] input = Files.readAllBytes(f);
                String b64 = Base64.getEncoder().encodeToString(input);
                b.append("input (").append(input.length).append(" bytes, base64): ")
                        .append(b64.length() > 4000 ? b64.substring(0, 4000) + "..." : b64).append("\n");
                b.append("crash file: ").append(f).append("\n");
                Path inputs = module.resolve("src/test/resources").resolve(
                        r.target().type().getPackageName().replace('.', '/'))
                        .resolve(r.target().type().getSimpleName() + "Inputs").resolve(r.target().method());
                b.append("keep it as a regression input (after the fix): mkdir -p ").append(module.relativize(inputs))
                        .append(" && cp ").append(module.relativize(f)).append(' ')
                        .append(module.relativize(inputs.resolve(f.getFileName().toString()
                                .replaceFirst("^(crash|timeout|oom|leak)-", "regression-"))))
                        .append("\n");
            }
            b.append("full output: ").append(r.log()).append("\n");
        }
        return b.toString();
    }

    /** A table: target, executions, wall seconds (with the JVM start), exec/s (the driver's average), findings. */
    public String summary(List<Result> results) {
        StringBuilder b = new StringBuilder();
        b.append("zarr-fuzz: ").append(results.size()).append(" targets, ").append(settings.budget())
                .append(", heap ").append(settings.heap()).append(", ").append(settings.jobs()).append(" at a time\n");
        int width = results.stream().mapToInt(r -> r.target().id().length()).max().orElse(6);
        String row = "%-" + width + "s %12s %9s %9s %9s%n";
        b.append(String.format(Locale.ROOT, row, "target", "executions", "seconds", "exec/s", "findings"));
        long total = 0;
        int failed = 0;
        for (Result r : results) {
            total += r.executions();
            failed += r.ok() ? 0 : 1;
            String findings = r.ok() ? "0" : r.findings().isEmpty() ? "FAILED" : String.valueOf(r.findings().size());
            b.append(String.format(Locale.ROOT, row, r.target().id(), r.executions(),
                    String.format(Locale.ROOT, "%.1f", r.seconds()),
                    r.execPerSecond(), findings));
        }
        b.append(String.format(Locale.ROOT, "total: %d executions, %d target(s) failed%n", total, failed));
        return b.toString();
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
