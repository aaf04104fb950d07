package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apiguardian.api.API;

/**
 * Checks that writers in two JVMs lose nothing of each other's work in one store, as conditional
 * writes ({@link dev.zarrj.api.store.ConditionalWrites}) promise: any store, named by the location
 * {@link Zarr#openStore(String)} takes ({@code file:/tmp/x.zarr}, {@code s3://bucket/prefix}).
 *
 * <p>Two child JVMs run this class's {@link #main} with the current class path and module path
 * (so the store's provider and the {@code sharding_indexed} codec must be on the test's class or
 * module path), plus the JVM arguments given (system properties for the store's client, for
 * example). They meet at a barrier of files in a local work directory before each round.
 *
 * <ul>
 *   <li>{@link #shardedWrites()}: per round a fresh int32 array of 16×16 in shards of 8×8 holding
 *       inner chunks of 2×2; each JVM writes its half of the inner chunks (a checkerboard), one
 *       inner chunk per write, so every write is a read-modify-write of a shard that the other JVM
 *       is changing too. Then this JVM reads every array and counts the elements that do not
 *       hold what was written: lost updates.</li>
 *   <li>{@link #createOnce()}: per round both JVMs create the same array with
 *       {@code overwrite(false)} at the same moment; exactly one must succeed and the other must
 *       fail with the "already exists" error.</li>
 * </ul>
 *
 * <pre>{@code
 * CrossProcessHarness h = CrossProcessHarness.of("file:" + dir.resolve("x.zarr"), workDir);
 * CrossProcessHarness.Report r = h.shardedWrites();
 * assertEquals(0, r.lost(), r::toString);
 * }</pre>
 *
 * @param storeUri the store's location, as the children open it
 * @param jvmArgs  extra arguments for the child JVMs (before the main class)
 * @param workDir  a local directory for the barrier files and the children's output
 * @param rounds   how many arrays each check writes or creates
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record CrossProcessHarness(String storeUri, List<String> jvmArgs, Path workDir, int rounds) {
    private static final long[] SHAPE = {16, 16};
    private static final long[] SHARD = {8, 8};
    private static final long[] INNER = {2, 2};
    private static final long CHILD_TIMEOUT_MINUTES = 10;
    private static final long BARRIER_TIMEOUT_MILLIS = 120_000;
    /** Exit code of a child whose check ran; anything else is a failure of the child itself. */
    private static final int CHILD_OK = 0;

    public CrossProcessHarness {
        Objects.requireNonNull(storeUri, "storeUri");
        jvmArgs = List.copyOf(jvmArgs);
        Objects.requireNonNull(workDir, "workDir");
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be at least 1, not " + rounds);
        }
    }

    /** A harness of 20 rounds without extra JVM arguments. */
    public static CrossProcessHarness of(String storeUri, Path workDir) {
        return new CrossProcessHarness(storeUri, List.of(), workDir, 20);
    }

    /** This harness with these extra arguments for the child JVMs. */
    public CrossProcessHarness withJvmArgs(String... args) {
        return new CrossProcessHarness(storeUri, List.of(args), workDir, rounds);
    }

    /** This harness with this number of rounds. */
    public CrossProcessHarness withRounds(int n) {
        return new CrossProcessHarness(storeUri, jvmArgs, workDir, n);
    }

    /**
     * What a check found.
     *
     * @param name     which check, on which store
     * @param rounds   rounds run
     * @param checked  elements (shardedWrites) or creations (createOnce) checked
     * @param lost     elements that lost their value, or rounds without exactly one creation
     * @param problems the first problems found, and the output of children that failed
     * @since 0.1
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public record Report(String name, int rounds, long checked, long lost, List<String> problems) {
        public Report {
            problems = List.copyOf(problems);
        }

        /** Whether nothing was lost and both children ran to the end. */
        public boolean passed() {
            return lost == 0 && problems.isEmpty();
        }

        /**
         * Returns normally when {@link #passed()}, else throws an {@link AssertionError} saying
         * what was lost.
         */
        public void assertPassed() {
            if (!passed()) {
                throw new AssertionError(this.toString());
            }
        }

        @Override
        public String toString() {
            return name + ": " + rounds + " rounds, " + checked + " checked, " + lost + " lost"
                    + (problems.isEmpty() ? "" : "; problems:\n  " + String.join("\n  ", problems));
        }
    }

    // ---- sharded writes ----

    /**
     * Two JVMs write disjoint inner chunks of the same shards, {@link #rounds} arrays one after
     * another; then counts the elements that lost their value.
     */
    public Report shardedWrites() throws IOException, InterruptedException {
        String run = runPrefix();
        Zarr zarr = Zarr.defaults();
        for (int r = 0; r < rounds; r++) {
            zarr.array(DataTypes.INT32, SHAPE).chunks(INNER).shards(SHARD).create(storeUri, arrayPath(run, r)).close();
        }
        List<String> problems = new ArrayList<>(runChildren("write", run));
        long checked = 0;
        long lost = 0;
        for (int r = 0; r < rounds; r++) {
            int[] found;
            try (ZarrArray a = zarr.openArray(storeUri, arrayPath(run, r))) {
                found = a.read().toIntArray();
            }
            for (int i = 0; i < found.length; i++) {
                checked++;
                int expected = expected(r, i);
                if (found[i] != expected) {
                    lost++;
                    if (problems.size() < 10) {
                        problems.add("round " + r + ", element " + i / SHAPE[1] + "," + i % SHAPE[1] + " (worker "
                                + owner(i) + "): " + found[i] + ", expected " + expected);
                    }
                }
            }
        }
        return new Report("shardedWrites " + storeUri, rounds, checked, lost, problems);
    }

    private static String arrayPath(String run, int round) {
        return run + "/shards/r" + round;
    }

    /** The value element {@code i} (C order) holds after round {@code r}: never the fill value 0. */
    private static int expected(int r, int i) {
        return 1 + r * 1000 + i;
    }

    /** Which worker writes the inner chunk holding element {@code i}: a checkerboard of inner chunks. */
    private static int owner(int i) {
        long y = i / SHAPE[1];
        long x = i % SHAPE[1];
        return (int) ((y / INNER[0] + x / INNER[1]) % 2);
    }

    private static void writeRounds(String uri, String run, int worker, int rounds, Path barrier) throws Exception {
        Zarr zarr = Zarr.defaults();
        for (int r = 0; r < rounds; r++) {
            awaitBoth(barrier, "write-" + r, worker);
            try (ZarrArray a = zarr.openArray(uri, arrayPath(run, r))) {
                for (long cy = 0; cy < SHAPE[0] / INNER[0]; cy++) {
                    for (long cx = 0; cx < SHAPE[1] / INNER[1]; cx++) {
                        if ((cy + cx) % 2 != worker) {
                            continue;
                        }
                        int[] v = new int[(int) (INNER[0] * INNER[1])];
                        for (int k = 0; k < v.length; k++) {
                            long y = cy * INNER[0] + k / INNER[1];
                            long x = cx * INNER[1] + k % INNER[1];
                            v[k] = expected(r, (int) (y * SHAPE[1] + x));
                        }
                        a.write(new long[] {cy * INNER[0], cx * INNER[1]}, INNER, v);
                    }
                }
            }
        }
    }

    // ---- create only once ----

    /**
     * Two JVMs create the same array with {@code overwrite(false)} at the same moment,
     * {@link #rounds} times; in each round exactly one must succeed and the other must fail with
     * the "already exists" error.
     */
    public Report createOnce() throws IOException, InterruptedException {
        String run = runPrefix();
        List<String> problems = new ArrayList<>(runChildren("create", run));
        List<List<String>> outcomes = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            outcomes.add(Files.readAllLines(workDir.resolve(run + "-create-" + w + ".out"), StandardCharsets.UTF_8));
        }
        long wrong = 0;
        for (int r = 0; r < rounds; r++) {
            String a = outcome(outcomes.get(0), r);
            String b = outcome(outcomes.get(1), r);
            boolean oneCreated = a.startsWith("created") ^ b.startsWith("created");
            boolean otherRefused = (a.startsWith("created") ? b : a).startsWith("refused")
                    && (a.startsWith("created") ? b : a).contains("already exists");
            if (!(oneCreated && otherRefused)) {
                wrong++;
                if (problems.size() < 10) {
                    problems.add("round " + r + ": worker 0 " + a + "; worker 1 " + b);
                }
            }
        }
        return new Report("createOnce " + storeUri, rounds, 2L * rounds, wrong, problems);
    }

    private static String outcome(List<String> lines, int round) {
        String tag = "r" + round + " ";
        return lines.stream().filter(l -> l.startsWith(tag)).map(l -> l.substring(tag.length())).findFirst()
                .orElse("(no outcome)");
    }

    private static void createRounds(String uri, String run, int worker, int rounds, Path barrier) throws Exception {
        Zarr zarr = Zarr.defaults();
        for (int r = 0; r < rounds; r++) {
            awaitBoth(barrier, "create-" + r, worker);
            String line;
            try (ZarrArray a = zarr.array(DataTypes.INT32, SHAPE).chunks(INNER).overwrite(false)
                    .create(uri, run + "/create/r" + r)) {
                line = "created " + a.path();
            } catch (InvalidMetadataException e) {
                line = "refused " + e.getMessage().replace('\n', ' ');
            }
            System.out.println("r" + r + " " + line);
            System.out.flush();
        }
    }

    // ---- children ----

    private String runPrefix() {
        return "xproc-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Runs two children of {@code mode}; returns what went wrong with them (empty when both exited normally). */
    private List<String> runChildren(String mode, String run) throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path barrier = Files.createDirectories(workDir.resolve(run + "-barrier"));
        List<Process> children = new ArrayList<>();
        List<Path> outputs = new ArrayList<>();
        try {
            for (int w = 0; w < 2; w++) {
                List<String> cmd = new ArrayList<>();
                cmd.add(javaCommand());
                cmd.addAll(jvmArgs);
                cmd.add("-cp");
                cmd.add(childClassPath());
                cmd.add(CrossProcessHarness.class.getName());
                cmd.addAll(Arrays.asList(mode, storeUri, run, Integer.toString(w), Integer.toString(rounds),
                        barrier.toString()));
                Path out = workDir.resolve(run + "-" + mode + "-" + w + ".out");
                Path err = workDir.resolve(run + "-" + mode + "-" + w + ".err");
                outputs.add(err);
                children.add(new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start());
            }
            List<String> problems = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                Process p = children.get(w);
                if (!p.waitFor(CHILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                    problems.add("worker " + w + " did not finish within " + CHILD_TIMEOUT_MINUTES + " minutes");
                } else if (p.exitValue() != CHILD_OK) {
                    problems.add("worker " + w + " exited with " + p.exitValue() + ": "
                            + Files.readString(outputs.get(w), StandardCharsets.UTF_8).strip());
                }
            }
            return problems;
        } finally {
            for (Process p : children) {
                p.destroyForcibly();
            }
        }
    }

    private static String javaCommand() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** This JVM's class path and module path, as one class path (providers register by META-INF/services). */
    private static String childClassPath() {
        List<String> entries = new ArrayList<>();
        for (String property : List.of("java.class.path", "jdk.module.path")) {
            String v = System.getProperty(property, "");
            for (String e : v.split(File.pathSeparator)) {
                if (!e.isEmpty() && !entries.contains(e)) {
                    entries.add(e);
                }
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Marks this worker ready for {@code step} and waits until the other one is too. */
    private static void awaitBoth(Path barrier, String step, int worker) throws IOException, InterruptedException {
        Files.writeString(barrier.resolve(step + "-" + worker), "ready");
        Path other = barrier.resolve(step + "-" + (1 - worker));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BARRIER_TIMEOUT_MILLIS);
        while (!Files.exists(other)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("worker " + (1 - worker) + " did not reach " + step + " within "
                        + BARRIER_TIMEOUT_MILLIS + " ms");
            }
            LockSupport.parkNanos(100_000);
        }
    }

    /**
     * A child's entry point: {@code write|create <storeUri> <run> <worker> <rounds> <barrierDir>}.
     * Exits with 0 when its rounds ran (refused creations included), 1 otherwise.
     */
    public static void main(String[] args) {
        try {
            String mode = args[0];
            int worker = Integer.parseInt(args[3]);
            int n = Integer.parseInt(args[4]);
            Path barrier = Path.of(args[5]);
            if (mode.equals("write")) {
                writeRounds(args[1], args[2], worker, n, barrier);
            } else if (mode.equals("create")) {
                createRounds(args[1], args[2], worker, n, barrier);
            } else {
                throw new IllegalArgumentException("unknown mode " + mode);
            }
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        System.exit(CHILD_OK);
    }
}
