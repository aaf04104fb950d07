package dev.zarrj.reliability.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.reliability.differential.RandomCases.Case;
import dev.zarrj.reliability.differential.RandomCases.Write;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential testing against zarrita, an independent Zarr v3 implementation (npm, pinned in
 * {@code interop/zarrita}), in both directions, comparing every element bit for bit:
 *
 * <ul>
 *   <li>zarrj → zarrita: {@link RandomCases} generates cases; zarrj writes each into a file store
 *       with its expected contents; one node run of {@code differential.mjs read} reads them all
 *       with zarrita and compares data type, shape, fill value and every element.
 *   <li>zarrita → zarrj: one node run of {@code differential.mjs write} generates cases with its
 *       own generator and writes them with zarrita; zarrj reads each and compares the same.
 * </ul>
 *
 * <p>System properties: {@code zarrj.diff.seed} (default: a new seed each run, printed),
 * {@code zarrj.diff.cases} (per direction, default 1000), {@code zarrj.diff.case} (only that case),
 * {@code zarrj.diff.dir} (write the cases into DIR/seed-S/ and keep them, to run node by hand). Skips, with
 * the reason, when node or {@code interop/zarrita/node_modules} is missing.
 */
final class DifferentialTest {
    private static final Pattern FAIL = Pattern.compile("FAIL case (\\d+): (.*)");

    private static long seed;
    private static int cases;
    private static Integer only;
    private static Zarrita zarrita;
    private static String whyNot;

    @BeforeAll
    static void setUp() {
        String s = System.getProperty("zarrj.diff.seed");
        seed = s == null || s.isBlank() ? new java.util.SplittableRandom().nextLong() : Long.parseLong(s.trim());
        cases = Integer.getInteger("zarrj.diff.cases", 1000);
        String c = System.getProperty("zarrj.diff.case");
        only = c == null || c.isBlank() ? null : Integer.valueOf(c.trim());
        System.out.println("DifferentialTest: seed " + seed + ", " + (only == null ? cases + " cases per direction" : "case " + only)
                + " (replay: -Dzarrj.diff.seed=" + seed + " -Dzarrj.diff.case=N)");
        StringBuilder why = new StringBuilder();
        zarrita = Zarrita.find(why);
        if (zarrita == null) {
            whyNot = "zarrita cannot run: " + why;
        } else if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            whyNot = "the expected contents are compared as little-endian bytes; this machine is big-endian";
        }
        if (whyNot != null) {
            System.out.println("DifferentialTest skipped: " + whyNot);
        }
    }

    /** Skips the test (each test, so that the report counts them as skipped) when zarrita cannot run. */
    private static void requireZarrita() {
        Assumptions.assumeTrue(whyNot == null, whyNot);
    }

    /** The temporary folder, or DIR/seed-S/DIRECTION (emptied first) with -Dzarrj.diff.dir=DIR. */
    private static Path caseDir(Path temp, String direction) throws IOException {
        String keep = System.getProperty("zarrj.diff.dir");
        if (keep == null || keep.isBlank()) {
            return temp;
        }
        Path dir = Path.of(keep.trim(), "seed-" + seed, direction);
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(dir);
        System.out.println("DifferentialTest: keeping the " + direction + " cases in " + dir);
        return dir;
    }

    private static List<Integer> numbers() {
        List<Integer> ns = new ArrayList<>();
        for (int n = 0; n < cases; n++) {
            if (only == null || only == n) {
                ns.add(n);
            }
        }
        if (only != null && ns.isEmpty()) {
            ns.add(only);
        }
        return ns;
    }

    @Test
    void zarritaReadsWhatZarrjWrites(@TempDir Path temp) throws Exception {
        requireZarrita();
        Path dir = caseDir(temp, "zarrj-to-zarrita");
        Map<Integer, Case> byNumber = new HashMap<>();
        ArrayNode entries = RandomCases.MAPPER.createArrayNode();
        List<String> failures = new ArrayList<>();
        long start = System.nanoTime();
        try (Zarr zarr = Zarr.defaults(); Store store = zarr.openStore(dir.toString())) {
            for (int n : numbers()) {
                Case c = RandomCases.generate(seed, n);
                byNumber.put(n, c);
                try {
                    write(zarr, store, c);
                } catch (RuntimeException e) {
                    failures.add("zarrj could not write " + c.describe() + ": " + e);
                    continue;
                }
                ObjectNode e = entries.addObject();
                e.put("case", n);
                e.put("path", c.path());
                e.put("data_type", c.dataType());
                ArrayNode shape = e.putArray("shape");
                Arrays.stream(c.shape()).forEach(shape::add);
                if (c.strings()) {
                    e.put("fill_string", c.fillString());
                    e.put("expected", c.path() + ".json");
                    Files.write(dir.resolve(c.path() + ".json"), RandomCases.MAPPER.writeValueAsBytes(c.expectedStrings()));
                } else {
                    e.put("fill_hex", RandomCases.hex(c.fillBytes()));
                    e.put("expected", c.path() + ".bin");
                    Files.write(dir.resolve(c.path() + ".bin"), c.expected());
                }
                e.put("params", c.describe());
            }
        }
        ObjectNode manifest = RandomCases.MAPPER.createObjectNode();
        manifest.put("seed", Long.toString(seed));
        manifest.set("cases", entries);
        Files.write(dir.resolve("cases.json"), RandomCases.MAPPER.writeValueAsBytes(manifest));
        long written = System.nanoTime();

        List<String> args = new ArrayList<>(List.of("read", dir.toString()));
        if (only != null) {
            args.add(Integer.toString(only));
        }
        Zarrita.Run run = zarrita.run(args);
        long read = System.nanoTime();
        for (String line : run.lines()) {
            Matcher m = FAIL.matcher(line);
            if (m.matches()) {
                Case c = byNumber.get(Integer.parseInt(m.group(1)));
                failures.add("zarrita read " + (c == null ? "case " + m.group(1) : c.describe()) + ": " + m.group(2));
            }
        }
        String summary = run.lines().isEmpty() ? "" : run.lines().get(run.lines().size() - 1);
        System.out.printf("DifferentialTest zarrj -> zarrita: seed %d, %d cases, zarrj wrote them in %d ms, zarrita read them in %d ms: %s%n",
                seed, entries.size(), (written - start) / 1_000_000, (read - written) / 1_000_000, summary);
        if (!failures.isEmpty() || run.exitCode() != 0) {
            fail(failures.size() + " failures (seed " + seed + "; replay one case with -Dzarrj.diff.seed=" + seed
                    + " -Dzarrj.diff.case=N, and -Dzarrj.diff.dir=DIR to keep the files for "
                    + Zarrita.commandLine(List.of("read", "DIR/seed-" + seed + "/zarrj-to-zarrita", "N")) + "):\n"
                    + String.join("\n", failures.subList(0, Math.min(50, failures.size())))
                    + (failures.isEmpty() ? "\nnode exited with " + run.exitCode() + ":\n" + String.join("\n", run.lines()) : ""));
        }
        assertEquals(entries.size() + " passed, 0 failed", summary);
    }

    /** Writes a case with zarrj: creates the array from its zarr.json document, then each write in order. */
    private static void write(Zarr zarr, Store store, Case c) {
        ZarrArray a = zarr.createArray(store, "/" + c.path(), c.metadata().deepCopy(), true);
        for (Write w : c.writes()) {
            NdArray data = c.strings() ? NdArray.copyOf(a.dataType(), w.strings(), w.shape())
                    : NdArray.wrap(a.dataType(), ByteBuffer.wrap(w.bytes()), w.shape());
            a.write(w.offset(), data);
        }
    }

    @Test
    void zarrjReadsWhatZarritaWrites(@TempDir Path temp) throws Exception {
        requireZarrita();
        Path dir = caseDir(temp, "zarrita-to-zarrj");
        int count = only == null ? cases : Math.max(cases, only + 1);
        List<String> args = new ArrayList<>(List.of("write", dir.toString(), Long.toString(seed), Integer.toString(count)));
        if (only != null) {
            args.add(Integer.toString(only));
        }
        long start = System.nanoTime();
        Zarrita.Run run = zarrita.run(args);
        long written = System.nanoTime();
        List<String> failures = new ArrayList<>();
        for (String line : run.lines()) {
            if (FAIL.matcher(line).matches()) {
                failures.add(line);
            }
        }
        assertTrue(Files.isRegularFile(dir.resolve("cases.json")),
                () -> "node wrote no cases.json (exit " + run.exitCode() + "):\n" + String.join("\n", run.lines()));
        JsonNode manifest = RandomCases.MAPPER.readTree(dir.resolve("cases.json").toFile());
        int read = 0;
        try (Zarr zarr = Zarr.defaults(); Store store = zarr.openStore(dir.toString(), true)) {
            for (JsonNode e : manifest.get("cases")) {
                read++;
                try {
                    String mismatch = compare(zarr, store, dir, e);
                    if (mismatch != null) {
                        failures.add("zarrj read seed " + seed + " case " + e.get("case").asInt() + ": " + mismatch
                                + " (" + e.get("params").asText() + ")");
                    }
                } catch (RuntimeException | IOException x) {
                    failures.add("zarrj read seed " + seed + " case " + e.get("case").asInt() + ": " + x
                            + " (" + e.get("params").asText() + ")");
                }
            }
        }
        long end = System.nanoTime();
        System.out.printf("DifferentialTest zarrita -> zarrj: seed %d, %d cases, zarrita wrote them in %d ms, zarrj read them in %d ms, %d failures%n",
                seed, read, (written - start) / 1_000_000, (end - written) / 1_000_000, failures.size());
        if (!failures.isEmpty() || run.exitCode() != 0) {
            fail(failures.size() + " failures (seed " + seed + "; replay one case with -Dzarrj.diff.seed=" + seed
                    + " -Dzarrj.diff.case=N, or write it by hand with "
                    + Zarrita.commandLine(List.of("write", "DIR", Long.toString(seed), Integer.toString(count), "N")) + "):\n"
                    + String.join("\n", failures.subList(0, Math.min(50, failures.size())))
                    + (failures.isEmpty() ? "\nnode exited with " + run.exitCode() + ":\n" + String.join("\n", run.lines()) : ""));
        }
        assertEquals(only == null ? cases : 1, read, "cases zarrita wrote");
    }

    /**
     * Reads one random region (the same for a seed and case) and compares it with the same region
     * of a full read: partial reads take other paths (inner chunks of a shard, parts of chunks).
     */
    private static String compareRegion(ZarrArray a, Path dir, JsonNode e, long[] shape) {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed ^ (0xD1B54A32D192ED03L * (e.get("case").asInt() + 1L)));
        long[] offset = new long[shape.length];
        long[] size = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            offset[d] = shape[d] == 0 ? 0 : rnd.nextLong(shape[d]);
            size[d] = shape[d] == 0 ? 0 : 1 + rnd.nextLong(shape[d] - offset[d]);
        }
        NdArray part = a.read(offset, size);
        NdArray whole = a.read();
        long n = part.elementCount();
        long[] idx = new long[shape.length];
        for (long i = 0; i < n; i++) {
            long[] at = new long[shape.length];
            for (int d = 0; d < shape.length; d++) {
                at[d] = offset[d] + idx[d];
            }
            boolean same = part.holdsObjects() ? part.getString(i).equals(whole.getString(whole.flatIndex(at)))
                    : Arrays.equals(element(part, i), element(whole, whole.flatIndex(at)));
            if (!same) {
                return "reading region " + Arrays.toString(offset) + "+" + Arrays.toString(size) + ": element "
                        + Arrays.toString(at) + " differs from a full read";
            }
            for (int d = shape.length - 1; d >= 0; d--) {
                if (++idx[d] < size[d]) {
                    break;
                }
                idx[d] = 0;
            }
        }
        return null;
    }

    private static byte[] element(NdArray a, long i) {
        int size = a.dataType().size();
        byte[] out = new byte[size];
        a.bytes().get(Math.toIntExact(i * size), out);
        return out;
    }

    /** null when zarrj reads exactly the expected case; else what differs. */
    private static String compare(Zarr zarr, Store store, Path dir, JsonNode e) throws IOException {
        ZarrArray a = zarr.openArray(store, "/" + e.get("path").asText());
        String type = e.get("data_type").asText();
        if (!a.dataType().name().equals(type)) {
            return "data type " + a.dataType().name() + ", expected " + type;
        }
        long[] shape = new long[e.get("shape").size()];
        for (int d = 0; d < shape.length; d++) {
            shape[d] = e.get("shape").get(d).asLong();
        }
        if (!Arrays.equals(a.shape(), shape)) {
            return "shape " + Arrays.toString(a.shape()) + ", expected " + Arrays.toString(shape);
        }
        NdArray got = a.read();
        String region = compareRegion(a, dir, e, shape);
        if (region != null) {
            return region;
        }
        if (type.equals("string")) {
            String fill = a.dataType().fillValueToJson(a.fillValue()).asText();
            if (!fill.equals(e.get("fill_string").asText())) {
                return "fill value " + fill + ", expected " + e.get("fill_string");
            }
            JsonNode want = RandomCases.MAPPER.readTree(dir.resolve(e.get("expected").asText()).toFile());
            String[] values = got.toStringArray();
            if (values.length != want.size()) {
                return values.length + " elements, expected " + want.size();
            }
            for (int i = 0; i < values.length; i++) {
                if (!values[i].equals(want.get(i).asText())) {
                    return "element " + i + " (C order) is " + RandomCases.MAPPER.writeValueAsString(values[i]) + ", expected "
                            + want.get(i);
                }
            }
            return null;
        }
        String fill = RandomCases.hex(a.fillValue().bytes());
        if (!fill.equals(e.get("fill_hex").asText())) {
            return "fill value bytes " + fill + ", expected " + e.get("fill_hex").asText();
        }
        byte[] want = Files.readAllBytes(dir.resolve(e.get("expected").asText()));
        ByteBuffer bytes = got.bytes();
        byte[] have = new byte[bytes.remaining()];
        bytes.get(have);
        if (have.length != want.length) {
            return have.length + " bytes, expected " + want.length;
        }
        int size = RandomCases.sizeOf(type);
        for (int i = 0; i < have.length; i += size) {
            if (!Arrays.equals(have, i, i + size, want, i, i + size)) {
                return "element " + i / size + " (C order) has bytes " + RandomCases.hex(Arrays.copyOfRange(have, i, i + size))
                        + ", expected " + RandomCases.hex(Arrays.copyOfRange(want, i, i + size));
            }
        }
        return null;
    }
}
