package dev.zarrj.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code zarr bench} at its tiny size through its entry point ({@link ZarrBench#run}): the JSON document's shape,
 * the ceilings' ratios, the regions the latency rows read, the arrays it leaves in {@code --dir}.
 * No timing is asserted.
 *
 * <p>The uint16 workloads run in child JVMs started with this JVM's module path; Surefire runs
 * these tests on the module path, so they run here too (one array of them, to keep the test
 * short). Only a JVM without a module path or class path to hand on would skip them, and then
 * the test checks that they are absent rather than failing.
 */
class BenchCommandTest {
    @TempDir
    Path tmp;

    /** One run of {@code zarr bench} in this JVM: exit status and both outputs. */
    record Run(int code, String out, String err) {}

    static Run bench(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = ZarrBench.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    private static final List<String> CHAINS = List.of("bytes", "gzip-1", "zstd-1", "blosc-zstd-5-shuffle", "sharding-zstd-1");
    /** The ops that read one fixed region, which their rows name (other tools read the same one). */
    private static final Set<String> LATENCY_OPS = Set.of("read-region", "read-chunk", "read-inner-chunk");


    @Test
    void tinyRunReportsEveryWorkloadWithItsCeilingAndLeavesReadableArrays() throws Exception {
        Path dir = tmp.resolve("bench");
        Run r = bench("--size", "tiny", "--json", "--dir", dir.toString(), "--only", "float32|uint16/sharding");
        assertEquals(0, r.code(), r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());

        JsonNode machine = doc.get("machine");
        assertTrue(machine.get("cores").asInt() >= 1);
        assertTrue(machine.get("quick").asBoolean(), "tiny is not the full run");
        assertEquals(dir.toAbsolutePath().toString(), machine.get("dir").asText());
        assertTrue(machine.get("gzip").asText().matches("(libdeflate|java\\.util\\.zip).*"), machine.toString());

        Set<String> seen = new HashSet<>();
        List<JsonNode> rows = new ArrayList<>();
        doc.get("workloads").forEach(rows::add);
        assertFalse(rows.isEmpty());
        for (JsonNode w : rows) {
            String id = w.path("name").asText() + " " + w.path("op").asText() + " " + w.path("threads").asInt();
            assertFalse(w.path("name").asText().isEmpty(), w.toString());
            assertFalse(w.path("op").asText().isEmpty(), w.toString());
            assertTrue(w.get("seconds").asDouble() > 0, id);
            assertTrue(w.get("mb_per_s").asDouble() > 0, id);
            assertTrue(w.get("bytes").asLong() > 0, id);
            w.fields().forEachRemaining(f -> assertFalse(f.getValue().isNull(), id + ": " + f.getKey() + " is null"));
            if (w.has("ceiling_mb_per_s")) {
                double want = w.get("mb_per_s").asDouble() / w.get("ceiling_mb_per_s").asDouble();
                assertEquals(want, w.get("ratio_to_ceiling").asDouble(), want * 2e-3, id);
            } else {
                assertFalse(w.has("ratio_to_ceiling"), id);
            }
            if (LATENCY_OPS.contains(w.get("op").asText())) {
                assertRegion(w, dir, id);
                assertPercentiles(w, id);
            } else {
                assertFalse(w.has("region"), id);
                for (String f : List.of("p50_seconds", "p90_seconds", "p99_seconds", "samples", "minor_faults")) {
                    assertFalse(w.has(f), id + " is no latency row: " + f);
                }
            }
            seen.add(w.get("name").asText() + " " + w.get("op").asText());
        }

        boolean blosc = seen.contains("float32/blosc-zstd-5-shuffle write");
        for (String chain : CHAINS) {
            if (chain.startsWith("blosc") && !blosc) {
                continue; // no c-blosc on this system: the run says so and skips the chain
            }
            for (String op : List.of("write", "read", "read-region", "read-chunk")) {
                assertTrue(seen.contains("float32/" + chain + " " + op), chain + " " + op + " in " + seen);
            }
        }
        JsonNode inner = find(rows, "float32/sharding-zstd-1", "read-inner-chunk");
        assertTrue(inner.get("store_requests").asLong() > 0, inner.toString());
        assertTrue(inner.has("ceiling_mb_per_s"), "the inner chunk is compared with the unsharded chunk");
        assertTrue(seen.contains("float32/zstd-1-32x64x64 read-chunk"));
        for (String op : List.of("read-strided", "read-orthogonal")) {
            // Issue 18: the selection reads of the sharded chain, each against its covering region's read.
            JsonNode sel = find(rows, "float32/sharding-zstd-1", op);
            assertTrue(sel.has("ceiling_mb_per_s") && sel.get("store_requests").asLong() > 0, sel.toString());
        }
        JsonNode gzip = find(rows, "float32/gzip-1", "write");
        assertTrue(gzip.has("codec_mb_per_s") && gzip.has("store_mb_per_s"), gzip.toString());
        assertFalse(find(rows, "float32/bytes", "write").has("codec_mb_per_s"), "bytes has no codec");

        // Each array's folder is an array root another tool can open, holding the field.
        for (String chain : CHAINS) {
            Path root = dir.resolve("float32").resolve(chain);
            if (chain.startsWith("blosc") && !blosc) {
                continue;
            }
            assertTrue(Files.isRegularFile(root.resolve("zarr.json")), root.toString());
            try (Store store = Zarr.defaults().openStore(root.toString(), true)) {
                ZarrArray a = Zarr.defaults().openArray(store, "/");
                long[] shape = a.shape();
                NdArray all = a.read();
                for (long[] p : List.of(new long[] {0, 0, 0}, new long[] {shape[0] - 1, shape[1] - 1, shape[2] - 1},
                        new long[] {shape[0] / 2, 70, 131})) {
                    float want = (float) (Math.sin(p[0] * 0.05) * Math.cos(p[1] * 0.02) + p[2] * 0.001);
                    assertEquals(want, (float) all.getDouble(all.flatIndex(p)), 0f, chain + " at " + List.of(p[0], p[1], p[2]));
                }
            }
        }

        if (System.getProperty("jdk.module.path") != null || !System.getProperty("java.class.path", "").isBlank()) {
            for (String op : List.of("round-trip", "read-all", "read-chunks-8")) {
                JsonNode w = find(rows, "uint16/sharding-zstd", op);
                assertTrue(w.has("peak_rss_mb") || !Files.exists(Path.of("/proc/self/status")), w.toString());
                assertTrue(w.get("heap_max_mb").asDouble() > 0, w.toString());
                assertTrue(w.get("store_requests").asLong() > 0, w.toString());
            }
            assertTrue(Files.isRegularFile(dir.resolve("uint16/sharding-zstd/zarr.json")), "kept in --dir");
        } else {
            assertTrue(rows.stream().noneMatch(w -> w.get("name").asText().startsWith("uint16/")),
                    "child JVM rows without a path to start them");
        }
        assertFalse(seen.contains("uint16/zstd round-trip"), "--only leaves the other uint16 arrays out");
        assertTrue(doc.get("targets").size() >= 1);
        doc.get("targets").forEach(t -> assertTrue(t.has("target") && t.get("met").isBoolean() && t.has("detail"), t.toString()));
    }

    /**
     * A latency row keeps the spread of its timed runs: p50 is the median ({@code seconds}), and
     * p50 <= p90 <= p99, over at least the tiny size's two runs; on Linux, its page faults per run.
     */
    private static void assertPercentiles(JsonNode w, String id) {
        for (String f : List.of("p50_seconds", "p90_seconds", "p99_seconds", "samples")) {
            assertTrue(w.has(f), id + ": no " + f + " in " + w);
        }
        double p50 = w.get("p50_seconds").asDouble();
        double p90 = w.get("p90_seconds").asDouble();
        double p99 = w.get("p99_seconds").asDouble();
        assertEquals(w.get("seconds").asDouble(), p50, 0.0, id + ": p50 is the median");
        assertTrue(p50 > 0 && p50 <= p90 && p90 <= p99, id + ": p50 " + p50 + ", p90 " + p90 + ", p99 " + p99);
        assertTrue(w.get("samples").asInt() >= 2, id + ": samples " + w.get("samples"));
        if (Files.isReadable(Path.of("/proc/self/stat"))) {
            assertTrue(w.get("minor_faults").asDouble() >= 0, id + ": minor_faults " + w.get("minor_faults"));
        }
    }

    @Test
    void textOutputHasTableJsonAndTargets() {
        Run r = bench("--size", "tiny", "--only", "float32/zstd-1$", "--dir", tmp.resolve("b").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("workload"), r.out());
        String header = r.out().lines().findFirst().orElseThrow();
        assertTrue(header.contains("p90") && header.contains("p99"), header);
        assertTrue(r.out().contains("float32/zstd-1"), r.out());
        assertTrue(r.out().contains("\"workloads\""), r.out());
        assertTrue(r.out().contains("targets:"), r.out());
    }

    /**
     * The absent-heavy read is compared with the dense one, and asks the store for far fewer
     * chunks (requests, not time); the issue's 4,194,304-chunk array is read with a handful.
     */
    @Test
    void sparseWorkloadsCompareTheAbsentHeavyReadWithTheDenseOne() throws Exception {
        Path dir = tmp.resolve("sparse-bench");
        Run r = bench("--size", "tiny", "--json", "--dir", dir.toString(), "--only", "sparse/");
        assertEquals(0, r.code(), r.err());
        List<JsonNode> rows = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).get("workloads").forEach(rows::add);
        JsonNode sparse = find(rows, "sparse/absent-heavy", "read");
        JsonNode dense = find(rows, "sparse/dense", "read");
        assertEquals(dense.get("mb_per_s").asDouble(), sparse.get("ceiling_mb_per_s").asDouble(),
                dense.get("mb_per_s").asDouble() * 1e-3, "the dense read is the absent-heavy read's reference");
        assertEquals(sparse.get("bytes").asLong(), dense.get("bytes").asLong());
        long denseRequests = dense.get("store_requests").asLong();
        assertTrue(denseRequests >= 64 * 64, dense.toString());
        assertTrue(sparse.get("store_requests").asLong() * 10 < denseRequests, sparse.toString());
        JsonNode issue = find(rows, "sparse/4194304-chunks-2-present", "read");
        assertEquals(2048L * 2048, issue.get("bytes").asLong());
        assertTrue(issue.get("store_requests").asLong() < 1000, issue.toString());
        assertTrue(Files.isRegularFile(dir.resolve("sparse/absent-heavy/zarr.json")), "kept in --dir");
    }

    /**
     * The remote section at its tiny size: s3proxy (the jar Maven resolved) behind the relay, every
     * row with its latency, HTTP requests and peak in flight, the ioConcurrency baseline at 20 ms,
     * and its targets evaluated. zarrita is not selected (it needs Node and bench/zarrita's packages).
     */
    @Test
    void remoteSectionReportsEachLatencyWithTheRelaysCounts() throws Exception {
        Run r = bench("--size", "tiny", "--json", "--dir", tmp.resolve("remote").toString(), "--only",
                "remote/(zstd-1$|hierarchy)");
        assertEquals(0, r.code(), r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        List<JsonNode> rows = new ArrayList<>();
        doc.get("workloads").forEach(rows::add);
        Set<String> seen = new HashSet<>();
        for (JsonNode w : rows) {
            String id = w.path("name").asText() + " " + w.path("op").asText() + " " + w.path("latency_ms").asInt()
                    + (w.has("io_concurrency") ? " io" : "");
            assertTrue(w.get("name").asText().startsWith("remote/"), id);
            assertTrue(Set.of(0, 20, 50).contains(w.get("latency_ms").asInt()), id);
            assertTrue(w.get("seconds").asDouble() > 0, id);
            assertTrue(w.get("mb_per_s").asDouble() > 0, id);
            assertTrue(w.get("bytes").asLong() > 0, id);
            assertTrue(w.get("http_requests").asLong() > 0, id);
            assertTrue(w.get("peak_in_flight").asInt() >= 1, id);
            assertTrue(w.get("peak_in_flight").asLong() <= w.get("http_requests").asLong(), id);
            w.fields().forEachRemaining(f -> assertFalse(f.getValue().isNull(), id + ": " + f.getKey() + " is null"));
            assertTrue(seen.add(id), "one row each: " + id);
        }
        for (int latency : List.of(0, 20, 50)) {
            for (String op : List.of("write", "read", "read-random-chunks")) {
                assertTrue(seen.contains("remote/zstd-1 " + op + " " + latency), op + " " + latency + " in " + seen);
            }
            assertTrue(seen.contains("remote/hierarchy-100 open-hierarchy " + latency), seen.toString());
        }
        assertTrue(seen.contains("remote/zstd-1 read-io-threads 20 io"), "the ioConcurrency = threads baseline: " + seen);
        assertEquals(13, rows.size(), "3 latencies x (write, read, random reads, hierarchy) and the baseline: " + seen);
        JsonNode random = rows.stream().filter(w -> w.get("op").asText().equals("read-random-chunks")).findFirst().get();
        assertEquals(8, random.get("threads").asInt(), "eight readers");
        assertTrue(random.get("http_requests").asLong() >= 64, "64 chunk reads: " + random);
        JsonNode hierarchy = rows.stream().filter(w -> w.get("name").asText().equals("remote/hierarchy-100")).findFirst().get();
        assertTrue(hierarchy.get("http_requests").asLong() > 10, "each of the 10 arrays is opened: " + hierarchy);

        List<String> measured = new ArrayList<>();
        doc.get("targets").forEach(t -> measured.add(t.get("target").asText()));
        assertTrue(measured.stream().anyMatch(t -> t.startsWith("remote: whole-array read and write at 50 ms")), measured.toString());
        assertTrue(measured.stream().anyMatch(t -> t.contains("ioConcurrency = threads")), measured.toString());
        assertFalse(measured.stream().anyMatch(t -> t.contains("zarrita")), "zarrita not selected: " + measured);
        assertFalse(Files.exists(tmp.resolve("remote").resolve("s3proxy")), "the server's folder is removed");
    }

    @Test
    void badOptionsAreUserErrors() {
        Run threads = bench("--threads", "0");
        assertEquals(2, threads.code());
        assertEquals("zarr: --threads 0: must be at least 1", threads.err().strip(), "one line");
        Run bad = bench("--only", "(", "--dir", tmp.toString());
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--only"), bad.err());
        assertEquals(2, bench("--size", "huge").code());
        Run unknown = bench("--no-such-option");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("--no-such-option") && unknown.err().contains("zarr bench --help"), unknown.err());
    }

    @Test
    void helpNamesTheCommandAsUsersTypeIt() {
        Run help = bench("--help");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().startsWith("Usage: zarr bench "), help.out());
        assertTrue(help.out().contains("--quick") && help.out().contains("--json") && help.out().contains("--only"), help.out());
    }

    /** The zarr command finds the harness as the JDK tool "zarr-bench", on the module path and the class path. */
    @Test
    void theHarnessIsTheToolZarrBench() {
        ToolProvider tool = ToolProvider.findFirst(BenchTool.NAME).orElseThrow(() -> new AssertionError("no tool zarr-bench"));
        assertEquals(BenchTool.class, tool.getClass());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(2, tool.run(new PrintWriter(out, true), new PrintWriter(err, true), "--threads", "0"));
        assertTrue(err.toString().startsWith("zarr: --threads 0"), err.toString());
    }

    /**
     * A latency row's region lies inside its array (kept in {@code dir} under the row's name) and
     * accounts for the row's bytes: the region's own, or for {@code read-chunk} the whole chunk's,
     * which {@code readChunk} returns also when the chunk reaches past the array's edge; then the
     * region is the chunk's part inside the array.
     */
    private static void assertRegion(JsonNode w, Path dir, String id) throws Exception {
        JsonNode region = w.get("region");
        assertTrue(region != null && region.has("offset") && region.has("shape"), id + ": region " + region);
        try (Store store = Zarr.defaults().openStore(dir.resolve(w.get("name").asText()).toString(), true)) {
            ZarrArray a = Zarr.defaults().openArray(store, "/");
            long[] shape = a.shape();
            long[] offset = longs(region.get("offset"));
            long[] size = longs(region.get("shape"));
            assertEquals(shape.length, offset.length, id + ": region " + region);
            assertEquals(shape.length, size.length, id + ": region " + region);
            for (int d = 0; d < shape.length; d++) {
                assertTrue(offset[d] >= 0 && size[d] > 0 && offset[d] + size[d] <= shape[d],
                        id + ": region " + region + " is not inside the array's " + Arrays.toString(shape));
            }
            long[] read = size;
            if (w.get("op").asText().equals("read-chunk")) {
                long[] chunk = a.chunkShape();
                for (int d = 0; d < shape.length; d++) {
                    assertEquals(0, offset[d] % chunk[d], id + ": region " + region + " does not start a chunk");
                    assertEquals(Math.min(chunk[d], shape[d] - offset[d]), size[d],
                            id + ": region " + region + " is not the chunk's part inside the array");
                }
                read = chunk;
            }
            assertEquals(Arrays.stream(read).reduce(1, (x, y) -> x * y) * a.dataType().size(), w.get("bytes").asLong(),
                    id + ": bytes against region " + region);
        }
    }

    private static long[] longs(JsonNode a) {
        long[] out = new long[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).asLong();
        }
        return out;
    }

    private static JsonNode find(List<JsonNode> rows, String name, String op) {
        return rows.stream().filter(w -> w.get("name").asText().equals(name) && w.get("op").asText().equals(op))
                .findFirst().orElseThrow(() -> new AssertionError("no row " + name + " " + op));
    }
}
