package dev.zarrj.reliability.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.store.fs.FileStores;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sixteen threads read and write random regions of one int32 array for a bounded time; then every
 * stored chunk (a shard, when sharded) must be explained by a linearizable history of the writes
 * that touched it ({@link History}), and every value a reader saw must be the fill value or the id
 * of a write that covered that element and had started before the read ended.
 *
 * <p>Each write fills its region with a unique id ({@code 1 + thread + THREADS * n}) and records
 * the times it started and returned. Regions are random (partial updates of chunks, read, modify,
 * write) or aligned to whole chunks (written without reading), so both paths race on one chunk.
 *
 * <p>Seeded: the seed is printed and {@code -Dzarrj.stress.seed=N} replays each thread's sequence of
 * operations (the interleaving is the scheduler's); {@code -Dzarrj.stress.millis=N} sets the time
 * per configuration (default 2500).
 */
class ConcurrencyStressTest {
    static final int THREADS = 16;
    static final int SIZE = 64;
    private static final long MILLIS = Long.getLong("zarrj.stress.millis", 2500);

    @TempDir
    Path dir;

    record Config(String store, boolean sharded, int ioConcurrency) {
        static Config parse(String s) {
            String[] p = s.split(" ");
            return new Config(p[0], p[1].equals("sharded"), p.length > 2 ? Integer.parseInt(p[2]) : 0);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"memory unsharded", "memory sharded", "file unsharded", "file sharded",
            "file unsharded 64", "file sharded 64"})
    void everyChunkIsExplainedByALinearizableHistory(String how) throws Exception {
        Config config = Config.parse(how);
        long seed = Long.getLong("zarrj.stress.seed", new Random().nextLong());
        System.out.println("ConcurrencyStressTest [" + how + "] seed " + seed
                + " (replay: -Dzarrj.stress.seed=" + seed + ")");
        Zarr.Builder builder = Zarr.builder();
        if (config.ioConcurrency() > 0) {
            builder.ioConcurrency(config.ioConcurrency());
        }
        try (Zarr z = builder.build()) {
            Store store = config.store().equals("memory") ? z.openStore("memory:")
                    : FileStores.open(dir.resolve("a.zarr"), false);
            var b = z.array(DataTypes.INT32, SIZE, SIZE).fillValue(0);
            // Storage units: 16 chunks of 16x16; or 4 shards of 32x32 holding 8x8 chunks.
            b = config.sharded() ? b.chunks(8, 8).shards(32, 32) : b.chunks(16, 16);
            long unit = config.sharded() ? 32 : 16;
            ZarrArray a = b.create(store, "/a");
            Result r = run(a, unit, seed);
            System.out.printf("ConcurrencyStressTest [%s] %d threads, %d ms: %d writes, %d reads (%d values checked),"
                            + " %d chunks checked, %d write-chunk pairs, 0 lost%n", how, THREADS, r.millis, r.writes,
                    r.reads, r.valuesRead, r.chunks, r.pairs);
            assertTrue(r.writes > THREADS && r.reads > THREADS, "the run did some work");
            // Sharded too: a partial read of a shard reads its index and inner chunks through one
            // range reader, so a shard replaced in between never gives another inner chunk's values.
            if (!r.badReads.isEmpty()) {
                fail(r.badReads.size() + " reads saw a value no covering write explains; first: " + r.badReads.get(0));
            }
        }
    }

    record Result(long millis, int writes, int reads, long valuesRead, int chunks, long pairs, List<String> badReads) {}

    private static Result run(ZarrArray a, long unit, long seed) throws Exception {
        List<History.Write> writes = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            writes.add(null);
        }
        ConcurrentLinkedQueue<History.Write> done = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<History.Read> reads = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger readCount = new AtomicInteger();
        long started = System.nanoTime();
        long deadline = started + MILLIS * 1_000_000L;
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            threads[t] = new Thread(() -> {
                Random rnd = new Random(seed * 31 + thread);
                try {
                    for (int n = 0; System.nanoTime() < deadline; n++) {
                        long[] off = new long[2];
                        long[] shape = new long[2];
                        region(rnd, unit, off, shape);
                        if (rnd.nextBoolean()) {
                            int id = 1 + thread + THREADS * n;
                            int[] values = new int[(int) (shape[0] * shape[1])];
                            java.util.Arrays.fill(values, id);
                            long start = System.nanoTime();
                            a.write(off, shape, values);
                            done.add(new History.Write(id, off, shape, start, System.nanoTime()));
                        } else {
                            long start = System.nanoTime();
                            int[] got = a.read(off, shape).toIntArray();
                            reads.add(new History.Read(off, shape, got, start, System.nanoTime()));
                            readCount.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "stress-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        if (!failures.isEmpty()) {
            Throwable first = failures.peek();
            throw new AssertionError(failures.size() + " threads failed; first: " + first, first);
        }
        int[] fin = a.read(new long[2], new long[] {SIZE, SIZE}).toIntArray();
        History h = new History(SIZE, new ArrayList<>(done));
        long pairs = 0;
        int chunks = 0;
        for (long c0 = 0; c0 < SIZE; c0 += unit) {
            for (long c1 = 0; c1 < SIZE; c1 += unit) {
                pairs += h.checkChunk(fin, new long[] {c0, c1}, new long[] {unit, unit});
                chunks++;
            }
        }
        long valuesRead = 0;
        List<String> torn = new ArrayList<>();
        for (History.Read r : reads) {
            try {
                valuesRead += h.checkRead(r);
            } catch (AssertionError e) {
                torn.add(e.getMessage());
            }
        }
        return new Result(millis, done.size(), readCount.get(), valuesRead, chunks, pairs, torn);
    }

    /** A random region: a third aligned to whole storage units, the rest of any shape up to 24x24. */
    private static void region(Random rnd, long unit, long[] off, long[] shape) {
        long units = SIZE / unit;
        boolean aligned = rnd.nextInt(3) == 0;
        for (int d = 0; d < 2; d++) {
            if (aligned) {
                long first = rnd.nextLong(units);
                off[d] = first * unit;
                shape[d] = unit * (1 + rnd.nextLong(Math.min(2, units - first)));
            } else {
                shape[d] = 1 + rnd.nextInt(24);
                off[d] = rnd.nextLong(SIZE - shape[d] + 1);
            }
        }
    }
}
