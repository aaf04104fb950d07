package dev.zarrj.cli;

import static dev.zarrj.cli.CliRun.zarr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.DataTypes;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import dev.zarrj.api.store.StoreKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded mutations of zip archives (bit flips, truncations at record boundaries, numeric fields of
 * the central directory, local headers and end record set to extremes) read by {@code zarr info},
 * {@code cat} and {@code verify}: exit 0, 1 or 2, at most one line on standard error and no stack
 * trace, and {@code cat} that exits 0 prints exactly what the undamaged archive gives.
 */
class ZipCliFuzzTest {
    private static final int CASES = Integer.getInteger("zipfuzz.cases", 300);
    private static final int[] SIGNATURES = {0x04034b50, 0x02014b50, 0x06054b50, 0x06064b50, 0x07064b50};

    @TempDir
    Path tmp;


    /** Archives of one hierarchy: written by zarrj (stored entries) and by the JDK (deflated, data descriptors). */
    private List<byte[]> bases() throws IOException {
        Zarr zarr = Zarr.defaults();
        Store s = zarr.openStore("memory:");
        zarr.createGroup(s, "/");
        ZarrArray a = zarr.array(DataTypes.INT32, 12, 10).chunks(5, 4).codec("gzip", Map.of("level", 1)).create(s, "/a");
        ZarrArray b = zarr.array(DataTypes.UINT8, 40).chunks(16).create(s, "/g/b");
        SplittableRandom r = new SplittableRandom(5);
        for (ZarrArray x : List.of(a, b)) {
            byte[] v = new byte[(int) (x.shape()[0] * (x.rank() > 1 ? x.shape()[1] : 1) * x.dataType().size())];
            r.nextBytes(v);
            x.write(NdArray.wrap(x.dataType(), ByteBuffer.wrap(v), x.shape()));
        }
        Path z = tmp.resolve("base.zip");
        try (Store out = zarr.openStore(z.toString())) {
            for (StoreKey k : s.list()) {
                out.set(k, s.get(k).orElseThrow());
            }
        }
        Path jdk = tmp.resolve("jdk.zip");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jdk))) {
            for (StoreKey k : s.list()) {
                out.putNextEntry(new ZipEntry(k.value()));
                ByteBuffer v = s.get(k).orElseThrow();
                byte[] bytes = new byte[v.remaining()];
                v.get(bytes);
                out.write(bytes);
                out.closeEntry();
            }
        }
        List<byte[]> out = List.of(Files.readAllBytes(z), Files.readAllBytes(jdk));
        Files.delete(z);
        Files.delete(jdk);
        return out;
    }

    private static List<Integer> records(byte[] z) {
        ByteBuffer b = ByteBuffer.wrap(z).order(ByteOrder.LITTLE_ENDIAN);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i + 4 <= z.length; i++) {
            int sig = b.getInt(i);
            for (int s : SIGNATURES) {
                if (sig == s) {
                    out.add(i);
                }
            }
        }
        return out;
    }

    private static byte[] mutate(byte[] base, SplittableRandom r, StringBuilder what) {
        byte[] z = base.clone();
        List<Integer> recs = records(z);
        int rec = recs.get(r.nextInt(recs.size()));
        switch (r.nextInt(3)) {
            case 0 -> {
                int at = r.nextBoolean() ? r.nextInt(z.length) : Math.min(z.length - 1, rec + r.nextInt(46));
                z[at] ^= (byte) (1 << r.nextInt(8));
                what.append("flip at ").append(at);
            }
            case 1 -> {
                int at = Math.max(0, Math.min(z.length - 1, rec + r.nextInt(5) - 2));
                what.append("truncate at ").append(at);
                return Arrays.copyOf(z, at);
            }
            default -> {
                int at = Math.min(z.length - 4, rec + 4 + 2 * r.nextInt(20));
                long[] extremes = {0, 0xffffffffL, 0x7fffffffL, 0x80000000L, z.length, z.length + 1L, rec, 1};
                long v = extremes[r.nextInt(extremes.length)];
                int width = r.nextBoolean() ? 2 : 4;
                for (int i = 0; i < width; i++) {
                    z[at + i] = (byte) (v >>> (8 * i));
                }
                what.append(width).append(" bytes at ").append(at).append(" = ").append(v);
            }
        }
        return z;
    }

    @Test
    void damagedArchivesGiveTheRightOutputOrOneLineAndExitTwo() throws IOException {
        SplittableRandom r = new SplittableRandom(22);
        Path file = tmp.resolve("fuzz.zip");
        List<String> failures = new ArrayList<>();
        int refused = 0;
        List<byte[]> bases = bases();
        for (int c = 0; c < bases.size(); c++) {
            byte[] base = bases.get(c);
            Files.write(file, base);
            CliRun good = zarr("cat", file.toString(), "--path", "/a", "--format", "csv");
            assertEquals(0, good.code(), good.err());
            for (int i = 0; i < CASES / 2 && failures.size() < 5; i++) {
                StringBuilder what = new StringBuilder("base " + c + " case " + i + ": ");
                Files.write(file, mutate(base, r, what));
                List<CliRun> runs = List.of(zarr("info", file.toString()),
                        zarr("cat", file.toString(), "--path", "/a", "--format", "csv"),
                        zarr("verify", file.toString()));
                for (int k = 0; k < runs.size(); k++) {
                    CliRun run = runs.get(k);
                    String err = run.err();
                    boolean oneLine = err.isEmpty() || (err.startsWith("zarr: ") && err.indexOf('\n') == err.length() - 1);
                    boolean clean = !err.contains("Exception") && !err.contains("\tat ") && !err.contains("overflow")
                            && !err.contains("OutOfMemoryError");
                    if (run.code() < 0 || run.code() > 2 || !oneLine || !clean) {
                        failures.add(what + " command " + k + " exit " + run.code() + ": " + err);
                    }
                    refused += run.code() == 0 ? 0 : 1;
                }
                CliRun cat = runs.get(1);
                if (cat.code() == 0 && !cat.out().equals(good.out())) {
                    failures.add(what + " cat printed other values and exited 0");
                }
            }
        }
        assertEquals(List.of(), failures);
        assertTrue(refused > CASES / 4, "the mutations reach the checks: " + refused + " refusals");
    }

    @Test
    void anEntryNameWithLineBreaksIsReportedOnOneLine() throws IOException {
        Path zip = tmp.resolve("names.zip");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
            out.putNextEntry(new ZipEntry("zarr.json\nzarr: fake second line\0"));
            out.write("{}".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        for (String command : List.of("info", "cat", "verify")) {
            CliRun r = zarr(command, zip.toString());
            assertEquals(2, r.code(), command + ": " + r.err());
            assertTrue(r.err().startsWith("zarr: ") && r.err().indexOf('\n') == r.err().length() - 1,
                    command + " prints one line: " + r.err());
            assertTrue(r.err().contains("zarr.json\\nzarr: fake second line\\0"), r.err());
        }
    }

    @Test
    void errorMessagesAreEscapedOntoOneLine() {
        assertEquals("a\\nb\\r\\0c d\\u001b", ZarrCli.oneLine("a\nb\r\0c\td\u001b"));
        assertEquals("key 'é😀'", ZarrCli.oneLine("key 'é😀'"));
    }
}
