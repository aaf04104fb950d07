package dev.zarrj.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The performance targets of issue 8, checked against one run's rows. Information only: a target
 * missed never changes the exit status.
 */
final class Targets {
    static final double CEILING_RATIO = 0.85;
    static final double INNER_CHUNK_RATIO = 0.5;
    static final long INNER_CHUNK_REQUESTS = 2;
    static final double ROUND_TRIP_RSS_MB = 500;
    /** Each added thread is worth at least 0.85 of one: 1.7x for two. */
    static final double SCALING_EFFICIENCY = 0.85;

    private Targets() {}

    /** A target, whether it was met (null: not measured in this run) and the figures behind the answer. */
    record Target(String target, Boolean met, String detail) {
        ObjectNode toJson() {
            ObjectNode n = JsonNodeFactory.instance.objectNode();
            n.put("target", target);
            n.put("met", met);
            n.put("detail", detail);
            return n;
        }
    }

    static List<Target> evaluate(List<Row> rows, List<Failure> failures, int threads, Scale scale) {
        List<Target> out = new ArrayList<>();
        out.add(ceiling(rows, threads));
        out.add(innerChunk(rows));
        out.add(roundTripRss(rows, failures, scale));
        out.add(streaming(rows, failures, scale));
        out.add(scaling(rows, threads));
        return out;
    }

    private static Target ceiling(List<Row> rows, int threads) {
        String name = String.format(Locale.ROOT, "float32 whole-array write and read >= %.2fx the ceiling with %d threads",
                CEILING_RATIO, threads);
        List<String> parts = new ArrayList<>();
        boolean met = true;
        for (Row r : rows) {
            if (r.name.startsWith("float32/") && (r.op.equals("write") || r.op.equals("read"))
                    && r.threads == threads && r.ceilingMbPerS != null) {
                boolean ok = r.ratioToCeiling() >= CEILING_RATIO;
                met &= ok;
                parts.add(String.format(Locale.ROOT, "%s %s %.2f%s", chain(r), r.op, r.ratioToCeiling(), ok ? "" : " missed"));
            }
        }
        return parts.isEmpty() ? new Target(name, null, "not measured in this run") : new Target(name, met, String.join(", ", parts));
    }

    private static Target innerChunk(List<Row> rows) {
        String name = String.format(Locale.ROOT, "sharded inner chunk: <= %d store requests and >= %.1fx the throughput of"
                + " the same-size unsharded chunk", INNER_CHUNK_REQUESTS, INNER_CHUNK_RATIO);
        Optional<Row> r = find(rows, "float32/sharding-zstd-1", "read-inner-chunk", null);
        if (r.isEmpty()) {
            return new Target(name, null, "not measured in this run");
        }
        Row row = r.get();
        boolean met = row.storeRequests <= INNER_CHUNK_REQUESTS && row.ratioToCeiling() >= INNER_CHUNK_RATIO;
        return new Target(name, met, String.format(Locale.ROOT, "%d store requests, %.2fx (%.3f ms against %.3f ms)",
                row.storeRequests, row.ratioToCeiling(), row.seconds * 1e3, row.bytes / 1e6 / row.ceilingMbPerS * 1e3));
    }

    private static Target roundTripRss(List<Row> rows, List<Failure> failures, Scale scale) {
        String name = String.format(Locale.ROOT, "uint16 sharded round trip of %s within %.0f MB peak RSS",
                size(2 * VolumeBench.count(scale.uint16Shape())), ROUND_TRIP_RSS_MB);
        Optional<Row> r = find(rows, "uint16/sharding-zstd", VolumeBench.ROUND_TRIP, null);
        Optional<Failure> f = failures.stream()
                .filter(x -> x.name().equals("uint16/sharding-zstd") && x.op().equals(VolumeBench.ROUND_TRIP)).findFirst();
        if (f.isPresent()) {
            return new Target(name, false, f.get().error());
        }
        if (r.isEmpty() || r.get().peakRssMb == null) {
            return new Target(name, null, r.isEmpty() ? "not measured in this run" : "peak RSS unknown on this system");
        }
        Row row = r.get();
        return new Target(name, row.peakRssMb <= ROUND_TRIP_RSS_MB, String.format(Locale.ROOT,
                "peak RSS %.0f MB (-Xmx%dm), %.1f s", row.peakRssMb,
                VolumeBench.heapMib(VolumeBench.uint16(scale).get(2), VolumeBench.ROUND_TRIP), row.seconds));
    }

    private static Target streaming(List<Row> rows, List<Failure> failures, Scale scale) {
        VolumeBench.Spec spec = VolumeBench.stream(scale);
        String name = "streaming " + size(spec.byteSize()) + " region by region within -Xmx"
                + VolumeBench.heapMib(spec, VolumeBench.STREAM_WRITE) + "m";
        List<String> parts = new ArrayList<>();
        boolean measured = false;
        boolean met = true;
        for (String op : List.of(VolumeBench.STREAM_WRITE, VolumeBench.STREAM_READ)) {
            Optional<Failure> f = failures.stream().filter(x -> x.name().equals(spec.name()) && x.op().equals(op)).findFirst();
            Optional<Row> r = find(rows, spec.name(), op, null);
            if (f.isPresent()) {
                measured = true;
                met = false;
                parts.add(op + " failed: " + f.get().error());
            } else if (r.isPresent()) {
                measured = true;
                Row row = r.get();
                parts.add(String.format(Locale.ROOT, "%s completed, peak RSS %s MB, heap max %.0f MB", op,
                        row.peakRssMb == null ? "?" : String.format(Locale.ROOT, "%.0f", row.peakRssMb), row.heapMaxMb));
            }
        }
        return measured ? new Target(name, met, String.join("; ", parts)) : new Target(name, null, "not measured in this run");
    }

    private static Target scaling(List<Row> rows, int threads) {
        double want = SCALING_EFFICIENCY * threads;
        String name = String.format(Locale.ROOT, "%d threads >= %.2fx 1 thread on compressed chains, write and read",
                threads, want);
        if (threads < 2) {
            return new Target(name, null, "not measured: --threads 1");
        }
        List<String> parts = new ArrayList<>();
        boolean met = true;
        for (Row one : rows) {
            if (!one.name.startsWith("float32/") || one.threads != 1 || !(one.op.equals("write") || one.op.equals("read"))) {
                continue;
            }
            Optional<Row> many = find(rows, one.name, one.op, threads);
            if (many.isEmpty()) {
                continue;
            }
            double speedup = many.get().mbPerS / one.mbPerS;
            boolean ok = speedup >= want;
            met &= ok;
            // The ceiling's own speed-up says what the machine allowed (other processes take cores too).
            String ceiling = one.ceilingMbPerS == null || many.get().ceilingMbPerS == null ? ""
                    : String.format(Locale.ROOT, " (ceiling %.2fx)", many.get().ceilingMbPerS / one.ceilingMbPerS);
            parts.add(String.format(Locale.ROOT, "%s %s %.2fx%s%s", chain(one), one.op, speedup, ceiling, ok ? "" : " missed"));
        }
        return parts.isEmpty() ? new Target(name, null, "not measured in this run") : new Target(name, met, String.join(", ", parts));
    }

    private static Optional<Row> find(List<Row> rows, String name, String op, Integer threads) {
        return rows.stream().filter(r -> r.name.equals(name) && r.op.equals(op)
                && (threads == null || threads.equals(r.threads))).findFirst();
    }

    private static String chain(Row r) {
        return r.name.substring(r.name.indexOf('/') + 1);
    }

    /** 2147483648 -> "2 GiB", 268435456 -> "256 MiB". */
    static String size(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
