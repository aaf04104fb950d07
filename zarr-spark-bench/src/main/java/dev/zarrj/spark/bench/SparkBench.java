package dev.zarrj.spark.bench;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.bench.data.Host;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.PrintStream;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * Issue 17's benchmark: a float32 {@code [256, 512, 512]} zstd-1 array aggregated (sum, and the
 * mean of each {@code dim_0} slice) three ways in one JVM, on 2 cores:
 * <ol>
 *   <li>{@code plain-zarrj}: zarrj reads the whole array with 2 threads, Java aggregates it
 *       (2 threads);</li>
 *   <li>{@code spark-zarr}: {@code spark.read().format("zarr")} in a {@code local[2]} session,
 *       {@code agg(sum(value))} and {@code groupBy(dim_0).agg(avg(value))};</li>
 *   <li>{@code spark-parquet}: the same two queries on the same values written as Parquet (zstd)
 *       by Spark;</li>
 *   <li>{@code spark-zarr-rows}, a diagnostic: {@code spark-zarr} with {@code aggregatePushDown=false},
 *       Spark aggregating one row per element;</li>
 *   <li>{@code spark-range}, a diagnostic: the same queries on rows {@code spark.range} generates,
 *       which read nothing, so that what Spark's aggregation costs by itself is known;</li>
 *   <li>{@code spark-chunk-agg}, a diagnostic: Spark tasks that aggregate each chunk in Java,
 *       what aggregate push-down into the zarr source would give.</li>
 * </ol>
 * Warm-up rounds, then measured rounds; in each round every system runs each query once, in an
 * order that rotates from round to round, so that all see the same state of the machine. Reports
 * the median seconds, MB/s of float data, and the ratios {@code spark-zarr / plain-zarrj} (target
 * at most 2) and {@code spark-zarr / spark-parquet} (target at most 1), as a table on standard
 * output and a JSON document. Every result is checked against the plain read's; a disagreement
 * fails the run (exit status 1). Run it with {@code bench/spark-bench} (docs/benchmarks.md,
 * "Spark").
 */
public final class SparkBench {
    static final String PLAIN = "plain-zarrj";
    static final String SPARK_ZARR = "spark-zarr";
    static final String SPARK_PARQUET = "spark-parquet";
    /**
     * A diagnostic, not one of issue 17's systems: the same queries on rows that {@code spark.range}
     * generates (value = dim_2 as float), which read nothing: what Spark's aggregation costs alone.
     */
    static final String SPARK_RANGE = "spark-range";
    /**
     * A diagnostic, not one of issue 17's systems: Spark tasks (as many as the zarr source plans)
     * that read chunks with zarrj and aggregate each chunk in Java, returning one partial row per
     * chunk and slice: what aggregate push-down into the zarr source would leave Spark to do.
     */
    static final String SPARK_CHUNK_AGG = "spark-chunk-agg";
    /**
     * A diagnostic: {@link #SPARK_ZARR} with {@code aggregatePushDown=false}, so that Spark
     * aggregates one row per element as it does for Parquet.
     */
    static final String SPARK_ZARR_ROWS = "spark-zarr-rows";
    static final List<String> SYSTEMS = List.of(PLAIN, SPARK_ZARR, SPARK_PARQUET, SPARK_ZARR_ROWS, SPARK_RANGE,
            SPARK_CHUNK_AGG);
    static final String SUM = "sum";
    static final String SLICE_MEAN = "slice-mean";
    static final List<String> OPS = List.of(SUM, SLICE_MEAN);
    /** The cores every system gets: Spark's local[2], zarrj's threads, the Java aggregation's. */
    static final int THREADS = 2;

    /** The default of {@code --dir}, which bench/spark-bench sets to the repository's target/spark-bench. */
    static final String DIR_PROPERTY = "zarrj.sparkbench.dir";

    private static final String USAGE = String.join("\n",
            "usage: bench/spark-bench [--quick] [--dir DIR] [--json FILE] [--rounds N] [--warmups N] [--only SYSTEMS]",
            "  --quick       a small array [32,128,128] and one round: a smoke test",
            "  --dir DIR     where the data are written once and kept (default target/spark-bench of the repository)",
            "  --json FILE   the JSON document (default DIR/spark-bench-<full|quick>.json)",
            "  --rounds N    measured rounds (default 5; --quick: 1)",
            "  --warmups N   warm-up rounds, not measured (default 2; --quick: 0)",
            "  --only S,...  time only these of " + SYSTEMS + " (every result is still checked)");

    private final Settings settings;
    private final PrintStream log;

    record Settings(Scale scale, Path dir, Path json, List<String> systems) {}

    private SparkBench(Settings settings, PrintStream log) {
        this.settings = settings;
        this.log = log;
    }

    /** Runs the benchmark; exit status 0, 1 when a result disagreed or a system failed, 2 on a usage error. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Settings settings;
        try {
            settings = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("spark-bench: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (settings == null) {
            out.println(USAGE);
            return 0;
        }
        try {
            Report report = new SparkBench(settings, err).measure();
            report.writeJson(settings.json());
            report.printTable(out);
            out.println();
            out.println("JSON: " + settings.json());
            return 0;
        } catch (Exception e) {
            err.println("spark-bench: FAILED: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }

    static Settings parse(String[] args) {
        boolean quick = false;
        Path dir = Path.of(System.getProperty(DIR_PROPERTY, "target/spark-bench"));
        Path json = null;
        Integer rounds = null;
        Integer warmups = null;
        List<String> systems = SYSTEMS;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-h", "--help" -> {
                    return null;
                }
                case "--quick" -> quick = true;
                case "--dir" -> dir = Path.of(value(args, ++i, a));
                case "--json" -> json = Path.of(value(args, ++i, a));
                case "--rounds" -> rounds = count(value(args, ++i, a), a, 1);
                case "--warmups" -> warmups = count(value(args, ++i, a), a, 0);
                case "--only" -> {
                    systems = new ArrayList<>();
                    for (String s : value(args, ++i, a).split(",")) {
                        if (!SYSTEMS.contains(s.trim())) {
                            throw new IllegalArgumentException("--only: unknown system '" + s.trim() + "'; one of " + SYSTEMS);
                        }
                        systems.add(s.trim());
                    }
                }
                default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
        }
        Scale scale = quick ? Scale.QUICK : Scale.FULL;
        scale = scale.withRounds(warmups == null ? scale.warmups() : warmups, rounds == null ? scale.rounds() : rounds);
        if (json == null) {
            json = dir.resolve("spark-bench-" + scale.name() + ".json");
        }
        return new Settings(scale, dir.toAbsolutePath(), json.toAbsolutePath(), List.copyOf(systems));
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int count(String s, String option, int least) {
        try {
            int n = Integer.parseInt(s);
            if (n >= least) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " " + s + ": must be a whole number >= " + least);
    }

    private Report measure() throws Exception {
        Scale scale = settings.scale();
        Report report = new Report(scale, settings.dir());
        report.loadBefore = Host.loadAverage();
        log.printf(Locale.ROOT, "spark-bench: %s, %d warm-up and %d measured round(s), in %s%n", scale, scale.warmups(),
                scale.rounds(), settings.dir());
        Path sparkTmp = Files.createTempDirectory("zarrj-spark-bench-");
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        SparkSession spark = null;
        try (Zarr zarr = Zarr.builder().threads(THREADS).build()) {
            BenchData data = new BenchData(settings.dir(), scale);
            long t0 = System.nanoTime();
            if (data.ensureZarr(zarr)) {
                log.printf(Locale.ROOT, "  wrote the Zarr array in %.1f s: %s%n", (System.nanoTime() - t0) / 1e9, data.zarrStore());
            }
            spark = session(sparkTmp);
            report.sparkVersion = spark.version();
            t0 = System.nanoTime();
            if (data.ensureParquet(spark)) {
                log.printf(Locale.ROOT, "  wrote the Parquet copy in %.1f s: %s%n", (System.nanoTime() - t0) / 1e9, data.parquet());
            }
            report.zarrBytesOnDisk = BenchData.sizeOnDisk(data.zarrStore());
            report.parquetBytesOnDisk = BenchData.sizeOnDisk(data.parquet());

            try (Store store = zarr.openStore(data.zarrStore().toString(), true)) {
                Map<String, Query> systems = new LinkedHashMap<>();
                systems.put(PLAIN, op -> plain(zarr, store, pool, op));
                SparkSession s = spark;
                systems.put(SPARK_ZARR, op -> aggregate(zarrFrame(s, data), op, scale));
                systems.put(SPARK_PARQUET, op -> aggregate(s.read().parquet(data.parquet().toString()), op, scale));
                systems.put(SPARK_ZARR_ROWS, op -> aggregate(s.read().format("zarr").option("aggregatePushDown", "false")
                        .load(data.zarrStore().toString()), op, scale));
                systems.put(SPARK_RANGE, op -> aggregate(rangeFrame(s, scale), op, scale));
                int chunkTasks = settings.systems().contains(SPARK_ZARR) ? zarrFrame(spark, data).rdd().getNumPartitions() : THREADS;
                systems.put(SPARK_CHUNK_AGG, op -> ChunkAggregation.run(s, data.zarrStore().toString(), scale, chunkTasks, op));

                // The reference every result is checked against, untimed.
                Map<String, Aggregates> reference = new LinkedHashMap<>();
                Map<String, Aggregates> rangeReference = new LinkedHashMap<>();
                for (String op : OPS) {
                    reference.put(op, systems.get(PLAIN).run(op));
                    rangeReference.put(op, rangeExpected(scale, op));
                }
                report.sum = reference.get(SUM).sum();
                if (settings.systems().contains(SPARK_ZARR)) {
                    report.zarrPartitions = zarrFrame(spark, data).rdd().getNumPartitions();
                }
                if (settings.systems().contains(SPARK_PARQUET)) {
                    report.parquetPartitions = spark.read().parquet(data.parquet().toString()).rdd().getNumPartitions();
                }

                List<String> timed = settings.systems();
                int total = scale.warmups() + scale.rounds();
                Optional<Long> machineStart = Optional.empty();
                Optional<Long> jvmStart = Optional.empty();
                for (int round = 0; round < total; round++) {
                    boolean measured = round >= scale.warmups();
                    if (round == scale.warmups()) {
                        machineStart = Report.machineBusyNanos();
                        jvmStart = Report.processCpuNanos();
                    }
                    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %s %d/%d:",
                            measured ? "round" : "warm-up", measured ? round - scale.warmups() + 1 : round + 1,
                            measured ? scale.rounds() : scale.warmups()));
                    for (String op : OPS) {
                        for (int k = 0; k < timed.size(); k++) {
                            String system = timed.get((k + round) % timed.size());
                            System.gc();
                            long start = System.nanoTime();
                            Aggregates result = systems.get(system).run(op);
                            double seconds = (System.nanoTime() - start) / 1e9;
                            result.check((system.equals(SPARK_RANGE) ? rangeReference : reference).get(op), scale.elements(),
                                    system + " " + op);
                            if (measured) {
                                report.add(system, op, seconds);
                            }
                            line.append(String.format(Locale.ROOT, " %s %s %.3f s;", system, op, seconds));
                        }
                    }
                    log.println(line);
                }
                Optional<Long> machineEnd = Report.machineBusyNanos();
                Optional<Long> jvmEnd = Report.processCpuNanos();
                if (machineStart.isPresent() && jvmStart.isPresent() && machineEnd.isPresent() && jvmEnd.isPresent()
                        && machineEnd.get() > machineStart.get()) {
                    report.cpuShare = Optional.of(Math.min(1.0,
                            (double) (jvmEnd.get() - jvmStart.get()) / (machineEnd.get() - machineStart.get())));
                }
            }
        } finally {
            pool.shutdown();
            if (spark != null) {
                spark.stop();
            }
            BenchData.deleteTree(sparkTmp);
        }
        report.loadAfter = Host.loadAverage();
        return report;
    }

    /** One system: runs one query ({@link #SUM} or {@link #SLICE_MEAN}) from the stored data to its result. */
    private interface Query {
        Aggregates run(String op) throws Exception;
    }

    private static SparkSession session(Path tmp) {
        SparkSession spark = SparkSession.builder()
                .master("local[" + THREADS + "]")
                .appName("zarrj spark-bench")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", String.valueOf(THREADS))
                .config("spark.sql.parquet.compression.codec", "zstd")
                .config("spark.sql.warehouse.dir", tmp.resolve("warehouse").toString())
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        return spark;
    }

    private static Dataset<Row> zarrFrame(SparkSession spark, BenchData data) {
        return spark.read().format("zarr").load(data.zarrStore().toString());
    }

    /** The rows of {@link #SPARK_RANGE}: the dimension columns of the array, value = dim_2 as float. */
    private static Dataset<Row> rangeFrame(SparkSession spark, Scale scale) {
        long[] s = scale.shape();
        return spark.range(0, scale.elements()).selectExpr(String.format(Locale.ROOT, "id DIV %d AS dim_0", s[1] * s[2]),
                String.format(Locale.ROOT, "(id DIV %d) %% %d AS dim_1", s[2], s[1]),
                String.format(Locale.ROOT, "CAST(id %% %d AS FLOAT) AS value", s[2]));
    }

    /** What {@link #rangeFrame} aggregates to, exactly (sums of small integers are exact in double). */
    private static Aggregates rangeExpected(Scale scale, String op) {
        long[] s = scale.shape();
        double rowMean = (s[2] - 1) / 2.0;
        if (op.equals(SUM)) {
            return Aggregates.ofSum(rowMean * scale.elements());
        }
        double[] means = new double[(int) s[0]];
        Arrays.fill(means, rowMean);
        return Aggregates.ofSliceMeans(means);
    }

    /** The Spark query of {@code op} on a table with columns dim_0, dim_1, dim_2 and value. */
    private static Aggregates aggregate(Dataset<Row> frame, String op, Scale scale) {
        if (op.equals(SUM)) {
            return Aggregates.ofSum(frame.agg(functions.sum("value")).first().getDouble(0));
        }
        double[] means = new double[(int) scale.shape()[0]];
        Arrays.fill(means, Double.NaN);
        for (Row r : frame.groupBy("dim_0").agg(functions.avg("value")).collectAsList()) {
            means[Math.toIntExact(r.getLong(0))] = r.getDouble(1);
        }
        return Aggregates.ofSliceMeans(means);
    }

    /** zarrj's plain read of the whole array, then the aggregation in Java on {@link #THREADS} threads. */
    private static Aggregates plain(Zarr zarr, Store store, ExecutorService pool, String op) throws Exception {
        ZarrArray array = zarr.openArray(store, "/");
        NdArray data = array.read();
        long[] shape = array.shape();
        int slices = (int) shape[0];
        int plane = Math.toIntExact(shape[1] * shape[2]);
        FloatBuffer values = data.bytes().asFloatBuffer();
        double[] sums = new double[slices];
        List<Future<?>> parts = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int first = slices * t / THREADS;
            int end = slices * (t + 1) / THREADS;
            parts.add(pool.submit(() -> {
                for (int z = first; z < end; z++) {
                    double s = 0;
                    for (int i = z * plane, last = i + plane; i < last; i++) {
                        s += values.get(i);
                    }
                    sums[z] = s;
                }
            }));
        }
        for (Future<?> f : parts) {
            f.get();
        }
        if (op.equals(SUM)) {
            double total = 0;
            for (double s : sums) {
                total += s;
            }
            return Aggregates.ofSum(total);
        }
        double[] means = new double[slices];
        for (int z = 0; z < slices; z++) {
            means[z] = sums[z] / plane;
        }
        return Aggregates.ofSliceMeans(means);
    }
}
