package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory that metadata promises is not allocated before the stored bytes are looked at, and a
 * valid read that does not fit in the heap is one line naming what was read, the bytes it needs
 * and the heap: {@code zarr cat} in a child JVM with a 64 MiB heap, never an
 * {@link OutOfMemoryError} or a stack trace.
 */
class SmallHeapTest {
    private static final Zarr ZARR = Zarr.defaults();
    private static final String ZSTD = "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
            + "{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":false}}]";

    @TempDir
    Path tmp;

    record Run(int code, String err) {}

    /** {@code zarr args} in a child JVM with {@code -Xmx64m}, as this JVM runs zarrj (module or class path). */
    static Run zarrWithSmallHeap(String... args) throws IOException, InterruptedException {
        String modulePath = System.getProperty("jdk.module.path");
        String classPath = System.getProperty("java.class.path", "");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m"));
        if (ZarrCli.class.getModule().isNamed()) {
            Assumptions.assumeTrue(modulePath != null && !modulePath.isBlank(), "no module path to hand on");
            cmd.addAll(List.of("-p", modulePath, "-m", "dev.zarrj.cli/dev.zarrj.cli.ZarrCli"));
        } else {
            Assumptions.assumeFalse(classPath.isBlank(), "no class path to hand on");
            cmd.addAll(List.of("-cp", classPath, "dev.zarrj.cli.ZarrCli"));
        }
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child JVM did not finish");
        return new Run(p.exitValue(), err);
    }

    private static void assertOneLine(Run r, String... mentions) {
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("zarr: ") && r.err().indexOf('\n') == r.err().length() - 1,
                "one line: " + r.err());
        assertFalse(r.err().contains("OutOfMemoryError") || r.err().contains("\tat "), r.err());
        for (String m : mentions) {
            assertTrue(r.err().contains(m), "should mention '" + m + "': " + r.err());
        }
    }

    /**
     * The store: chunks of 16 × 16 int16 written with zstd, then {@code chunk_shape}
     * enlarged to 16,777,216 × 16 (512 MiB per chunk). Each chunk's frame says 512 bytes: refused
     * before 512 MiB are allocated for it.
     */
    @Test
    void anEnlargedChunkShapeIsRefusedBeforeAllocating() throws Exception {
        Path dir = tmp.resolve("enlarged.zarr");
        try (Store s = ZARR.openStore(dir.toString())) {
            ZarrArray a = ZARR.array(DataTypes.INT16, 64, 64).chunks(16, 16).codecs(ZSTD).create(s, "/a");
            short[] v = new short[64 * 64];
            for (int i = 0; i < v.length; i++) {
                v[i] = (short) (i * 31 + 7);
            }
            a.write(new long[] {0, 0}, new long[] {64, 64}, v);
        }
        Path meta = dir.resolve("a/zarr.json");
        String json = Files.readString(meta);
        String enlarged = json.replaceFirst("\"chunk_shape\"\\s*:\\s*\\[\\s*16\\s*,\\s*16\\s*]",
                "\"chunk_shape\": [16777216, 16]");
        assertFalse(enlarged.equals(json), json);
        Files.writeString(meta, enlarged);

        Run r = zarrWithSmallHeap("cat", dir.toString(), "--path", "/a");
        assertOneLine(r, "chunk 'a/c/0/", "zstd", "512 bytes", "536870912");
    }

    /** A valid array of 256 MiB read whole: the region does not fit in a 64 MiB heap. */
    @Test
    void aRegionLargerThanTheHeapNamesArrayBytesAndHeap() throws Exception {
        Path dir = tmp.resolve("large.zarr");
        try (Store s = ZARR.openStore(dir.toString())) {
            ZarrArray a = ZARR.array(DataTypes.FLOAT32, 8192, 8192).chunks(1024, 1024).codecs(ZSTD).create(s, "/a");
            a.write(new long[] {0, 0}, new long[] {2, 2}, new float[] {1, 2, 3, 4});
        }
        Run r = zarrWithSmallHeap("cat", dir.toString(), "--path", "/a");
        assertOneLine(r, "region [8192, 8192]", "array '/a'", "268435456 bytes", "heap of at most");
    }

    /** A valid chunk of 128 MiB, of which a small region is read: the decoded chunk does not fit. */
    @Test
    void aChunkLargerThanTheHeapNamesChunkBytesAndHeap() throws Exception {
        Path dir = tmp.resolve("chunk.zarr");
        try (Store s = ZARR.openStore(dir.toString())) {
            ZarrArray a = ZARR.array(DataTypes.FLOAT64, 1 << 24).chunks(1 << 24).codecs(ZSTD).create(s, "/a");
            double[] v = new double[1 << 24];
            Arrays.fill(v, 1.5);
            a.write(new long[] {0}, new long[] {1 << 24}, v);
        }
        Run r = zarrWithSmallHeap("cat", dir.toString(), "--path", "/a", "--region", "0:4");
        assertOneLine(r, "chunk 'a/c/0' of array '/a'", "134217728 bytes", "heap of at most");
    }
}
