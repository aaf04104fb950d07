package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.zarrj.api.NdArray;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code zarr write} processes on one zip archive at once, one on rows 0:64 and one on rows
 * 64:128 of an int32 128x128 array with 64x64 chunks (issue 22, item 1): every element written by
 * a process that exited 0 is in the archive; a process that did not get the archive exited 2 with
 * one line naming it; with {@code --wait} both exit 0 and both halves are there.
 */
class ZipWritersTest {
    private static final int ROUNDS = 20;
    private static final int WAIT_ROUNDS = 5;

    @TempDir
    Path tmp;

    private static int zarr(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ZarrCli.run(args, out, err);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        return code;
    }

    /** 64 rows of 128 int32 values, little-endian, distinct per round and half. */
    private static byte[] half(int round, int half) {
        ByteBuffer b = ByteBuffer.allocate(64 * 128 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 64 * 128; i++) {
            b.putInt(round * 1_000_000 + half * 100_000 + i + 1);
        }
        return b.array();
    }

    /** The number of elements of rows [64 half, 64 half + 64) that differ from what that half's writer wrote. */
    private static int missing(Path zip, int round, int half) {
        try (Store s = Zarr.defaults().openStore(zip.toString(), true)) {
            ZarrArray a = Zarr.defaults().openArray(s, "/a");
            NdArray rows = a.read(new long[] {64L * half, 0}, new long[] {64, 128});
            ByteBuffer want = ByteBuffer.wrap(half(round, half)).order(ByteOrder.LITTLE_ENDIAN);
            int differ = 0;
            for (int i = 0; i < 64 * 128; i++) {
                if (rows.getLong(i) != want.getInt(i * 4)) {
                    differ++;
                }
            }
            return differ;
        }
    }

    private Path newArchive(int round) throws IOException {
        Path zip = tmp.resolve("s" + round + ".zip");
        zarr("create", zip.toString(), "--path", "/a", "--shape", "128,128", "--chunks", "64,64", "--dtype", "int32");
        return zip;
    }

    private List<CliJvm.Run> writeBothHalves(Path zip, int round, boolean waitOption) throws Exception {
        List<Process> started = new ArrayList<>();
        for (int half = 0; half < 2; half++) {
            Path raw = Files.write(tmp.resolve("r" + round + "-" + half + ".raw"), half(round, half));
            List<String> args = new ArrayList<>(List.of("write", zip.toString(), "--path", "/a",
                    "--region", (64 * half) + ":" + (64 * half + 64) + ",:", "--raw", raw.toString()));
            if (waitOption) {
                args.add("--wait");
            }
            started.add(CliJvm.start(args.toArray(String[]::new)));
        }
        List<CliJvm.Run> runs = new ArrayList<>();
        for (Process p : started) {
            runs.add(CliJvm.finish(p));
        }
        return runs;
    }

    @Test
    void twoWritersAtOnceLoseNothingFromOneThatExitedZero() throws Exception {
        assumeTrue(CliJvm.available(), "no module path or class path to start the CLI with");
        int refused = 0;
        for (int round = 0; round < ROUNDS; round++) {
            Path zip = newArchive(round);
            List<CliJvm.Run> runs = writeBothHalves(zip, round, false);
            for (int half = 0; half < 2; half++) {
                CliJvm.Run r = runs.get(half);
                String who = "round " + round + ", rows " + (64 * half) + ":" + (64 * half + 64) + ": ";
                if (r.code() == 0) {
                    assertEquals(0, missing(zip, round, half), who + "elements lost from a writer that exited 0");
                } else {
                    refused++;
                    assertEquals(2, r.code(), who + r.err());
                    assertEquals(1, r.err().strip().lines().count(), who + "one line: " + r.err());
                    assertTrue(r.err().contains(zip.toAbsolutePath().toString())
                            && r.err().contains("is being written by another process"), who + r.err());
                    assertTrue(!r.out().contains("wrote"), who + "no success reported: " + r.out());
                }
            }
            assertTrue(runs.get(0).code() == 0 || runs.get(1).code() == 0, "round " + round + ": one writer wins");
            assertEquals(List.of(), Files.list(tmp).filter(p -> p.getFileName().toString().startsWith("." + zip.getFileName()))
                    .toList(), "no lock, spill or temporary file left");
        }
        System.out.println("two zip writers, " + ROUNDS + " rounds: " + refused + " writer(s) refused, 0 elements lost");
    }

    @Test
    void twoWritersThatWaitBothWriteTheirHalf() throws Exception {
        assumeTrue(CliJvm.available(), "no module path or class path to start the CLI with");
        for (int round = 0; round < WAIT_ROUNDS; round++) {
            Path zip = newArchive(round);
            List<CliJvm.Run> runs = writeBothHalves(zip, round, true);
            for (int half = 0; half < 2; half++) {
                assertEquals(0, runs.get(half).code(), "round " + round + ": " + runs.get(half).err());
                assertTrue(runs.get(half).out().contains("wrote 8192 elements"), runs.get(half).out());
                assertEquals(0, missing(zip, round, half), "round " + round + ", half " + half);
            }
        }
    }

    @Test
    void waitReachesZipStoresAsAUriQueryAndIsCheckedFirst() {
        WaitOption w = new WaitOption();
        assertEquals("a.zip", w.apply("a.zip"), "no --wait: the location as given");
        w.wait = "forever";
        String abs = Path.of("a.zip").toAbsolutePath().normalize().toUri().getRawPath();
        assertEquals("zip:" + abs + "?wait=forever", w.apply("a.zip"));
        w.wait = "30s";
        assertEquals("zip:/x.zip!/in?wait=30s", w.apply("zip:/x.zip!/in"));
        assertEquals("set.zarr", w.apply("set.zarr"), "other stores take no lock");
        assertEquals("memory:", w.apply("memory:"));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ZarrCli.run(new String[] {"write", tmp.resolve("x.zip").toString(), "--path", "/a", "--raw", "-",
                "--wait=soon"}, out, err);
        assertEquals(2, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--wait 'soon' is not a duration"), err.toString());
        err.reset();
        code = ZarrCli.run(new String[] {"create", "zip:" + tmp.resolve("y.zip").toUri().getRawPath() + "?wait=1s",
                "--path", "/g", "--group", "--wait"}, out, err);
        assertEquals(2, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("give the wait once"), err.toString());
    }
}
