package dev.zarrj.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The performance targets of issues 8, 14 (the remote section) and 23 (against tensorstore), checked against one run's rows.
 * Information only: a target missed never changes the exit status.
 */
final class Targets {
    static final double CEILING_RATIO = 0.85;
    static final double INNER_CHUNK_RATIO = 0.5;
    /** Issue 18: a selection read against the read of its covering region (see Float32Bench#selections). */
    static final double SELECTION_RATIO = 0.8;
    static final long INNER_CHUNK_REQUESTS = 2;
    static final double ROUND_TRIP_RSS_MB = 500;
    /** Each added thread is worth at least 0.85 of one: 1.7x for two. */
    static final double SCALING_EFFICIENCY = 0.85;
    /** Issue 14: at 50 ms per request, whole-array reads and writes keep this much of their speed at 0 ms. */
    static final double LATENCY_HIDDEN = 0.7;
    /** Issue 14: asynchronous fetching at 20 ms against ioConcurrency = threads. */
    static final double CONCURRENCY_REAL = 5;
    static final double AGAINST_ZARRITA = 3;
    static final double REMOTE_BIG_RSS_MB = 512;
    /** Issue 23: every float32 operation against tensorstore's, and whole-array reads with a margin. */
    static final double AGAINST_TENSORSTORE = 1.0;
    static final double READ_AGAINST_TENSORSTORE = 1.5;

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
        out.add(selections(rows));
        out.add(roundTripRss(rows, failures, scale));
        out.add(streaming(rows, failures, scale));
        out.add(scaling(rows, threads));
        out.add(latencyHidden(rows));
        out.add(concurrencyReal(rows));
        out.add(againstZarrita(rows));
        out.add(remoteBigRss(rows, failures));
        out.add(againstTensorstore(rows, "every float32 op", r -> true, AGAINST_TENSORSTORE));
        out.add(againstTensorstore(rows, "whole-array reads", r -> r.op.equals("read"), READ_AGAINST_TENSORSTORE));
        return out;
    }

    // ---- the remote section (issue 14) ----

    private static Optional<Row> remote(List<Row> rows, String name, String op, int latency) {
        return rows.stream().filter(r -> r.name.equals(name) && r.op.equals(op) && r.latencyMs != null
                && r.latencyMs == latency).findFirst();
    }

    /** The remote arrays the targets are set on: {@link RemoteBench#SMALL_CHUNKS} is reported beside them, not judged. */
    private static List<String> remoteChains(List<Row> rows) {
        List<String> out = new ArrayList<>();
        for (Row r : rows) {
            if (r.name.startsWith(RemoteBench.PREFIX) && r.latencyMs != null && r.op.equals("read")
                    && !r.name.startsWith(RemoteBench.ZARRITA) && !r.name.equals(RemoteBench.BIG)
                    && !r.name.equals(RemoteBench.PREFIX + RemoteBench.SMALL_CHUNKS.name()) && !out.contains(r.name)) {
                out.add(r.name);
            }
        }
        return out;
    }

    private static Target latencyHidden(List<Row> rows) {
        int far = RemoteBench.LATENCIES.get(RemoteBench.LATENCIES.size() - 1);
        String name = String.format(Locale.ROOT, "remote: whole-array read and write at %d ms >= %.1fx the same at 0 ms",
                far, LATENCY_HIDDEN);
        List<String> parts = new ArrayList<>();
        boolean met = true;
        for (String chain : remoteChains(rows)) {
            for (String op : List.of("write", "read")) {
                Optional<Row> near = remote(rows, chain, op, 0);
                Optional<Row> distant = remote(rows, chain, op, far);
                if (near.isPresent() && distant.isPresent()) {
                    double ratio = distant.get().mbPerS / near.get().mbPerS;
                    boolean ok = ratio >= LATENCY_HIDDEN;
                    met &= ok;
                    parts.add(String.format(Locale.ROOT, "%s %s %.2fx (%.1f against %.1f MB/s)%s", chain(distant.get()), op,
                            ratio, distant.get().mbPerS, near.get().mbPerS, ok ? "" : " missed"));
                }
            }
        }
        return parts.isEmpty() ? new Target(name, null, "not measured in this run (--remote)")
                : new Target(name, met, String.join(", ", parts));
    }

    private static Target concurrencyReal(List<Row> rows) {
        int l = RemoteBench.COMPARE_LATENCY;
        String name = String.format(Locale.ROOT, "remote: whole-array read at %d ms >= %.0fx the same with ioConcurrency = threads",
                l, CONCURRENCY_REAL);
        List<String> parts = new ArrayList<>();
        boolean met = true;
        for (String chain : remoteChains(rows)) {
            Optional<Row> fast = remote(rows, chain, "read", l);
            Optional<Row> slow = remote(rows, chain, RemoteBench.READ_IO_THREADS, l);
            if (fast.isPresent() && slow.isPresent()) {
                double ratio = fast.get().mbPerS / slow.get().mbPerS;
                boolean ok = ratio >= CONCURRENCY_REAL;
                met &= ok;
                parts.add(String.format(Locale.ROOT, "%s %.2fx (%.1f against %.1f MB/s; at most %d against %d requests in flight)%s",
                        chain(fast.get()), ratio, fast.get().mbPerS, slow.get().mbPerS, fast.get().peakInFlight,
                        slow.get().peakInFlight, ok ? "" : " missed"));
            }
        }
        String small = RemoteBench.PREFIX + RemoteBench.SMALL_CHUNKS.name();
        Optional<Row> fast = remote(rows, small, "read", l);
        Optional<Row> slow = remote(rows, small, RemoteBench.READ_IO_THREADS, l);
        if (!parts.isEmpty() && fast.isPresent() && slow.isPresent()) {
            // Beside the target: the same data in 16x as many chunks, where latency rather than decoding dominates.
            parts.add(String.format(Locale.ROOT, "(not judged: %s %.2fx, %.1f against %.1f MB/s; at most %d against %d requests in flight)",
                    chain(fast.get()), fast.get().mbPerS / slow.get().mbPerS, fast.get().mbPerS, slow.get().mbPerS,
                    fast.get().peakInFlight, slow.get().peakInFlight));
        }
        return parts.isEmpty() ? new Target(name, null, "not measured in this run (--remote)")
                : new Target(name, met, String.join(", ", parts));
    }

    private static Target againstZarrita(List<Row> rows) {
        int l = RemoteBench.COMPARE_LATENCY;
        String name = String.format(Locale.ROOT, "remote: zarrj whole-array read at %d ms >= %.0fx zarrita's (FetchStore, same relay)",
                l, AGAINST_ZARRITA);
        List<String> parts = new ArrayList<>();
        boolean met = true;
        for (String chain : remoteChains(rows)) {
            Optional<Row> zarrj = remote(rows, chain, "read", l);
            Optional<Row> zarrita = remote(rows, RemoteBench.ZARRITA + chain(zarrj.orElse(new Row(chain, "read"))), "read", l);
            if (zarrj.isPresent() && zarrita.isPresent()) {
                double ratio = zarrj.get().mbPerS / zarrita.get().mbPerS;
                boolean ok = ratio >= AGAINST_ZARRITA;
                met &= ok;
                parts.add(String.format(Locale.ROOT, "%s %.2fx (%.1f against %.1f MB/s)%s", chain(zarrj.get()), ratio,
                        zarrj.get().mbPerS, zarrita.get().mbPerS, ok ? "" : " missed"));
            }
        }
        return parts.isEmpty() ? new Target(name, null, "not measured in this run (--remote, with Node and bench/zarrita installed)")
                : new Target(name, met, String.join(", ", parts));
    }

    private static Target remoteBigRss(List<Row> rows, List<Failure> failures) {
        String name = String.format(Locale.ROOT, "remote: whole read of a 2 GiB array at %d ms within %.0f MB peak RSS",
                RemoteBench.BIG_LATENCY, REMOTE_BIG_RSS_MB);
        Optional<Failure> f = failures.stream().filter(x -> x.name().equals(RemoteBench.BIG)).findFirst();
        if (f.isPresent()) {
            return new Target(name, false, f.get().error());
        }
        Optional<Row> r = find(rows, RemoteBench.BIG, "read", null);
        if (r.isEmpty() || r.get().peakRssMb == null) {
            return new Target(name, null, r.isEmpty() ? "not measured in this run (--remote-big)" : "peak RSS unknown on this system");
        }
        Row row = r.get();
        return new Target(name, row.peakRssMb <= REMOTE_BIG_RSS_MB && row.bytes >= 1L << 31, String.format(Locale.ROOT,
                "%s read in %.1f s (%.1f MB/s), peak RSS %.0f MB (-Xmx%dm), at most %d requests in flight",
                size(row.bytes), row.seconds, row.mbPerS, row.peakRssMb, RemoteBench.BIG_HEAP_MIB, row.peakInFlight));
    }

    /**
     * zarrj against tensorstore on the rows that carry both figures (and {@code which}): met when
     * each is at least {@code ratio}; the detail lists the rows that miss, then the others.
     */
    private static Target againstTensorstore(List<Row> rows, String what, Predicate<Row> which, double ratio) {
        String name = String.format(Locale.ROOT, "%s >= %.1fx tensorstore", what, ratio);
        List<String> missed = new ArrayList<>();
        List<String> met = new ArrayList<>();
        for (Row r : rows) {
            if (r.name.startsWith("float32/") && r.ratioToTensorstore() != null && which.test(r)) {
                String part = String.format(Locale.ROOT, "%s %s %.2fx (%.1f against %.1f MB/s)", chain(r), r.op,
                        r.ratioToTensorstore(), r.mbPerS, r.tensorstoreMbPerS);
                (r.ratioToTensorstore() >= ratio ? met : missed).add(part);
            }
        }
        if (missed.isEmpty() && met.isEmpty()) {
            return new Target(name, null, "not measured in this run (tensorstore skipped: see the JSON's tensorstore.skipped)");
        }
        String detail = (missed.isEmpty() ? "none missed" : "missed: " + String.join(", ", missed))
                + (met.isEmpty() ? "" : "; met: " + String.join(", ", met));
        return new Target(name, missed.isEmpty(), detail);
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

    private static Target selections(List<Row> rows) {
        String name = String.format(Locale.ROOT, "sharded selection reads (strided, orthogonal) >= %.1fx the read of their"
                + " covering region", SELECTION_RATIO);
        List<String> parts = new ArrayList<>();
        boolean met = true;
        for (Row r : rows) {
            if (r.name.startsWith("float32/") && (r.op.equals("read-strided") || r.op.equals("read-orthogonal"))
                    && r.ceilingMbPerS != null) {
                boolean ok = r.ratioToCeiling() >= SELECTION_RATIO;
                met &= ok;
                parts.add(String.format(Locale.ROOT, "%s %s %.2f (%.1f ms against %.1f ms)%s", chain(r), r.op,
                        r.ratioToCeiling(), r.seconds * 1e3, r.bytes / 1e6 / r.ceilingMbPerS * 1e3, ok ? "" : " missed"));
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
