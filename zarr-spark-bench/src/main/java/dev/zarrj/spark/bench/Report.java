package dev.zarrj.spark.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.bench.data.Host;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The figures of one run and their two forms: a table, and a JSON document shaped as
 * {@code zarr bench}'s ({@code machine}, {@code workloads}, {@code targets}, plus {@code data}).
 * Ratios are of seconds (lower is better for Spark on Zarr): {@code seconds_over_plain} is
 * spark-zarr's median over plain-zarrj's, {@code seconds_over_parquet} over spark-parquet's; the
 * {@code paired_} ones are the medians of the same ratios taken round by round.
 */
final class Report {
    /** Issue 17: the Spark read of the Zarr array within 2x the plain zarrj read... */
    static final double PLAIN_TARGET = 2.0;
    /** ...and no slower than Spark's own Parquet reader. */
    static final double PARQUET_TARGET = 1.0;

    private final Scale scale;
    private final Path dir;
    /** system -> op -> measured seconds, in the order measured. */
    private final Map<String, Map<String, List<Double>>> seconds = new LinkedHashMap<>();
    String sparkVersion;
    long zarrBytesOnDisk;
    long parquetBytesOnDisk;
    Integer zarrPartitions;
    Integer parquetPartitions;
    double sum;
    Optional<Double> loadBefore = Optional.empty();
    Optional<Double> loadAfter = Optional.empty();
    /** Of the CPU time all processes used during the measured rounds, this JVM's part (Linux), or empty. */
    Optional<Double> cpuShare = Optional.empty();

    Report(Scale scale, Path dir) {
        this.scale = scale;
        this.dir = dir;
    }

    void add(String system, String op, double s) {
        seconds.computeIfAbsent(system, k -> new LinkedHashMap<>()).computeIfAbsent(op, k -> new ArrayList<>()).add(s);
    }

    private Optional<double[]> runs(String system, String op) {
        Map<String, List<Double>> m = seconds.get(system);
        List<Double> l = m == null ? null : m.get(op);
        return l == null || l.isEmpty() ? Optional.empty() : Optional.of(l.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private Optional<Double> median(String system, String op) {
        return runs(system, op).map(Report::median);
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private Optional<Double> ratio(String op, String over) {
        Optional<Double> zarr = median(SparkBench.SPARK_ZARR, op);
        Optional<Double> other = median(over, op);
        return zarr.isPresent() && other.isPresent() ? Optional.of(zarr.get() / other.get()) : Optional.empty();
    }

    /**
     * The median over rounds of spark-zarr's seconds over another system's in the same round:
     * steadier than the ratio of the medians when other processes load the machine unevenly,
     * since both sides of each ratio ran within seconds of each other.
     */
    private Optional<Double> pairedRatio(String op, String over) {
        Optional<double[]> zarr = runs(SparkBench.SPARK_ZARR, op);
        Optional<double[]> other = runs(over, op);
        if (zarr.isEmpty() || other.isEmpty() || zarr.get().length != other.get().length) {
            return Optional.empty();
        }
        double[] r = new double[zarr.get().length];
        for (int i = 0; i < r.length; i++) {
            r[i] = zarr.get()[i] / other.get()[i];
        }
        return Optional.of(median(r));
    }

    private double mbPerS(double s) {
        return scale.bytes() / 1e6 / s;
    }

    // ---- the table ----

    void printTable(PrintStream out) {
        String format = "%-11s %-16s %9s %9s %9s %9s %8s %9s %9s %9s%n";
        out.printf(Locale.ROOT, "float32 %s, zstd level 1; %d thread(s); median of %d round(s); MB/s of float data (%.1f MB)%n",
                scale, SparkBench.THREADS, scale.rounds(), scale.bytes() / 1e6);
        out.printf(Locale.ROOT, format, "op", "system", "seconds", "min", "max", "MB/s", "x plain", "x parquet",
                "paired xp", "paired xq");
        for (String op : SparkBench.OPS) {
            for (String system : SparkBench.SYSTEMS) {
                Optional<double[]> runs = runs(system, op);
                if (runs.isEmpty()) {
                    continue;
                }
                double m = median(runs.get());
                boolean zarr = system.equals(SparkBench.SPARK_ZARR);
                out.printf(Locale.ROOT, format, op, system, seconds(m), seconds(Arrays.stream(runs.get()).min().orElseThrow()),
                        seconds(Arrays.stream(runs.get()).max().orElseThrow()), String.format(Locale.ROOT, "%.1f", mbPerS(m)),
                        zarr ? ratio(op, SparkBench.PLAIN).map(Report::ratioText).orElse("") : "",
                        zarr ? ratio(op, SparkBench.SPARK_PARQUET).map(Report::ratioText).orElse("") : "",
                        zarr ? pairedRatio(op, SparkBench.PLAIN).map(Report::ratioText).orElse("") : "",
                        zarr ? pairedRatio(op, SparkBench.SPARK_PARQUET).map(Report::ratioText).orElse("") : "");
            }
        }
        out.println();
        for (ObjectNode t : targets()) {
            out.printf(Locale.ROOT, "target: %s: %s (%s)%n", t.get("target").asText(),
                    t.get("met").isNull() ? "not measured" : t.get("met").asBoolean() ? "met" : "MISSED", t.get("detail").asText());
        }
        out.printf(Locale.ROOT, "stored: Zarr %.1f MB, Parquet %.1f MB; Spark partitions: Zarr %s, Parquet %s%n",
                zarrBytesOnDisk / 1e6, parquetBytesOnDisk / 1e6, zarrPartitions == null ? "-" : zarrPartitions,
                parquetPartitions == null ? "-" : parquetPartitions);
        String load = loadNote();
        if (!load.isEmpty()) {
            out.println(load);
        }
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.3f", s);
    }

    private static String ratioText(double r) {
        return String.format(Locale.ROOT, "%.2f", r);
    }

    /**
     * The load average before and after, and this JVM's share of the CPU time used while it
     * measured, with a warning when other processes took a large part: the load average counts
     * this JVM's own threads, the share does not.
     */
    private String loadNote() {
        List<String> parts = new ArrayList<>();
        if (loadBefore.isPresent() && loadAfter.isPresent()) {
            parts.add(String.format(Locale.ROOT, "load average (1 min): %.2f before, %.2f after, on %d cores", loadBefore.get(),
                    loadAfter.get(), Runtime.getRuntime().availableProcessors()));
        }
        cpuShare.ifPresent(c -> {
            parts.add(String.format(Locale.ROOT, "this JVM used %.0f%% of the CPU time spent on the machine while it measured", 100 * c));
            if (c < 0.9) {
                parts.add("other processes used the rest, so the figures are lower and noisier than on an idle machine");
            }
        });
        return String.join("; ", parts);
    }

    /** CPU time (ns) used by all processes since boot, from Linux {@code /proc/stat}; empty elsewhere. */
    static Optional<Long> machineBusyNanos() {
        try {
            Path p = Path.of("/proc/stat");
            if (!Files.isReadable(p)) {
                return Optional.empty();
            }
            String[] f = Files.readAllLines(p).get(0).trim().split("\\s+");
            // cpu user nice system idle iowait irq softirq steal ...: all but idle and iowait, in clock ticks (USER_HZ, 100).
            long busy = 0;
            for (int i = 1; i < Math.min(f.length, 9); i++) {
                if (i != 4 && i != 5) {
                    busy += Long.parseLong(f[i]);
                }
            }
            return Optional.of(busy * 10_000_000L);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** This JVM's CPU time so far (ns), or empty where the JVM does not say. */
    static Optional<Long> processCpuNanos() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os && os.getProcessCpuTime() >= 0) {
            return Optional.of(os.getProcessCpuTime());
        }
        return Optional.empty();
    }

    // ---- the JSON document ----

    private List<ObjectNode> targets() {
        List<ObjectNode> out = new ArrayList<>();
        out.add(target(String.format(Locale.ROOT, "Spark read of the Zarr array within %.0fx the plain zarrj read (seconds)",
                PLAIN_TARGET), SparkBench.PLAIN, PLAIN_TARGET));
        out.add(target("Spark read of the Zarr array no slower than Spark's Parquet reader (seconds)", SparkBench.SPARK_PARQUET,
                PARQUET_TARGET));
        return out;
    }

    private ObjectNode target(String name, String over, double limit) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("target", name);
        List<String> parts = new ArrayList<>();
        Boolean met = null;
        for (String op : SparkBench.OPS) {
            Optional<Double> r = ratio(op, over);
            if (r.isPresent()) {
                boolean ok = r.get() <= limit;
                met = (met == null || met) && ok;
                parts.add(String.format(Locale.ROOT, "%s %.2fx (%.3f s against %.3f s)%s", op, r.get(),
                        median(SparkBench.SPARK_ZARR, op).orElseThrow(), median(over, op).orElseThrow(), ok ? "" : " missed"));
            }
        }
        if (met == null) {
            n.putNull("met");
        } else {
            n.put("met", met);
        }
        n.put("detail", parts.isEmpty() ? "not measured in this run" : String.join(", ", parts));
        return n;
    }

    ObjectNode toJson() {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.set("machine", machine());
        ObjectNode data = doc.putObject("data");
        ArrayNode shape = data.putArray("shape");
        Arrays.stream(scale.shape()).forEach(shape::add);
        ArrayNode chunks = data.putArray("chunks");
        Arrays.stream(scale.chunks()).forEach(chunks::add);
        data.put("codecs", "bytes, zstd level 1");
        data.put("float_bytes", scale.bytes());
        data.put("zarr_bytes_on_disk", zarrBytesOnDisk);
        data.put("parquet_bytes_on_disk", parquetBytesOnDisk);
        data.put("parquet_compression", "zstd");
        if (zarrPartitions != null) {
            data.put("spark_zarr_partitions", zarrPartitions);
        }
        if (parquetPartitions != null) {
            data.put("spark_parquet_partitions", parquetPartitions);
        }
        data.put("warmups", scale.warmups());
        data.put("rounds", scale.rounds());
        data.put("sum", sum);
        ArrayNode w = doc.putArray("workloads");
        for (String op : SparkBench.OPS) {
            for (String system : SparkBench.SYSTEMS) {
                Optional<double[]> runs = runs(system, op);
                if (runs.isEmpty()) {
                    continue;
                }
                double m = median(runs.get());
                ObjectNode r = w.addObject();
                r.put("name", "spark/" + system);
                r.put("op", op);
                r.put("threads", SparkBench.THREADS);
                r.put("seconds", round(m, 6));
                r.put("min_seconds", round(Arrays.stream(runs.get()).min().orElseThrow(), 6));
                r.put("max_seconds", round(Arrays.stream(runs.get()).max().orElseThrow(), 6));
                r.put("samples", runs.get().length);
                r.put("mb_per_s", round(mbPerS(m), 5));
                if (system.equals(SparkBench.SPARK_ZARR)) {
                    ratio(op, SparkBench.PLAIN).ifPresent(x -> r.put("seconds_over_plain", round(x, 4)));
                    ratio(op, SparkBench.SPARK_PARQUET).ifPresent(x -> r.put("seconds_over_parquet", round(x, 4)));
                    pairedRatio(op, SparkBench.PLAIN).ifPresent(x -> r.put("paired_seconds_over_plain", round(x, 4)));
                    pairedRatio(op, SparkBench.SPARK_PARQUET).ifPresent(x -> r.put("paired_seconds_over_parquet", round(x, 4)));
                }
                r.put("bytes", scale.bytes());
            }
        }
        ArrayNode t = doc.putArray("targets");
        targets().forEach(t::add);
        return doc;
    }

    void writeJson(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(toJson()) + "\n");
    }

    private ObjectNode machine() {
        ObjectNode m = JsonNodeFactory.instance.objectNode();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("cpu", Host.procField("/proc/cpuinfo", "model name").orElse(System.getProperty("os.arch")));
        Host.procField("/proc/meminfo", "MemTotal").map(v -> Long.parseLong(v.replaceAll("[^0-9]", "")) * 1024 / 1_000_000)
                .ifPresent(mb -> m.put("mem_total_mb", mb));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("arch", System.getProperty("os.arch"));
        m.put("java", System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")");
        m.put("jvm_max_heap_mb", Math.round(Runtime.getRuntime().maxMemory() / 1e6));
        m.put("zarrj", Host.zarrjVersion());
        m.put("spark", sparkVersion);
        m.put("quick", scale.name().equals(Scale.QUICK.name()));
        m.put("dir", dir.toString());
        loadBefore.ifPresent(l -> m.put("load_average_before", l));
        loadAfter.ifPresent(l -> m.put("load_average_after", l));
        cpuShare.ifPresent(c -> m.put("cpu_share", round(c, 3)));
        return m;
    }

    /** Significant digits only, as zarr bench rounds its figures. */
    private static double round(double value, int digits) {
        if (value == 0 || Double.isNaN(value) || Double.isInfinite(value)) {
            return value;
        }
        return new BigDecimal(value).round(new MathContext(digits)).doubleValue();
    }
}
