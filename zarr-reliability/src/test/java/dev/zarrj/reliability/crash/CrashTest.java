package dev.zarrj.reliability.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.zarrj.api.store.Leftover;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.store.s3.S3Mock;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM ({@link CrashWriter}) writes a generation of an array and is killed with SIGKILL
 * at a random moment of the write, {@value #DEFAULT_ROUNDS} rounds per store (file, zip, S3
 * through S3Mock), on an unsharded and a sharded array, each round a whole-array write or a
 * partial one (a region that cuts chunks and shards, so they are read, changed and written
 * back). After each kill: the hierarchy opens, every stored object (chunk, shard) reads either as
 * it was before the round or as the round wrote it, element by element, never a mix; the checks
 * of {@code zarr verify} pass; the store lists only metadata and chunk keys; a write that
 * finished is there whole; in a zip archive, all the round's changes are there or none. What the
 * crash left behind ({@link Store#leftovers()}) is then removed, and the next round writes the
 * next generation.
 *
 * <p>The rounds are drawn from a seed, printed first ({@code -Dzarrj.crash.seed=} replays the
 * same arrays, regions and kill delays; the moment the kill lands within the write still depends
 * on the machine). {@code -Dzarrj.crash.rounds=} changes the number of rounds.
 */
@ExtendWith(S3Mock.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES) // a guard against a child that never answers, not a speed check
class CrashTest {
    static final int DEFAULT_ROUNDS = 50;
    private static final int ROUNDS = Integer.getInteger("zarrj.crash.rounds", DEFAULT_ROUNDS);
    private static final long SEED = Long.getLong("zarrj.crash.seed", System.nanoTime());
    /** 128 + SIGKILL (9): how Java reports the exit of a process the signal ended. */
    private static final int KILLED = 128 + 9;
    private static final Zarr ZARR = Zarr.defaults();
    private static final Map<String, String> FIGURES = new LinkedHashMap<>();

    @TempDir
    Path dir;
    /** Reads the store between rounds (a new test instance, so a new one, per store). */
    private Store reader;

    @Test
    void fileStore() throws Exception {
        run("file", dir.resolve("data.zarr").toString(), 1536);
    }

    @Test
    void zipStore() throws Exception {
        run("zip", "zip:" + dir.resolve("data.zip"), 1536);
    }

    @Test
    void s3Store() throws Exception {
        String bucket = S3Mock.get().newBucket();
        run("s3", S3Mock.get().uri(bucket, "data.zarr", "").toString(), 256);
    }

    @AfterAll
    static void figures() {
        FIGURES.values().forEach(System.out::println);
    }

    /** One round's order to the child: write generation {@code generation} of {@code path} in a region. */
    private record Order(String path, int generation, int n, int r0, int c0, int r1, int c1) {
        String line() {
            return "GO " + path + " " + generation + " " + n + " " + r0 + " " + c0 + " " + r1 + " " + c1;
        }

        boolean covers(int r, int c) {
            return r >= r0 && r < r1 && c >= c0 && c < c1;
        }

        double fraction() {
            return (double) (r1 - r0) * (c1 - c0) / ((double) n * n);
        }
    }

    /** Counts for the figures. */
    private static final class Tally {
        int rounds;
        int midWrite;
        int afterWrite;
        long objectsChecked;
        long elementsChecked;
        long replaced;
        long kept;
        long torn;
        long lost;
        long leftovers;
        int partialRounds;
        int shardedRounds;
    }

    private void run(String kind, String location, int n) throws Exception {
        long seed = SEED ^ kind.hashCode();
        System.out.printf("crash %s: seed %d (replay with -Dzarrj.crash.seed=%d), %d rounds, arrays %d x %d%n",
                kind, SEED, SEED, ROUNDS, n, n);
        Random random = new Random(seed);
        CrashArrays.create(ZARR, location, n);
        Map<String, int[]> generations = new LinkedHashMap<>();
        generations.put(CrashArrays.UNSHARDED, new int[n * n]);
        generations.put(CrashArrays.SHARDED, new int[n * n]);
        Map<String, Long> writeMillis = new LinkedHashMap<>();
        Tally t = new Tally();
        long started = System.nanoTime();
        long checkNanos = 0;
        long startNanos = 0;
        Child child = Child.start(location, kind.equals("zip"), dir);
        try {
            int generation = 0;
            // Generation 1 of each array, written whole and not killed: it times a write.
            for (String path : generations.keySet()) {
                Order o = new Order(path, ++generation, n, 0, 0, n, n);
                child.go(o.line());
                long ms = child.finish();
                child = Child.start(location, kind.equals("zip"), dir);
                writeMillis.put(path, ms);
                check(kind, location, o, true, generations, t, -1);
            }
            System.out.printf("crash %s: a whole write takes %s ms%n", kind, writeMillis);
            for (int round = 1; round <= ROUNDS; round++) {
                String path = random.nextBoolean() ? CrashArrays.UNSHARDED : CrashArrays.SHARDED;
                Order o;
                if (random.nextInt(3) == 0) {
                    int r0 = random.nextInt(n / 2);
                    int c0 = random.nextInt(n / 2);
                    o = new Order(path, ++generation, n, r0, c0, r0 + n / 4 + random.nextInt(n / 4),
                            c0 + n / 4 + random.nextInt(n / 4));
                    t.partialRounds++;
                } else {
                    o = new Order(path, ++generation, n, 0, 0, n, n);
                }
                t.shardedRounds += path.equals(CrashArrays.SHARDED) ? 1 : 0;
                // Killed at a uniform moment of the time a write of this size takes (in a zip
                // store, mostly the archive's rewrite on close, whatever the region's size).
                double scale = kind.equals("zip") ? 1 : Math.max(0.2, o.fraction());
                long window = (long) (writeMillis.get(path) * scale * 1_000_000L);
                long delay = (long) (random.nextDouble() * window);
                startNanos += child.go(o.line());
                long took = child.killAfter(delay);
                child = Child.start(location, kind.equals("zip"), dir); // starts while this round is checked
                boolean done = took >= 0;
                if (done) {
                    // The window was too wide: narrowed to the time this write took.
                    writeMillis.put(path, Math.max(1, (long) (took / scale)));
                }
                t.rounds++;
                if (done) {
                    t.afterWrite++;
                } else {
                    t.midWrite++;
                }
                long checking = System.nanoTime();
                check(kind, location, o, done, generations, t, round);
                checkNanos += System.nanoTime() - checking;
            }
        } finally {
            child.destroy();
            if (reader != null) {
                reader.close();
            }
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        String figures = String.format("crash %s: %d rounds (%d sharded, %d partial), %d killed mid-write, %d after the "
                        + "write; %d stored objects checked (%d replaced, %d kept), %d elements; %d torn, %d lost; "
                        + "%d leftovers removed; %d s, %d s of them checking, %d s waiting for children to start "
                        + "(seed %d)", kind, t.rounds, t.shardedRounds, t.partialRounds,
                t.midWrite, t.afterWrite, t.objectsChecked, t.replaced, t.kept, t.elementsChecked, t.torn, t.lost,
                t.leftovers, seconds, TimeUnit.NANOSECONDS.toSeconds(checkNanos),
                TimeUnit.NANOSECONDS.toSeconds(startNanos), SEED);
        System.out.println(figures);
        FIGURES.put(kind, figures);
        assertEquals(0, t.torn, figures);
        assertEquals(0, t.lost, figures);
        assertTrue(t.midWrite >= t.rounds * 6 / 10, "most kills should land mid-write: " + figures);
    }

    /**
     * Checks the store after round {@code round} (-1: a write not killed) and records in
     * {@code generations} what each element now holds.
     */
    private void check(String kind, String location, Order o, boolean done, Map<String, int[]> generations, Tally t,
            int round) {
        String where = "crash " + kind + " round " + round + " (seed " + SEED + ", " + o.line() + ", "
                + (done ? "killed after the write" : "killed mid-write") + "): ";
        // A zip store reads the archive when it opens, so it is opened for each check; the
        // others are read through one store for the whole run.
        Store opened = kind.equals("zip") ? ZARR.openStore(location, true) : null;
        Store store = opened != null ? opened : reader(location);
        try {
            VerifyChecks.Result v = VerifyChecks.verify(ZARR, store);
            assertTrue(v.problems().isEmpty(), where + "zarr verify's checks fail: " + v.problems());
            assertEquals(3, v.nodes(), where + "nodes");
            long replaced = 0;
            long kept = 0;
            for (Map.Entry<String, int[]> e : generations.entrySet()) {
                String path = e.getKey();
                int[] gen = e.getValue();
                int[] got;
                try (ZarrArray a = ZARR.openArray(store, path)) {
                    got = a.read().toIntArray();
                }
                assertEquals(gen.length, got.length, where + path);
                int unit = CrashArrays.unit(path);
                int n = o.n();
                for (int ur = 0; ur < n; ur += unit) {
                    for (int uc = 0; uc < n; uc += unit) {
                        boolean isOld = true;
                        boolean isNew = true;
                        boolean touched = false;
                        String firstBad = null;
                        for (int r = ur; r < ur + unit; r++) {
                            for (int c = uc; c < uc + unit; c++) {
                                int i = r * n + c;
                                int old = CrashArrays.value(gen[i], i);
                                boolean written = path.equals(o.path()) && o.covers(r, c);
                                touched |= written;
                                int now = written ? CrashArrays.value(o.generation(), i) : old;
                                isOld &= got[i] == old;
                                isNew &= got[i] == now;
                                if (got[i] != old && got[i] != now && firstBad == null) {
                                    firstBad = "element (" + r + ", " + c + ") is " + got[i] + ", expected " + old
                                            + " (before) or " + now + " (this round)";
                                }
                            }
                        }
                        t.objectsChecked++;
                        t.elementsChecked += (long) unit * unit;
                        String object = path + " object at (" + ur / unit + ", " + uc / unit + ")";
                        if (!isOld && !isNew) {
                            t.torn++;
                            fail(where + object + " is torn: neither as before nor as written"
                                    + (firstBad != null ? "; " + firstBad : " (a mix of both)"));
                        }
                        if (!touched) {
                            continue;
                        }
                        if (isNew) {
                            replaced++;
                            for (int r = ur; r < ur + unit; r++) {
                                for (int c = uc; c < uc + unit; c++) {
                                    if (o.covers(r, c)) {
                                        gen[r * n + c] = o.generation();
                                    }
                                }
                            }
                        } else {
                            kept++;
                            if (done) {
                                t.lost++;
                                fail(where + object + " was lost: the write finished, and it holds what it held before");
                            }
                        }
                    }
                }
            }
            t.replaced += replaced;
            t.kept += kept;
            if (kind.equals("zip") && replaced > 0 && kept > 0) {
                t.torn++;
                fail(where + "the archive holds " + replaced + " objects of this round and " + kept
                        + " of the one before: it was not replaced whole");
            }
            List<Leftover> left = store.leftovers();
            t.leftovers += left.size();
            for (Leftover l : left) {
                assertTrue(!l.live(), where + "a leftover of a dead writer is reported live: " + l);
            }
            store.removeLeftovers(Duration.ZERO);
            assertEquals(List.of(), store.leftovers(), where + "leftovers after removeLeftovers");
        } finally {
            if (opened != null) {
                opened.close();
            }
        }
    }

    private Store reader(String location) {
        if (reader == null) {
            reader = ZARR.openStore(location, true);
        }
        return reader;
    }

    /** A child JVM running {@link CrashWriter}. */
    private static final class Child {
        private final Process process;
        private final BufferedReader out;
        private final Writer in;
        private final StringBuilder log = new StringBuilder();

        private Child(Process process) {
            this.process = process;
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.in = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        }

        /**
         * Starts a child on the class path of this JVM, its start-up made cheap (C1 only, the
         * JDK's shared archive); {@code openLate}: it opens the array only when told to write.
         */
        static Child start(String location, boolean openLate, Path dir) throws IOException {
            // The child's temporary files in the test's folder, which JUnit deletes: killed between
            // creating and unlinking one (libffi, inside JNA, makes a file in TMPDIR for its
            // closures and unlinks it at once), it would otherwise leave it in the system's /tmp.
            Path tmp = Files.createDirectories(dir.resolve("child-tmp"));
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx160m", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-XX:+UseSerialGC",
                    "-XX:-UsePerfData", "-Djava.io.tmpdir=" + tmp, "-Djna.tmpdir=" + tmp));
            for (String p : new String[] {"aws.accessKeyId", "aws.secretAccessKey"}) {
                if (System.getProperty(p) != null) {
                    cmd.add("-D" + p + "=" + System.getProperty(p));
                }
            }
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CrashWriter.class.getName(), location,
                    openLate ? "late" : "early"));
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
            pb.environment().put("TMPDIR", tmp.toString());
            return new Child(pb.start());
        }

        /**
         * Waits for the child to be ready, then gives it its order and waits until it writes; the
         * nanoseconds spent waiting for it to be ready.
         */
        long go(String order) throws IOException {
            long start = System.nanoTime();
            await("@@READY");
            long waited = System.nanoTime() - start;
            in.write(order + "\n");
            in.flush();
            await("@@WRITING");
            return waited;
        }

        /** Waits for the write to end; the milliseconds it took. */
        long finish() throws IOException, InterruptedException {
            String done = await("@@DONE");
            assertEquals(0, process.waitFor(), "the child's exit status; its output:\n" + log);
            return Long.parseLong(done.substring("@@DONE ".length()));
        }

        /**
         * Kills the child with SIGKILL after {@code nanos}; the milliseconds its write took when
         * it had finished by then (the child printed {@code @@DONE}), else -1.
         */
        long killAfter(long nanos) throws IOException, InterruptedException {
            long until = System.nanoTime() + nanos;
            for (long left = nanos; left > 0; left = until - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
            // As Process.destroyForcibly (kill(pid, SIGKILL) on Linux), without closing the pipes:
            // what the child printed before it died is still read.
            process.toHandle().destroyForcibly();
            int status = process.waitFor();
            long done = -1;
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith("@@DONE ")) {
                    done = Long.parseLong(line.substring("@@DONE ".length()));
                }
                log.append(line).append('\n');
            }
            if (done < 0) {
                // Ended by the signal, not by itself: destroyForcibly sent SIGKILL.
                assertEquals(KILLED, status, "the exit status of a child killed mid-write; its output:\n" + log);
            }
            return done;
        }

        private String await(String marker) throws IOException {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith(marker)) {
                    return line;
                }
                log.append(line).append('\n');
            }
            fail("the child ended before " + marker + "; its output:\n" + log);
            return null;
        }

        void destroy() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor();
        }
    }
}
