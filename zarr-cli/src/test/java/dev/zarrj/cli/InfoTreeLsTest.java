package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** {@code zarr info}'s tree with sizes and {@code --depth}, and {@code zarr ls}, on a generated hierarchy. */
class InfoTreeLsTest {
    @TempDir
    Path tmp;

    private static void ok(String... args) {
        CliRun r = CliRun.zarr(args);
        assertEquals(0, r.code(), String.join(" ", args) + ": " + r.err());
    }

    /**
     * / (group) with /top int16 [10] chunks 5 (one chunk written), /g1 (group) with /g1/x uint8 [4,6]
     * chunks 2x3 (all written), and /g1/g2 (group) with /g1/g2/deep float64 [3] (nothing written).
     */
    private Path hierarchy(int format) throws IOException {
        Path store = tmp.resolve("v" + format + ".zarr");
        String s = store.toString();
        String f = Integer.toString(format);
        String bytes = "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]";
        ok("create", s, "--path", "/", "--group", "--zarr-format", f);
        ok("create", s, "--path", "/g1", "--group", "--zarr-format", f);
        ok("create", s, "--path", "/g1/g2", "--group", "--zarr-format", f);
        ok("create", s, "--path", "/top", "--shape", "10", "--chunks", "5", "--dtype", "int16", "--codecs", bytes,
                "--zarr-format", f);
        ok("create", s, "--path", "/g1/x", "--shape", "4,6", "--chunks", "2,3", "--dtype", "uint8", "--codecs", bytes,
                "--zarr-format", f);
        ok("create", s, "--path", "/g1/g2/deep", "--shape", "3", "--chunks", "3", "--dtype", "float64",
                "--zarr-format", f);
        byte[] ones = new byte[24];
        java.util.Arrays.fill(ones, (byte) 1); // not the fill value, so that the chunks are stored
        ok("write", s, "--path", "/top", "--region", "0:5", "--raw", Files.write(tmp.resolve("top.raw"),
                java.util.Arrays.copyOf(ones, 10)).toString());
        ok("write", s, "--path", "/g1/x", "--raw", Files.write(tmp.resolve("x.raw"), ones).toString());
        return store;
    }

    /** The bytes of the chunk files below an array's folder. */
    private static long chunkBytes(Path store, String array) throws IOException {
        try (Stream<Path> files = Files.walk(store.resolve(array))) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().startsWith(".") && !p.getFileName().toString().equals("zarr.json"))
                    .mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static List<String> lines(String... args) {
        CliRun r = CliRun.zarr(args);
        assertEquals(0, r.code(), String.join(" ", args) + ": " + r.err());
        return r.out().lines().toList();
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 2})
    void infoDrawsTheHierarchyAsATreeWithSizes(int format) throws IOException {
        Path store = hierarchy(format);
        assertEquals(10, chunkBytes(store, "top"), "one stored chunk of 5 int16");
        assertEquals(24, chunkBytes(store, "g1/x"), "four stored chunks of 2x3 uint8");
        List<String> out = lines("info", store.toString());
        assertEquals(List.of(
                "/                 group                            34 B",
                "├── g1            group                            24 B",
                "│   ├── g2        group                            0 B",
                "│   │   └── deep  array  3    float64  0/1 chunks  0 B",
                "│   └── x         array  4x6  uint8    4/4 chunks  24 B",
                "└── top           array  10   int16    1/2 chunks  10 B",
                "3 group(s), 3 array(s), 34 B stored"), out.subList(1, out.size()));
        assertTrue(out.get(0).startsWith("store: ") && out.get(0).endsWith(store.getFileName().toString()), out.get(0));
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 2})
    void infoDepthStopsDescending(int format) throws IOException {
        String store = hierarchy(format).toString();
        List<String> one = lines("info", store, "--depth", "1");
        assertEquals(List.of(
                "/        group",
                "├── g1   group             (2 below)",
                "└── top  array  10  int16  1/2 chunks  10 B",
                "2 group(s), 1 array(s)"), one.subList(1, one.size()));
        List<String> zero = lines("info", store, "--path", "/g1", "--depth", "0");
        assertEquals(List.of("/g1  group      (2 below)", "1 group(s), 0 array(s)"), zero.subList(1, zero.size()));
        List<String> two = lines("info", store, "--depth", "2");
        assertTrue(two.contains("│   ├── g2  group              (1 below)"), String.join("\n", two));
        assertTrue(two.stream().noneMatch(l -> l.contains("deep")), String.join("\n", two));
        CliRun json = CliRun.zarr("info", store, "--depth", "1", "--json");
        assertTrue(json.out().contains("\"children_not_shown\" : 2") && !json.out().contains("/g1/x"), json.out());
        CliRun bad = CliRun.zarr("info", store, "--depth", "-1");
        assertEquals(2, bad.code());
        assertEquals("zarr: --depth must be 0 or more, not -1\n", bad.err());
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 2})
    void infoKeepsTheDetailsOfOneArrayAndOfEveryNodeWithLong(int format) throws IOException {
        String store = hierarchy(format).toString();
        String one = CliRun.zarr("info", store, "--path", "/g1/x").out();
        assertTrue(one.contains("/g1/x  array uint8 shape [4,6] chunks [2,3]") && one.contains("stored 4 of 4 chunks, 24 bytes"),
                one);
        String all = CliRun.zarr("info", store, "-l").out();
        assertTrue(all.contains("  /g1/g2  group") && all.contains("zarr format " + format), all);
        assertTrue(all.contains("stored 1 of 2 chunks, 10 bytes"), all);
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 2})
    void lsListsChildrenShortLongAndRecursive(int format) throws IOException {
        String store = hierarchy(format).toString();
        assertEquals(List.of("g1   group  -   -", "top  array  10  int16"), lines("ls", store));
        assertEquals(List.of("g2  group  -    -", "x   array  4x6  uint8"), lines("ls", store, "--path", "/g1"));
        assertEquals(List.of(
                "group  -   -      -  -     -  g1",
                "array  10  int16  5  1/2  10  top"), lines("ls", "-l", store));
        assertEquals(List.of(
                "group  -    -        -    -     -  g1",
                "group  -    -        -    -     -  g1/g2",
                "array  3    float64  3    0/1   0  g1/g2/deep",
                "array  4x6  uint8    2x3  4/4  24  g1/x",
                "array  10   int16    5    1/2  10  top"), lines("ls", "-lr", store));
        assertEquals(List.of("g1", "g1/g2", "g1/g2/deep", "g1/x", "top"),
                lines("ls", "--recursive", store).stream().map(l -> l.split("  ")[0]).toList());
        assertEquals(List.of("x  array  4x6  uint8"), lines("ls", store, "--path", "/g1/x"), "an array lists itself");
        assertEquals(List.of("array  4x6  uint8  2x3  4/4  24B  x"), lines("ls", "-lh", store, "--path", "/g1/x"));
    }

    /**
     * The stored sizes come from one listing with sizes per array, not a size request per chunk
     * (on S3, a HEAD request each); the output is the same as on the plain directory store.
     */
    @ParameterizedTest
    @ValueSource(ints = {3, 2})
    void infoAndLsListSizesOncePerArrayWithoutARequestPerChunk(int format) throws Exception {
        Path store = hierarchy(format);
        Assumptions.assumeTrue(CliJvm.available(), "no class path to start the CLI with");
        List<String> arrays = List.of("sizes g1/g2/deep/", "sizes g1/x/", "sizes top/");
        for (String[] command : List.of(new String[] {"info"}, new String[] {"ls", "-lr"})) {
            String shown = String.join(" ", command);
            List<String> args = new java.util.ArrayList<>(List.of(command));
            args.add(store.toString());
            List<String> plain = lines(args.toArray(String[]::new));
            args.set(args.size() - 1, "counting:" + store);
            CliJvm.Run counted = CliJvm.finish(CliJvm.startWithTestProviders(args.toArray(String[]::new)));
            assertEquals(0, counted.code(), shown + ": " + counted.err());
            List<String> out = counted.out().lines().toList();
            int skip = command[0].equals("info") ? 1 : 0; // info's first line names the store
            assertEquals(plain.subList(skip, plain.size()), out.subList(skip, out.size()), shown);
            List<String> requests = Files.readAllLines(Path.of(store + ".requests"));
            assertEquals(List.of(), requests.stream().filter(r -> r.startsWith("size ")).toList(),
                    shown + ": no size request per chunk");
            assertEquals(arrays, requests.stream().filter(r -> r.startsWith("sizes ")).sorted().toList(),
                    shown + ": one listing with sizes per array");
        }
    }

    @org.junit.jupiter.api.Test
    void lsOfAMissingNodeIsAUserError() {
        CliRun r = CliRun.zarr("ls", tmp.resolve("nothing.zarr").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("zarr: [ZARR-NOT-FOUND]") && r.err().lines().count() == 1, r.err());
    }

    @org.junit.jupiter.api.Test
    void humanBytes() {
        assertEquals("0 B", InfoCommand.humanBytes(0));
        assertEquals("1023 B", InfoCommand.humanBytes(1023));
        assertEquals("1.0 KiB", InfoCommand.humanBytes(1024));
        assertEquals("1.5 MiB", InfoCommand.humanBytes(1536L * 1024));
        assertEquals("12 GiB", InfoCommand.humanBytes(12L << 30));
        assertEquals("8.0 EiB", InfoCommand.humanBytes(Long.MAX_VALUE));
    }
}
