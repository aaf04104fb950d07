package dev.zarrj.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tensorstore peer of {@code zarr bench}'s float32 workloads: each row zarrj measured with its
 * default threads gets tensorstore's figure and the ratio, the peer is skipped with its reason
 * when no Python imports tensorstore, and a copy of tensorstore's that zarrj reads back with other
 * values fails the run. Most tests use a stand-in for the Python (a shell script that answers as
 * bench.py would), so they run without tensorstore; one runs the real peer where
 * {@code bench/tensorstore/.venv} (or {@code $ZARR_BENCH_PYTHON}) exists, as CI makes it.
 */
class TensorstorePeerTest {
    @TempDir
    Path tmp;

    private static final String DEFAULT_THREADS = "2";
    private static final Set<String> PEER_OPS = Set.of("write", "read", "read-region", "read-chunk", "read-inner-chunk",
            "read-strided", "read-orthogonal");
    /** The stand-in's seconds for every operation. */
    private static final double FAKE_SECONDS = 0.004;

    @Test
    void everyDefaultThreadRowGetsTensorstoresFigureInItsOwnBytes() throws Exception {
        Path python = fakePython("copy");
        Path dir = tmp.resolve("bench");
        BenchCommandTest.Run r = BenchCommandTest.bench("--size", "tiny", "--json", "--threads", DEFAULT_THREADS, "--dir",
                dir.toString(), "--only", "float32/(bytes|zstd-1|sharding-zstd-1)$", "--tensorstore-python", python.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertEquals("9.9.9-fake", doc.get("tensorstore").get("version").asText(), doc.get("tensorstore").toString());
        assertEquals(2, doc.get("tensorstore").get("file_io_concurrency").asInt());
        assertFalse(doc.get("tensorstore").get("file_io_sync").asBoolean());
        List<String> withFigure = new ArrayList<>();
        for (JsonNode w : doc.get("workloads")) {
            String id = w.get("name").asText() + " " + w.get("op").asText() + " " + w.get("threads").asInt();
            boolean peer = w.get("threads").asInt() == 2 && PEER_OPS.contains(w.get("op").asText())
                    && !w.get("name").asText().equals("float32/" + Float32Bench.REFERENCE);
            assertEquals(peer, w.has("tensorstore_mb_per_s"), id);
            assertEquals(peer, w.has("ratio_to_tensorstore"), id);
            if (peer) {
                double ts = w.get("bytes").asLong() / 1e6 / FAKE_SECONDS;
                assertEquals(ts, w.get("tensorstore_mb_per_s").asDouble(), ts * 1e-4, id);
                double ratio = w.get("mb_per_s").asDouble() / ts;
                assertEquals(ratio, w.get("ratio_to_tensorstore").asDouble(), ratio * 1e-3, id);
                withFigure.add(w.get("name").asText() + " " + w.get("op").asText());
            }
        }
        for (String op : List.of("write", "read", "read-region", "read-chunk")) {
            for (String chain : List.of("bytes", "zstd-1", "sharding-zstd-1")) {
                assertTrue(withFigure.contains("float32/" + chain + " " + op), chain + " " + op + " in " + withFigure);
            }
        }
        for (String op : List.of("read-inner-chunk", "read-strided", "read-orthogonal")) {
            assertTrue(withFigure.contains("float32/sharding-zstd-1 " + op), op + " in " + withFigure);
        }
        JsonNode every = target(doc, "every float32 op >= 1.0x tensorstore");
        assertTrue(every.get("met").isBoolean(), every.toString());
        assertTrue(every.get("detail").asText().contains("zstd-1 read-region"), every.toString());
        JsonNode reads = target(doc, "whole-array reads >= 1.5x tensorstore");
        assertTrue(reads.get("detail").asText().contains("bytes read "), reads.toString());
        assertFalse(reads.get("detail").asText().contains("write"), reads.toString());
        // --dir keeps tensorstore's copies (what zarrj read back), beside zarrj's arrays.
        assertTrue(Files.isRegularFile(dir.resolve("tensorstore/float32/zstd-1/zarr.json")));
        // The spec bench.py was given: the strided step and the orthogonal index lists.
        String spec = Files.readString(dir.resolve("tensorstore/float32/sharding-zstd-1/spec.json"));
        JsonNode ops = new ObjectMapper().readTree(spec).get("ops");
        assertEquals("write", ops.get(0).get("op").asText(), "the write first: zarrj reads its copy back");
        boolean strided = false;
        for (JsonNode op : ops) {
            if (op.get("op").asText().equals("read-strided")) {
                strided = op.get("step").asInt() == Float32Bench.STRIDE;
            }
            if (op.get("op").asText().equals("read-orthogonal")) {
                assertEquals(3, op.get("indices").size(), op.toString());
            }
        }
        assertTrue(strided, spec);
    }

    @Test
    void withoutTensorstoreThePeerIsSkippedWithTheReason() throws Exception {
        Path none = tmp.resolve("no-such-python");
        Path noModule = tmp.resolve("python-without-tensorstore");
        Files.writeString(noModule, "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'tensorstore'\" >&2\nexit 1\n");
        assumeTrue(executable(noModule), "no POSIX shell to run a stand-in Python");
        for (Path python : List.of(none, noModule)) {
            BenchCommandTest.Run r = BenchCommandTest.bench("--size", "tiny", "--json", "--dir", tmp.resolve("b").toString(),
                    "--only", "float32/bytes", "--tensorstore-python", python.toString());
            assertEquals(0, r.code(), r.err());
            JsonNode doc = new ObjectMapper().readTree(r.out());
            String reason = doc.get("tensorstore").get("skipped").asText();
            assertTrue(reason.contains(python.toString()) && reason.contains("setup.sh"), reason);
            if (python.equals(noModule)) {
                assertTrue(reason.contains("No module named 'tensorstore'"), reason);
            }
            assertTrue(r.err().contains("tensorstore skipped: " + reason), r.err());
            for (JsonNode w : doc.get("workloads")) {
                assertFalse(w.has("tensorstore_mb_per_s") || w.has("ratio_to_tensorstore"), w.toString());
            }
            JsonNode every = target(doc, "every float32 op >= 1.0x tensorstore");
            assertTrue(every == null || every.get("met").isNull(), String.valueOf(every));
        }
        BenchCommandTest.Run off = BenchCommandTest.bench("--size", "tiny", "--json", "--dir", tmp.resolve("c").toString(),
                "--only", "float32/bytes", "--no-tensorstore");
        assertEquals(0, off.code(), off.err());
        assertEquals("--no-tensorstore", new ObjectMapper().readTree(off.out()).get("tensorstore").get("skipped").asText());
    }

    @Test
    void aCopyOfTensorstoresThatZarrjReadsOtherwiseFailsTheRun() throws Exception {
        Path python = fakePython("damage");
        BenchCommandTest.Run r = BenchCommandTest.bench("--size", "tiny", "--json", "--dir", tmp.resolve("b").toString(),
                "--only", "float32/bytes", "--tensorstore-python", python.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("zarr bench: float32/bytes: zarrj read other values from tensorstore's copy"), r.err());
    }

    @Test
    void tensorstoreFailingIsAFailureWithItsMessage() throws Exception {
        Path python = fakePython("error");
        BenchCommandTest.Run r = BenchCommandTest.bench("--size", "tiny", "--json", "--dir", tmp.resolve("b").toString(),
                "--only", "float32/bytes", "--tensorstore-python", python.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("float32/bytes: tensorstore failed") && r.err().contains("read-region: other values"),
                r.err());
    }

    /**
     * The real peer: tensorstore reads zarrj's arrays, zarrj reads tensorstore's; figures for the
     * sharded chain's seven operations. Skipped without a Python that has tensorstore
     * ({@code bench/tensorstore/setup.sh} makes one; CI does).
     */
    @Test
    void realTensorstoreMeasuresBesideZarrj() throws Exception {
        Optional<String> python = realPython();
        assumeTrue(python.isPresent(), "no Python with tensorstore: bench/tensorstore/.venv is absent and "
                + TensorstorePeer.PYTHON_ENV + " is not set (make it with bench/tensorstore/setup.sh)");
        BenchCommandTest.Run r = BenchCommandTest.bench("--size", "tiny", "--json", "--threads", DEFAULT_THREADS, "--dir",
                tmp.resolve("b").toString(), "--only", "float32/(gzip-1|sharding-zstd-1)$", "--tensorstore-python",
                python.get());
        assertEquals(0, r.code(), r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertFalse(doc.get("tensorstore").has("skipped"), doc.get("tensorstore").toString());
        assertTrue(r.err().contains("float32/sharding-zstd-1: zarrj read tensorstore's copy back"), r.err());
        int figures = 0;
        for (JsonNode w : doc.get("workloads")) {
            if (w.has("tensorstore_mb_per_s")) {
                assertTrue(w.get("tensorstore_mb_per_s").asDouble() > 0 && w.get("ratio_to_tensorstore").asDouble() > 0,
                        w.toString());
                figures++;
            }
        }
        assertEquals(4 + 7, figures, "gzip-1: write, read, region, chunk; sharding: those, inner chunk, strided, orthogonal");
    }

    /** $ZARR_BENCH_PYTHON, else bench/tensorstore/.venv/bin/python of this repository, if present. */
    static Optional<String> realPython() {
        String env = System.getenv(TensorstorePeer.PYTHON_ENV);
        if (env != null && !env.isBlank()) {
            return Optional.of(env);
        }
        return TensorstorePeer.script().map(s -> s.getParent().resolve(".venv/bin/python")).filter(Files::isExecutable)
                .map(Path::toString);
    }

    private static JsonNode target(JsonNode doc, String name) {
        for (JsonNode t : doc.get("targets")) {
            if (t.get("target").asText().equals(name)) {
                return t;
            }
        }
        return null;
    }

    /**
     * A stand-in for the Python: answers the import check with a version, and run as
     * {@code python bench.py SPEC} copies zarrj's array to {@code write_to} (with {@code mode}
     * "damage", changes the first chunk's first bytes), keeps the spec beside it, and reports
     * {@link #FAKE_SECONDS} for every operation; with "error", reports an error as bench.py does.
     */
    private Path fakePython(String mode) throws Exception {
        Path p = tmp.resolve("fake-python-" + mode);
        String s = "#!/bin/sh\n"
                + "if [ \"$1\" = \"-c\" ]; then echo 9.9.9-fake; exit 0; fi\n"
                + "if [ \"" + mode + "\" = error ]; then echo '{\"error\": \"RuntimeError: read-region: other values\"}'; exit 1; fi\n"
                + "array=$(printf '%s' \"$2\" | sed 's/.*\"array\":\"\\([^\"]*\\)\".*/\\1/')\n"
                + "dest=$(printf '%s' \"$2\" | sed 's/.*\"write_to\":\"\\([^\"]*\\)\".*/\\1/')\n"
                + "rm -rf \"$dest\" && mkdir -p \"$(dirname \"$dest\")\" && cp -R \"$array\" \"$dest\" || exit 3\n"
                + "printf '%s' \"$2\" > \"$dest/spec.json\"\n"
                + "if [ \"" + mode + "\" = damage ]; then printf 'ABCD' | dd of=\"$dest/c/0/0/0\" bs=4 count=1 conv=notrunc 2>/dev/null; fi\n"
                + "printf '{\"tensorstore_version\": \"9.9.9-fake\", \"ops\": {'\n"
                + "sep=''\n"
                + "for op in write read read-region read-chunk read-inner-chunk read-strided read-orthogonal; do\n"
                + "  printf '%s\"%s\": {\"seconds\": " + FAKE_SECONDS + ", \"runs\": 1}' \"$sep\" \"$op\"; sep=', '\n"
                + "done\n"
                + "printf '}}\\n'\n";
        Files.writeString(p, s);
        assumeTrue(executable(p), "no POSIX shell to run a stand-in Python");
        return p;
    }

    private static boolean executable(Path p) {
        try {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException | java.io.IOException e) {
            return false;
        }
        return Files.isExecutable(Path.of("/bin/sh"));
    }

    @Test
    void scriptIsFoundInThisRepository() {
        Optional<Path> script = TensorstorePeer.script();
        assertTrue(script.isPresent(), "bench/tensorstore/bench.py above zarr-bench's classes");
        assertNotNull(script.get().getParent().resolve("setup.sh"));
        assertTrue(Files.isRegularFile(script.get().getParent().resolve("setup.sh")), script.toString());
    }
}
