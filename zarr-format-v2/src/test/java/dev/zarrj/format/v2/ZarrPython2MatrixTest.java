package dev.zarrj.format.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.ElementKind;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.core.ZarrGroup;
import dev.zarrj.core.ZarrNode;
import dev.zarrj.ext.datetime.DateTimeUnit;
import dev.zarrj.ext.datetime.NumpyTimeType;
import dev.zarrj.ext.strings.StringTypes;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two-way test matrix against the reference, zarr-python 2 (issue 16, "tested against the real
 * thing"). The committed script {@code src/test/python/v2_matrix.py} writes, with zarr-python 2,
 * a hierarchy of v2 arrays (every dtype, C and F order, each compressor and filter, both
 * separators, fill values, edge chunks, a 0-d array, partially written arrays, nested groups with
 * attributes, a consolidated subtree) and {@code expected.json}, every element as zarr-python reads
 * it; zarrj must read the same elements. The other way, zarrj writes each of those arrays afresh as
 * v2 (from the v3-equivalent document it read) and the script verifies them with zarr-python.
 * Finally the shared vectors that hold both {@code zarr.json} and {@code .zarray} read alike
 * through both formats.
 *
 * <p>Skipped, saying why, when {@code /usr/bin/python3} lacks zarr-python 2 (Debian:
 * {@code python3-zarr}) or {@code ../shared/vectors} is absent; with the environment variable
 * {@code ZARRJ_REQUIRE_ZARR_PYTHON2} set (CI sets it) these are failures instead.
 */
class ZarrPython2MatrixTest {
    static final String PYTHON = "/usr/bin/python3";
    static final Path SCRIPT = Path.of("src", "test", "python", "v2_matrix.py").toAbsolutePath();
    static final ObjectMapper JSON = new ObjectMapper();
    static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** How many differing elements an assertion message lists. */
    static final int SHOWN = 40;

    @TempDir
    static Path work;
    /** The store zarr-python wrote, and what it read back from it; null when skipped. */
    static Path pythonStore;
    static Path expectedFile;
    static JsonNode expected;
    static String skipReason;

    @BeforeAll
    static void writeMatrixWithZarrPython() throws Exception {
        Optional<String> missing = pythonMissing();
        if (missing.isPresent()) {
            skipReason = missing.get();
            return;
        }
        String keep = System.getProperty("zarrj.matrix.dir");
        if (keep != null) {  // to look at the stores afterwards: -Dzarrj.matrix.dir=DIR (emptied first)
            work = Path.of(keep).toAbsolutePath();
            if (Files.exists(work)) {
                try (Stream<Path> old = Files.walk(work)) {
                    old.sorted(Comparator.reverseOrder()).filter(f -> !f.equals(work)).forEach(f -> f.toFile().delete());
                }
            }
            Files.createDirectories(work);
        }
        pythonStore = work.resolve("python").resolve("store");
        Files.createDirectories(pythonStore.getParent());
        Result r = runScript("write", pythonStore.toString());
        assertEquals(0, r.exit, "v2_matrix.py write failed:\n" + r.stdout + r.stderr);
        expectedFile = pythonStore.getParent().resolve("expected.json");
        expected = JSON.readTree(expectedFile.toFile());
        assertTrue(expected.path("arrays").size() >= 60, "the matrix has its arrays: " + expected.path("arrays").size());
    }

    // ---------------------------------------------------------------------------------------------
    // (a) zarr-python 2 -> zarrj

    @Test
    void zarrjReadsEveryElementZarrPythonWrote() {
        requirePython();
        Zarr zarr = Zarr.defaults();
        List<String> differences = new ArrayList<>();
        long elements = 0;
        int arrays = 0;
        try (Store store = zarr.openStore(pythonStore.toString())) {
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.get("arrays").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String path = e.getKey();
                JsonNode want = e.getValue();
                ZarrArray array;
                try {
                    array = zarr.openArray(store, path);
                } catch (ZarrException ex) {
                    differences.add(path + ": cannot open: " + ex);
                    continue;
                }
                arrays++;
                if (array.zarrFormat() != 2) {
                    differences.add(path + ": zarrFormat() " + array.zarrFormat() + ", expected 2");
                }
                elements += compareArray(path, array, want, differences);
            }
        }
        System.out.printf("zarr-python 2 -> zarrj: %d arrays, %d elements checked, %d differences%n",
                arrays, elements, differences.size());
        assertNoDifferences("zarrj reads zarr-python 2's matrix", differences);
    }

    @Test
    void zarrjListsTheHierarchyAndReadsTheConsolidatedSubtree() {
        requirePython();
        Zarr zarr = Zarr.defaults();
        List<String> differences = new ArrayList<>();
        try (Store store = zarr.openStore(pythonStore.toString())) {
            // every group opens with its attributes, and lists exactly its children
            TreeSet<String> nodes = new TreeSet<>();
            expected.get("groups").fieldNames().forEachRemaining(nodes::add);
            expected.get("arrays").fieldNames().forEachRemaining(nodes::add);
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.get("groups").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String path = e.getKey();
                ZarrGroup group;
                try {
                    group = zarr.openGroup(store, path);
                } catch (RuntimeException ex) {
                    differences.add("group '" + path + "': cannot open: " + ex);
                    continue;
                }
                if (group.zarrFormat() != 2) {
                    differences.add("group '" + path + "': zarrFormat() " + group.zarrFormat());
                }
                if (!group.attributes().equals(e.getValue())) {
                    differences.add("group '" + path + "': attributes " + group.attributes() + ", expected " + e.getValue());
                }
                TreeSet<String> want = new TreeSet<>();
                String prefix = path.isEmpty() ? "" : path + "/";
                for (String n : nodes) {
                    if (n.startsWith(prefix) && !n.equals(path) && n.indexOf('/', prefix.length()) < 0) {
                        want.add(n.substring(prefix.length()));
                    }
                }
                TreeSet<String> got;
                try {
                    got = new TreeSet<>(group.childNames());
                } catch (RuntimeException ex) {
                    differences.add("group '" + path + "': cannot list: " + ex);
                    continue;
                }
                if (!got.equals(want)) {
                    differences.add("group '" + path + "': children " + got + ", expected " + want);
                }
            }
            // the consolidated subtree: opened through its .zmetadata, every array below it reads
            for (JsonNode c : expected.get("consolidated")) {
                String path = c.asText();
                ZarrGroup group;
                try {
                    group = zarr.openGroup(store, path);
                } catch (RuntimeException ex) {
                    differences.add("consolidated group '" + path + "': cannot open: " + ex);
                    continue;
                }
                Optional<List<String>> consolidated = group.consolidatedPaths();
                if (consolidated.isEmpty()) {
                    differences.add("group '" + path + "': its consolidated metadata were not read");
                    continue;
                }
                String prefix = path.isEmpty() ? "" : path + "/";
                TreeSet<String> want = new TreeSet<>();
                for (String n : nodes) {
                    if (n.startsWith(prefix) && !n.equals(path)) {
                        want.add(n.substring(prefix.length()));
                    }
                }
                TreeSet<String> got = new TreeSet<>(consolidated.get());
                if (!got.equals(want)) {
                    differences.add("group '" + path + "': consolidated paths " + got + ", expected " + want);
                }
                for (String rel : want) {
                    JsonNode arrayWant = expected.get("arrays").get(prefix + rel);
                    try {
                        if (arrayWant != null) {
                            compareArray("consolidated " + prefix + rel, group.openArray(rel), arrayWant, differences);
                        } else if (!group.openGroup(rel).attributes().equals(expected.get("groups").get(prefix + rel))) {
                            differences.add("consolidated group " + prefix + rel + ": attributes differ");
                        }
                    } catch (RuntimeException ex) {
                        differences.add("consolidated " + prefix + rel + ": cannot open through the consolidated group: " + ex);
                    }
                }
            }
            // opened without knowing what it is, each node is what it should be
            for (String n : nodes) {
                try {
                    ZarrNode node = zarr.open(store, n);
                    boolean isArray = expected.get("arrays").has(n);
                    if ((node instanceof ZarrArray) != isArray) {
                        differences.add("'" + n + "' opened as " + node.getClass().getSimpleName());
                    }
                } catch (RuntimeException ex) {
                    differences.add("'" + n + "': cannot open: " + ex);
                }
            }
        }
        assertNoDifferences("zarrj lists zarr-python 2's hierarchy", differences);
    }

    // ---------------------------------------------------------------------------------------------
    // (b) zarrj -> zarr-python 2

    @Test
    void zarrPythonReadsEveryElementZarrjWrote() throws Exception {
        requirePython();
        Zarr zarr = Zarr.defaults();
        Path out = work.resolve("zarrj").resolve("store");
        Files.createDirectories(out);
        List<String> failures = new ArrayList<>();
        try (Store source = zarr.openStore(pythonStore.toString()); Store store = zarr.openStore(out.toString())) {
            List<String> groups = new ArrayList<>();
            expected.get("groups").fieldNames().forEachRemaining(groups::add);
            groups.sort(Comparator.comparingInt((String g) -> g.isEmpty() ? 0 : g.split("/").length));
            for (String g : groups) {
                try {
                    zarr.createGroup(store, g, (ObjectNode) expected.get("groups").get(g), 2);
                } catch (RuntimeException ex) {
                    failures.add("group '" + g + "': cannot create it as v2: " + ex);
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.get("arrays").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String path = e.getKey();
                try {
                    ObjectNode document = zarr.openArray(source, path).metadata();
                    ZarrArray created = zarr.createArray(store, path, document, true, 2);
                    if (created.zarrFormat() != 2) {
                        failures.add(path + ": created with zarrFormat() " + created.zarrFormat());
                    }
                    writeExpected(created, e.getValue());
                } catch (RuntimeException ex) {
                    failures.add(path + ": cannot write it as v2: " + ex);
                }
            }
            for (JsonNode c : expected.get("consolidated")) {
                try {
                    zarr.consolidate(store, c.asText());
                } catch (RuntimeException ex) {
                    failures.add("group '" + c.asText() + "': cannot consolidate: " + ex);
                }
            }
        }
        Result r = runScript("verify", out.toString(), expectedFile.toString());
        System.out.println("zarrj -> zarr-python 2: " + lastLine(r.stdout));
        if (r.exit != 0 || !failures.isEmpty()) {
            System.err.println(r.stderr);
        }
        failures.addAll(r.stdout.lines().filter(l -> !l.startsWith("checked ")).toList());
        if (r.exit != 0 && !r.stdout.contains("checked ")) {
            failures.add("v2_matrix.py verify exited " + r.exit + " before its report: " + r.stderr);
        }
        assertNoDifferences("zarr-python 2 reads the matrix zarrj wrote (" + lastLine(r.stdout) + ")", failures);
        assertEquals(0, r.exit, "v2_matrix.py verify exit status");
    }

    @Test
    void zarrPythonReadsArraysAndGroupsMadeWithTheBuilder() throws Exception {
        requirePython();
        Zarr zarr = Zarr.defaults();
        Path out = work.resolve("builder").resolve("store");
        Files.createDirectories(out);
        ObjectNode want = F.objectNode();
        ObjectNode wantArrays = want.putObject("arrays");
        ObjectNode wantGroups = want.putObject("groups");
        want.putArray("consolidated").add("made");
        try (Store store = zarr.openStore(out.toString())) {
            ObjectNode rootAttrs = F.objectNode().put("made by", "zarrj").put("π", 3.14159);
            rootAttrs.putArray("list").add(1).add("two").addNull();
            assertEquals(2, zarr.createGroup(store, "", rootAttrs, 2).zarrFormat());
            wantGroups.set("", rootAttrs);
            ObjectNode madeAttrs = F.objectNode().put("level", 1);
            zarr.createGroup(store, "made", madeAttrs, 2);
            wantGroups.set("made", madeAttrs);
            zarr.createGroup(store, "made/empty", F.objectNode(), 2);
            wantGroups.set("made/empty", F.objectNode());

            ObjectNode attrs = F.objectNode().put("units", "K");
            ZarrArray a = zarr.array(DataTypes.FLOAT64, 7, 9).chunks(3, 4)
                    .codec("gzip", Map.of("level", 5)).attributes(attrs).zarrFormat(2).create(store, "made/f8_gzip");
            double[] d = new double[63];
            for (int i = 0; i < d.length; i++) {
                d[i] = i == 0 ? Double.NaN : i == 1 ? Double.NEGATIVE_INFINITY : i == 2 ? -0.0 : Math.sin(i) * 1e3;
            }
            a.write(new long[2], NdArray.copyOf(DataTypes.FLOAT64, d, 7, 9));
            wantArrays.set("made/f8_gzip", entry("<f8", new long[] {7, 9}, a, attrs));

            ZarrArray b = zarr.array(DataTypes.INT16, 11).chunks(4).codec("zstd", Map.of("level", 3))
                    .keyEncoding("v2", "/").fillValue(F.numberNode(-7)).zarrFormat(2).create(store, "made/i2_zstd_slash");
            b.write(new long[] {0}, new long[] {4}, new short[] {Short.MIN_VALUE, -1, 0, Short.MAX_VALUE});
            wantArrays.set("made/i2_zstd_slash", entry("<i2", new long[] {11}, b, null));

            ZarrArray c = zarr.array(DataTypes.UINT32, 3, 4, 5).chunks(2, 3, 2)
                    .codec("transpose", Map.of("order", List.of(2, 1, 0)))
                    .codec("blosc", Map.of("cname", "zstd", "clevel", 3, "shuffle", "shuffle", "typesize", 4, "blocksize", 0))
                    .zarrFormat(2).create(store, "made/u4_f_blosc");
            int[] u = new int[60];
            for (int i = 0; i < u.length; i++) {
                u[i] = i * 0x9E3779B1;
            }
            c.write(new long[3], NdArray.copyOf(DataTypes.UINT32, u, 3, 4, 5));
            wantArrays.set("made/u4_f_blosc", entry("<u4", new long[] {3, 4, 5}, c, null));

            ZarrArray e = zarr.array(DataTypes.FLOAT32, 10).chunks(4)
                    .codec("bytes", Map.of("endian", "big")).codec("numcodecs.zlib", Map.of("level", 1))
                    .fillValue(F.textNode("NaN")).zarrFormat(2).create(store, "made/f4_be_zlib");
            e.write(new long[] {2}, new long[] {3}, new float[] {1.5f, Float.MIN_VALUE, Float.MAX_VALUE});
            wantArrays.set("made/f4_be_zlib", entry(">f4", new long[] {10}, e, null));

            ZarrArray s = zarr.array(StringTypes.STRING, 5).chunks(2).zarrFormat(2).create(store, "made/text");
            s.write(new long[] {0}, new long[] {5}, new String[] {"", "a", "ünïcödé", "😀 emoji", "x".repeat(40)});
            wantArrays.set("made/text", entry("|O", new long[] {5}, s, null).put("object_codec", "vlen-utf8"));

            ZarrArray t = zarr.array(NumpyTimeType.datetime64(DateTimeUnit.of("s").orElseThrow(), 1), 4).chunks(3)
                    .fillValue(F.textNode("NaT")).zarrFormat(2).create(store, "made/datetime_s");
            t.write(new long[] {0}, new long[] {2}, new long[] {0, 1_700_000_000L});
            wantArrays.set("made/datetime_s", entry("<M8[s]", new long[] {4}, t, null));

            ZarrArray z = zarr.array(DataTypes.INT32).fillValue(F.numberNode(42)).zarrFormat(2).create(store, "made/scalar_unwritten");
            wantArrays.set("made/scalar_unwritten", entry("<i4", new long[0], z, null));

            ZarrArray p = zarr.array(DataTypes.BOOL, 13).chunks(5).codec("numcodecs.packbits")
                    .zarrFormat(2).create(store, "made/bool_packbits");
            boolean[] bits = new boolean[13];
            for (int i = 0; i < bits.length; i++) {
                bits[i] = i % 3 == 0;
            }
            p.write(new long[] {0}, new long[] {13}, bits);
            wantArrays.set("made/bool_packbits", entry("|b1", new long[] {13}, p, null));

            ZarrGroup consolidated = zarr.consolidate(store, "made");
            assertTrue(consolidated.consolidatedPaths().isPresent(), "consolidated");
            assertTrue(Files.exists(out.resolve("made").resolve(".zmetadata")), ".zmetadata written");
        }
        Path wantFile = out.getParent().resolve("expected.json");
        Files.writeString(wantFile, want.toString());
        Result r = runScript("verify", out.toString(), wantFile.toString());
        System.out.println("zarrj builder -> zarr-python 2: " + lastLine(r.stdout));
        assertEquals(0, r.exit, "zarr-python 2 reads the builder's arrays:\n" + r.stdout + r.stderr);
    }

    /** An expected.json entry for an array zarrj wrote: the values as zarrj reads them back. */
    private static ObjectNode entry(String dtype, long[] shape, ZarrArray array, ObjectNode attrs) {
        ObjectNode n = F.objectNode().put("dtype", dtype);
        ArrayNode s = n.putArray("shape");
        for (long d : shape) {
            s.add(d);
        }
        if (attrs != null) {
            n.set("attrs", attrs);
        }
        NdArray data = array.read();
        ArrayNode values = n.putArray("values");
        Elements elements = new Elements(data, dtype, dtype.equals("|O") ? "vlen-utf8" : null);
        for (long i = 0; i < data.elementCount(); i++) {
            values.add(elements.json(i));
        }
        return n;
    }

    // ---------------------------------------------------------------------------------------------
    // (c) the shared vectors with a .zarray twin read alike through both formats

    @Test
    void vectorsWithBothDocumentsReadAlikeThroughBothFormats() throws Exception {
        Path root = Path.of("..", "..", "shared", "vectors", "zarrs", "v3").toAbsolutePath().normalize();
        if (!Files.isDirectory(root)) {
            root = Path.of("..", "shared", "vectors", "zarrs", "v3").toAbsolutePath().normalize();
        }
        requireOrSkip(Files.isDirectory(root), "the shared test vectors are absent (no ../shared/vectors)");
        List<Path> twins;
        try (Stream<Path> dirs = Files.list(root)) {
            twins = dirs.filter(d -> Files.exists(d.resolve("zarr.json")) && Files.exists(d.resolve(".zarray")))
                    .sorted().toList();
        }
        assertTrue(twins.size() >= 9, "vectors with both documents: " + twins);
        Zarr zarr = Zarr.defaults();
        List<String> differences = new ArrayList<>();
        int compared = 0;
        for (Path dir : twins) {
            String name = dir.getFileName().toString();
            String dtype = JSON.readTree(dir.resolve(".zarray").toFile()).get("dtype").asText();
            try (Store store = zarr.openStore(dir.toString(), true)) {
                if (name.contains("pcodec")) {
                    for (int format : new int[] {3, 2}) {
                        ZarrException ex = assertThrows(ZarrException.class,
                                () -> zarr.openArray(store, "", format).read(), name + " through format " + format);
                        assertTrue(ex.getMessage().contains("pcodec"),
                                name + " through format " + format + ": the error names the codec: " + ex.getMessage());
                        String document = format == 2 ? ".zarray" : "zarr.json";
                        assertTrue(ex.getMessage().contains(document),
                                name + " through format " + format + ": the error names " + document + ": " + ex.getMessage());
                        System.out.println(name + " through format " + format + ": " + ex.getMessage());
                    }
                    continue;
                }
                ZarrArray v3 = zarr.openArray(store, "", 3);
                ZarrArray v2 = zarr.openArray(store, "", 2);
                assertEquals(3, v3.zarrFormat(), name);
                assertEquals(2, v2.zarrFormat(), name);
                if (!Arrays.equals(v3.shape(), v2.shape()) || !v3.dataType().equals(v2.dataType())) {
                    differences.add(name + ": v3 " + v3.dataType().name() + Arrays.toString(v3.shape()) + ", v2 "
                            + v2.dataType().name() + Arrays.toString(v2.shape()));
                    continue;
                }
                if (!v3.attributes().equals(v2.attributes())) {
                    differences.add(name + ": attributes v3 " + v3.attributes() + ", v2 " + v2.attributes());
                }
                NdArray a3 = v3.read();
                NdArray a2 = v2.read();
                Elements e3 = new Elements(a3, dtype, null);
                Elements e2 = new Elements(a2, dtype, null);
                int differ = 0;
                for (long i = 0; i < a3.elementCount(); i++) {
                    JsonNode x = e3.json(i);
                    JsonNode y = e2.json(i);
                    if (!same(dtype, x, y) && differ++ < SHOWN) {
                        differences.add(name + index(i, a3.shape()) + ": v2 " + y + ", v3 " + x);
                    }
                }
                compared++;
            }
        }
        System.out.printf("vectors: %d read alike through both formats (and pcodec refused)%n", compared);
        assertNoDifferences("the vectors read alike through both formats", differences);
    }

    // ---------------------------------------------------------------------------------------------
    // comparing and writing elements

    /** Compares every element of a zarrj array with an expected.json entry; returns the count. */
    static long compareArray(String path, ZarrArray array, JsonNode want, List<String> differences) {
        String dtype = want.get("dtype").asText();
        long[] shape = longs(want.get("shape"));
        if (!Arrays.equals(shape, array.shape())) {
            differences.add(path + ": shape " + Arrays.toString(array.shape()) + ", expected " + Arrays.toString(shape));
            return 0;
        }
        if (want.has("attrs") && !array.attributes().equals(want.get("attrs"))) {
            differences.add(path + ": attributes " + array.attributes() + ", expected " + want.get("attrs"));
        }
        NdArray data;
        try {
            data = array.read();
        } catch (RuntimeException ex) {
            differences.add(path + ": cannot read: " + ex);
            return 0;
        }
        JsonNode values = want.get("values");
        Elements elements;
        try {
            elements = new Elements(data, dtype, want.path("object_codec").asText(null));
        } catch (RuntimeException ex) {
            differences.add(path + ": read as " + data.dataType().name() + ", not comparable with " + dtype + ": " + ex);
            return 0;
        }
        int differ = 0;
        for (int i = 0; i < values.size(); i++) {
            JsonNode got;
            try {
                got = elements.json(i);
            } catch (RuntimeException ex) {
                got = F.textNode("<" + ex + ">");
            }
            if (!same(dtype, values.get(i), got)) {
                if (differ < SHOWN) {
                    differences.add(path + index(i, shape) + " (" + dtype + " read as " + data.dataType().name() + "): "
                            + got + ", expected " + values.get(i));
                }
                differ++;
            }
        }
        if (differ > SHOWN) {
            differences.add(path + ": " + (differ - SHOWN) + " more elements differ");
        }
        return values.size();
    }

    /** Writes an expected.json entry's values into a zarrj array. */
    static void writeExpected(ZarrArray array, JsonNode want) {
        String dtype = want.get("dtype").asText();
        long[] shape = longs(want.get("shape"));
        JsonNode values = want.get("values");
        int n = values.size();
        if (n == 0) {
            return;
        }
        DataType type = array.dataType();
        char kind = dtype.charAt(1);
        String objectCodec = want.path("object_codec").asText(null);
        NdArray data;
        switch (kind) {
            case 'b' -> {
                boolean[] v = new boolean[n];
                for (int i = 0; i < n; i++) {
                    v[i] = values.get(i).booleanValue();
                }
                data = NdArray.copyOf(type, v, shape);
            }
            case 'i', 'u', 'M', 'm' -> {
                long[] v = new long[n];
                for (int i = 0; i < n; i++) {
                    v[i] = values.get(i).bigIntegerValue().longValue();
                }
                data = NdArray.allocate(type, shape);
                for (int i = 0; i < n; i++) {
                    data.setLong(i, v[i]);
                }
            }
            case 'f' -> {
                data = NdArray.allocate(type, shape);
                if (type.size() == 8) {
                    double[] v = new double[n];
                    for (int i = 0; i < n; i++) {
                        v[i] = number(values.get(i));
                    }
                    data.copyFrom(v);
                } else {
                    float[] v = new float[n];
                    for (int i = 0; i < n; i++) {
                        v[i] = (float) number(values.get(i));
                    }
                    data.copyFrom(v);
                }
            }
            case 'c' -> {
                data = NdArray.allocate(type, shape);
                if (type.size() == 16) {
                    double[] v = new double[2 * n];
                    for (int i = 0; i < n; i++) {
                        v[2 * i] = number(values.get(i).get(0));
                        v[2 * i + 1] = number(values.get(i).get(1));
                    }
                    data.copyFrom(v);
                } else {
                    float[] v = new float[2 * n];
                    for (int i = 0; i < n; i++) {
                        v[2 * i] = (float) number(values.get(i).get(0));
                        v[2 * i + 1] = (float) number(values.get(i).get(1));
                    }
                    data.copyFrom(v);
                }
            }
            case 'S', 'V' -> {
                byte[][] v = new byte[n][];
                for (int i = 0; i < n; i++) {
                    v[i] = Base64.getDecoder().decode(values.get(i).asText());
                }
                data = type.kind().isVariableLength() ? NdArray.copyOf(type, v, shape) : fixedBytes(type, v, shape);
            }
            case 'U' -> {
                String[] v = new String[n];
                for (int i = 0; i < n; i++) {
                    v[i] = values.get(i).asText();
                }
                if (type.kind().isVariableLength()) {
                    data = NdArray.copyOf(type, v, shape);
                } else {
                    byte[][] b = new byte[n][];
                    for (int i = 0; i < n; i++) {
                        int[] cps = v[i].codePoints().toArray();
                        ByteBuffer u = ByteBuffer.allocate(4 * cps.length).order(ByteOrder.nativeOrder());
                        for (int cp : cps) {
                            u.putInt(cp);
                        }
                        b[i] = u.array();
                    }
                    data = fixedBytes(type, b, shape);
                }
            }
            case 'O' -> {
                if ("vlen-bytes".equals(objectCodec)) {
                    byte[][] v = new byte[n][];
                    for (int i = 0; i < n; i++) {
                        v[i] = Base64.getDecoder().decode(values.get(i).asText());
                    }
                    data = NdArray.copyOf(type, v, shape);
                } else {
                    String[] v = new String[n];
                    for (int i = 0; i < n; i++) {
                        v[i] = values.get(i).asText();
                    }
                    data = NdArray.copyOf(type, v, shape);
                }
            }
            default -> throw new IllegalArgumentException("no writer for dtype " + dtype);
        }
        array.write(new long[shape.length], data);
    }

    private static NdArray fixedBytes(DataType type, byte[][] values, long[] shape) {
        int size = type.size();
        byte[] all = new byte[size * values.length];
        for (int i = 0; i < values.length; i++) {
            System.arraycopy(values[i], 0, all, i * size, Math.min(size, values[i].length));
        }
        return NdArray.copyOf(type, all, shape);
    }

    /**
     * The elements of an array in expected.json's JSON-safe form, by the numpy dtype the array
     * was written with (whatever zarrj maps it to).
     */
    static final class Elements {
        private final NdArray data;
        private final char kind;
        private final String objectCodec;
        private final Object javaArray;
        private final byte[] raw;

        Elements(NdArray data, String dtype, String objectCodec) {
            this.data = data;
            this.kind = dtype.charAt(1);
            this.objectCodec = objectCodec;
            ElementKind k = data.dataType().kind();
            this.javaArray = kind == 'c' ? data.toJavaArray() : null;
            this.raw = (kind == 'S' || kind == 'V' || kind == 'U') && !k.isVariableLength() ? data.toByteArray() : null;
        }

        JsonNode json(long i) {
            return switch (kind) {
                case 'b' -> F.booleanNode(data.getBoolean(i));
                case 'i', 'M', 'm' -> F.numberNode(data.getLong(i));
                case 'u' -> F.numberNode(new BigInteger(Long.toUnsignedString(data.getLong(i))));
                case 'f' -> floatJson(data.getDouble(i));
                case 'c' -> {
                    ArrayNode pair = F.arrayNode();
                    if (javaArray instanceof double[] d) {
                        pair.add(floatJson(d[(int) (2 * i)])).add(floatJson(d[(int) (2 * i + 1)]));
                    } else {
                        float[] f = (float[]) javaArray;
                        pair.add(floatJson(f[(int) (2 * i)])).add(floatJson(f[(int) (2 * i + 1)]));
                    }
                    yield pair;
                }
                case 'S', 'V' -> {
                    byte[] b = raw != null ? element(i) : data.getBytes(i);
                    if (kind == 'S') {
                        int end = b.length;
                        while (end > 0 && b[end - 1] == 0) {
                            end--;
                        }
                        b = Arrays.copyOf(b, end);
                    }
                    yield F.textNode(Base64.getEncoder().encodeToString(b));
                }
                case 'U' -> {
                    if (raw == null) {
                        yield F.textNode(data.getString(i));
                    }
                    ByteBuffer u = ByteBuffer.wrap(element(i)).order(ByteOrder.nativeOrder());
                    int end = u.capacity() / 4;
                    while (end > 0 && u.getInt(4 * (end - 1)) == 0) {
                        end--;
                    }
                    StringBuilder s = new StringBuilder();
                    for (int k = 0; k < end; k++) {
                        s.appendCodePoint(u.getInt(4 * k));
                    }
                    yield F.textNode(s.toString());
                }
                case 'O' -> "vlen-bytes".equals(objectCodec)
                        ? F.textNode(Base64.getEncoder().encodeToString(data.getBytes(i)))
                        : F.textNode(data.getString(i));
                default -> throw new IllegalArgumentException("no reader for dtype kind " + kind);
            };
        }

        private byte[] element(long i) {
            int size = data.dataType().size();
            return Arrays.copyOfRange(raw, (int) (i * size), (int) ((i + 1) * size));
        }
    }

    static JsonNode floatJson(double d) {
        if (Double.isNaN(d)) {
            return F.textNode("NaN");
        }
        if (Double.isInfinite(d)) {
            return F.textNode(d > 0 ? "Infinity" : "-Infinity");
        }
        return F.numberNode(d);
    }

    static double number(JsonNode n) {
        if (n.isTextual()) {
            return switch (n.asText()) {
                case "NaN" -> Double.NaN;
                case "Infinity" -> Double.POSITIVE_INFINITY;
                case "-Infinity" -> Double.NEGATIVE_INFINITY;
                default -> throw new IllegalArgumentException("not a number: " + n);
            };
        }
        return n.doubleValue();
    }

    /** Element equality: any NaN equals any NaN; everything else exact (-0.0 is not 0.0). */
    static boolean same(String dtype, JsonNode want, JsonNode got) {
        char kind = dtype.charAt(1);
        return switch (kind) {
            case 'f' -> sameFloat(want, got);
            case 'c' -> want.isArray() && got.isArray() && want.size() == 2 && got.size() == 2
                    && sameFloat(want.get(0), got.get(0)) && sameFloat(want.get(1), got.get(1));
            case 'i', 'u', 'M', 'm' -> want.isIntegralNumber() && got.isIntegralNumber()
                    && want.bigIntegerValue().equals(got.bigIntegerValue());
            case 'b' -> want.isBoolean() && got.isBoolean() && want.booleanValue() == got.booleanValue();
            default -> want.isTextual() && got.isTextual() && want.asText().equals(got.asText());
        };
    }

    private static boolean sameFloat(JsonNode want, JsonNode got) {
        if (want.isTextual() || got.isTextual()) {
            return want.isTextual() && got.isTextual() && want.asText().equals(got.asText());
        }
        return Double.doubleToLongBits(want.doubleValue()) == Double.doubleToLongBits(got.doubleValue());
    }

    static long[] longs(JsonNode a) {
        long[] r = new long[a.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = a.get(i).longValue();
        }
        return r;
    }

    static String index(long flat, long[] shape) {
        long[] idx = new long[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            idx[d] = shape[d] == 0 ? 0 : flat % shape[d];
            flat = shape[d] == 0 ? 0 : flat / shape[d];
        }
        return Arrays.toString(idx);
    }

    static void assertNoDifferences(String what, List<String> differences) {
        if (!differences.isEmpty()) {
            StringBuilder m = new StringBuilder(what + ": " + differences.size() + " differences");
            Map<String, Integer> perArray = new LinkedHashMap<>();
            for (String d : differences) {
                perArray.merge(d.split("[:\\[ ]", 2)[0], 1, Integer::sum);
            }
            List<String> names = new ArrayList<>(perArray.keySet());
            m.append(" in ").append(names.size()).append(" arrays/groups ")
                    .append(names.size() <= 40 ? names : names.subList(0, 40) + "...");
            for (String d : differences.subList(0, Math.min(differences.size(), 200))) {
                m.append("\n  ").append(d);
            }
            System.out.println(m);
            assertFalse(true, m.toString());
        }
    }

    // ---------------------------------------------------------------------------------------------
    // running the script

    record Result(int exit, String stdout, String stderr) {
    }

    static Result runScript(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(PYTHON);
        command.add(SCRIPT.toString());
        command.addAll(List.of(args));
        Path err = Files.createTempFile(work, "stderr", ".txt");
        Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("v2_matrix.py " + String.join(" ", args) + " did not finish in 300 s");
        }
        String stderr = Files.readString(err);
        Files.delete(err);
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), stderr);
    }

    /** Why the reference cannot run here, if it cannot. */
    static Optional<String> pythonMissing() {
        if (!Files.isRegularFile(SCRIPT)) {
            return Optional.of("the script " + SCRIPT + " is missing");
        }
        if (!Files.isExecutable(Path.of(PYTHON))) {
            return Optional.of(PYTHON + " is missing (Debian: apt-get install python3-zarr)");
        }
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import zarr, numcodecs; assert zarr.__version__.startswith('2.')")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.of(PYTHON + " did not answer in 60 s");
            }
            return p.exitValue() == 0 ? Optional.empty()
                    : Optional.of(PYTHON + " lacks zarr-python 2 (Debian: apt-get install python3-zarr): " + lastLine(out));
        } catch (IOException | InterruptedException e) {
            return Optional.of(PYTHON + " cannot run: " + e);
        }
    }

    static void requirePython() {
        requireOrSkip(skipReason == null, skipReason);
    }

    static void requireOrSkip(boolean available, String reason) {
        if (available) {
            return;
        }
        if (System.getenv("ZARRJ_REQUIRE_ZARR_PYTHON2") != null) {
            throw new AssertionError("ZARRJ_REQUIRE_ZARR_PYTHON2 is set but " + reason);
        }
        System.out.println("ZarrPython2MatrixTest: skipped: " + reason);
        Assumptions.assumeTrue(false, reason);
    }

    static String lastLine(String s) {
        String t = s.strip();
        int nl = t.lastIndexOf('\n');
        return nl < 0 ? t : t.substring(nl + 1);
    }
}
