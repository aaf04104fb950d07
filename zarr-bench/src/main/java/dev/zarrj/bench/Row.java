package dev.zarrj.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * One measured figure: a workload (an array and its chain, for example {@code float32/zstd-1}),
 * an operation, and what was measured. Fields that do not apply stay null and are left out of
 * the JSON document.
 *
 * <p>MB is 10^6 bytes. {@code bytes} is the decoded bytes one operation moves; {@code seconds}
 * is one operation (the median of several); {@code mbPerS} is {@code bytes / seconds}.
 * {@code region} is set on the rows that read one fixed region of the array, the latency rows,
 * which also carry the spread of their runs: {@code p50Seconds} (equal to {@code seconds}),
 * {@code p90Seconds} and {@code p99Seconds} over {@code samples} timed runs. A median alone hides
 * a slow mode that only some runs, or some processes, fall into. {@code minorFaults} (Linux) is
 * the process's minor page faults per operation over the same runs: pages touched for the first
 * time, the cost behind docs/performance.md. The remote rows ({@code remote/...}) add the relay's
 * figures: {@code latencyMs}, {@code httpRequests}, {@code peakInFlight}, and {@code ioConcurrency}
 * when it was set.
 */
final class Row {
    final String name;
    final String op;
    Integer threads;
    Double seconds;
    Double mbPerS;
    Double ceilingMbPerS;
    Double codecMbPerS;
    Double storeMbPerS;
    Long storeRequests;
    Double peakRssMb;
    Double heapMaxMb;
    Long bytes;
    Region region;
    Double p50Seconds;
    Double p90Seconds;
    Double p99Seconds;
    Integer samples;
    Double minorFaults;
    /** Remote rows: the latency the relay added to each request, in ms. */
    Integer latencyMs;
    /** Remote rows: the {@code ioConcurrency} zarrj was built with, when set explicitly. */
    Integer ioConcurrency;
    /** Remote rows: the HTTP requests the relay saw during one operation. */
    Long httpRequests;
    /** Remote rows: the most HTTP requests outstanding at once during one operation (see LatencyRelay). */
    Integer peakInFlight;
    /**
     * float32 rows with zarrj's default threads: tensorstore's throughput on the same operation,
     * counted in this row's {@code bytes}, so that {@link #ratioToTensorstore} is tensorstore's
     * time over zarrj's (null when the peer did not run).
     */
    Double tensorstoreMbPerS;

    /**
     * The elements of the array one operation read: {@code offset} and {@code shape} per dimension,
     * inside the array. A chunk read at the array's edge returns the whole chunk, so its row's
     * {@code bytes} can exceed the region's.
     */
    record Region(long[] offset, long[] shape) {
        ObjectNode toJson() {
            ObjectNode n = JsonNodeFactory.instance.objectNode();
            ArrayNode o = n.putArray("offset");
            ArrayNode s = n.putArray("shape");
            for (int d = 0; d < offset.length; d++) {
                o.add(offset[d]);
                s.add(shape[d]);
            }
            return n;
        }

        static Region fromJson(JsonNode n) {
            return new Region(longs(n.get("offset")), longs(n.get("shape")));
        }

        private static long[] longs(JsonNode a) {
            long[] out = new long[a.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = a.get(i).asLong();
            }
            return out;
        }
    }

    Row(String name, String op) {
        this.name = name;
        this.op = op;
    }

    /** Sets the time of one operation that moved {@code bytes} decoded bytes, and the throughput. */
    Row timed(double seconds, long bytes) {
        this.seconds = seconds;
        this.bytes = bytes;
        this.mbPerS = bytes / 1e6 / seconds;
        return this;
    }

    /** Sets the percentiles of the timed runs whose median is {@link #seconds}. */
    Row percentiles(Timing.Samples runs) {
        this.p50Seconds = runs.median();
        this.p90Seconds = runs.percentile(90);
        this.p99Seconds = runs.percentile(99);
        this.samples = runs.count();
        return this;
    }

    /** zarrj's throughput over the ceiling's, or null without a ceiling. */
    Double ratioToCeiling() {
        return ceilingMbPerS == null || mbPerS == null ? null : mbPerS / ceilingMbPerS;
    }

    /** zarrj's throughput over tensorstore's on the same operation, or null without tensorstore's figure. */
    Double ratioToTensorstore() {
        return tensorstoreMbPerS == null || mbPerS == null ? null : mbPerS / tensorstoreMbPerS;
    }

    ObjectNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("name", name);
        n.put("op", op);
        if (threads != null) {
            n.put("threads", threads);
        }
        putRounded(n, "seconds", seconds, 6);
        putRounded(n, "p50_seconds", p50Seconds, 6);
        putRounded(n, "p90_seconds", p90Seconds, 6);
        putRounded(n, "p99_seconds", p99Seconds, 6);
        if (samples != null) {
            n.put("samples", samples);
        }
        putRounded(n, "minor_faults", minorFaults, 4);
        putRounded(n, "mb_per_s", mbPerS, 5);
        putRounded(n, "ceiling_mb_per_s", ceilingMbPerS, 5);
        putRounded(n, "codec_mb_per_s", codecMbPerS, 5);
        putRounded(n, "store_mb_per_s", storeMbPerS, 5);
        putRounded(n, "ratio_to_ceiling", ratioToCeiling(), 4);
        putRounded(n, "tensorstore_mb_per_s", tensorstoreMbPerS, 5);
        putRounded(n, "ratio_to_tensorstore", ratioToTensorstore(), 4);
        if (storeRequests != null) {
            n.put("store_requests", storeRequests);
        }
        if (latencyMs != null) {
            n.put("latency_ms", latencyMs);
        }
        if (ioConcurrency != null) {
            n.put("io_concurrency", ioConcurrency);
        }
        if (httpRequests != null) {
            n.put("http_requests", httpRequests);
        }
        if (peakInFlight != null) {
            n.put("peak_in_flight", peakInFlight);
        }
        putRounded(n, "peak_rss_mb", peakRssMb, 4);
        putRounded(n, "heap_max_mb", heapMaxMb, 4);
        if (bytes != null) {
            n.put("bytes", bytes);
        }
        if (region != null) {
            n.set("region", region.toJson());
        }
        return n;
    }

    /** Significant digits only: a benchmark's figures are not exact to 17 digits. */
    private static void putRounded(ObjectNode n, String field, Double value, int digits) {
        if (value != null) {
            n.put(field, round(value, digits));
        }
    }

    static double round(double value, int digits) {
        if (value == 0 || Double.isNaN(value) || Double.isInfinite(value)) {
            return value;
        }
        return new BigDecimal(value).round(new MathContext(digits)).doubleValue();
    }

    /** The row of a child JVM's JSON line (the fields it reports). */
    static Row fromJson(JsonNode n) {
        Row r = new Row(n.get("name").asText(), n.get("op").asText());
        r.threads = n.has("threads") ? n.get("threads").asInt() : null;
        r.seconds = doubleOrNull(n, "seconds");
        r.p50Seconds = doubleOrNull(n, "p50_seconds");
        r.p90Seconds = doubleOrNull(n, "p90_seconds");
        r.p99Seconds = doubleOrNull(n, "p99_seconds");
        r.samples = n.has("samples") ? n.get("samples").asInt() : null;
        r.minorFaults = doubleOrNull(n, "minor_faults");
        r.mbPerS = doubleOrNull(n, "mb_per_s");
        r.ceilingMbPerS = doubleOrNull(n, "ceiling_mb_per_s");
        r.codecMbPerS = doubleOrNull(n, "codec_mb_per_s");
        r.storeMbPerS = doubleOrNull(n, "store_mb_per_s");
        r.tensorstoreMbPerS = doubleOrNull(n, "tensorstore_mb_per_s");
        r.storeRequests = n.has("store_requests") ? n.get("store_requests").asLong() : null;
        r.latencyMs = n.has("latency_ms") ? n.get("latency_ms").asInt() : null;
        r.ioConcurrency = n.has("io_concurrency") ? n.get("io_concurrency").asInt() : null;
        r.httpRequests = n.has("http_requests") ? n.get("http_requests").asLong() : null;
        r.peakInFlight = n.has("peak_in_flight") ? n.get("peak_in_flight").asInt() : null;
        r.peakRssMb = doubleOrNull(n, "peak_rss_mb");
        r.heapMaxMb = doubleOrNull(n, "heap_max_mb");
        r.bytes = n.has("bytes") ? n.get("bytes").asLong() : null;
        r.region = n.has("region") ? Region.fromJson(n.get("region")) : null;
        return r;
    }

    private static Double doubleOrNull(JsonNode n, String field) {
        return n.has(field) ? n.get(field).asDouble() : null;
    }
}
