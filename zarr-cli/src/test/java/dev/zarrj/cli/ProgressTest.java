package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress bar: drawn on standard error only when asked (ZARR_PROGRESS=always) or on a
 * terminal after a second, cleared at the end, never on standard output.
 */
class ProgressTest {
    @TempDir
    Path tmp;

    private static final String CLEAR = "\r\033[K";

    record Run(int code, String out, String err) {}

    private static Run zarr(String progress, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ZarrCli.run(args, out, err, progress);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void barShowsPercentCountRateAndTimeLeft() {
        Progress p = new Progress(new PrintWriter(new StringWriter()), "copy /a", 100, "chunks", false, 0, () -> 0, false);
        assertEquals("copy /a [##########----------]  50% 50/100 chunks, 5.0 MiB/s, ETA 0:10",
                p.line(50, 50L << 20, 10_000_000_000L));
        assertEquals("copy /a [####################] 100% 100/100 chunks, 10 chunks/s, 0:10".replace("10 chunks/s", "10.0 chunks/s"),
                p.line(100, 0, 10_000_000_000L));
        Progress unknown = new Progress(new PrintWriter(new StringWriter()), "consolidate /", -1, "nodes", false, 0, () -> 0,
                false);
        assertEquals("consolidate / ..., 1:05", unknown.line(0, 0, 65_000_000_000L));
        assertEquals("1:01:01", Progress.clockTime(3661));
    }

    @Test
    void autoWaitsASecondThenDrawsAndClearsAtTheEnd() {
        StringWriter text = new StringWriter();
        AtomicLong now = new AtomicLong();
        Progress p = new Progress(new PrintWriter(text), "verify /a", 4, "chunks", true, Progress.DELAY_NANOS, now::get, false);
        now.set(500_000_000L);
        p.step(0);
        assertEquals("", text.toString(), "nothing before a second");
        now.set(1_200_000_000L);
        p.step(0);
        assertTrue(text.toString().startsWith("\rverify /a [##########----------]  50% 2/4 chunks"), text.toString());
        p.close();
        assertTrue(text.toString().endsWith(CLEAR), "cleared: " + text);
        StringWriter quick = new StringWriter();
        Progress q = new Progress(new PrintWriter(quick), "verify /b", 4, "chunks", true, Progress.DELAY_NANOS, () -> 0, false);
        q.step(0);
        q.close();
        assertEquals("", quick.toString(), "work done within a second leaves nothing, not even a clearing");
    }

    @Test
    void phasesShareTheDelayButCountAfresh() {
        StringWriter text = new StringWriter();
        AtomicLong now = new AtomicLong();
        Progress p = new Progress(new PrintWriter(text), "copy", -1, "chunks", true, Progress.DELAY_NANOS, now::get, false);
        p.phase("copy /a", 2, "chunks");
        now.set(700_000_000L);
        p.step(0);
        p.step(0);
        assertEquals("", text.toString(), "/a was quick");
        p.phase("copy /b", 4, "chunks");
        now.set(1_100_000_000L);
        p.step(0);
        assertTrue(text.toString().startsWith("\rcopy /b [#####---------------]  25% 1/4 chunks"),
                "the whole took more than a second, though /b alone did not: " + text);
        p.clear();
        assertTrue(text.toString().endsWith(CLEAR), "a line of output may follow: " + text);
        int cleared = text.toString().length();
        p.step(0);
        assertTrue(text.toString().substring(cleared).startsWith("\rcopy /b [##########"), "drawn again at once: " + text);
        p.close();
        assertTrue(text.toString().endsWith(CLEAR));
    }

    @Test
    void outputOfOthersGoesAboveTheBarNeverThroughIt() {
        StringWriter text = new StringWriter();
        PrintWriter terminal = new PrintWriter(text);
        AtomicLong now = new AtomicLong(2_000_000_000L);
        Progress p = new Progress(terminal, "bench", 3, "runs", true, 0, now::get, false);
        PrintWriter harness = p.around(terminal);
        p.step(0);
        assertTrue(text.toString().startsWith("\rbench ["), text.toString());
        harness.print("read float32 ");
        assertTrue(text.toString().endsWith(CLEAR + "read float32 "), "the bar erased first: " + text);
        now.addAndGet(1_000_000_000L);
        p.step(0);
        assertTrue(text.toString().endsWith("read float32 "), "no bar in the middle of a line: " + text);
        harness.println("1.2 GB/s");
        now.addAndGet(1_000_000_000L);
        p.step(0);
        assertTrue(text.toString().contains("read float32 1.2 GB/s" + System.lineSeparator() + "\rbench ["),
                "drawn again below the finished line: " + text);
        p.close();
        StringWriter off = new StringWriter();
        PrintWriter plain = new PrintWriter(off);
        assertTrue(new Progress(plain, "bench", 3, "runs", false, 0, now::get, false).around(plain) == plain,
                "without a bar the harness writes straight through");
    }

    @Test
    void modeComesFromZarrProgress() {
        assertEquals(Progress.Mode.AUTO, Progress.Mode.parse(null));
        assertEquals(Progress.Mode.ALWAYS, Progress.Mode.parse("always"));
        assertEquals(Progress.Mode.NEVER, Progress.Mode.parse("Never"));
        assertThrows(UserError.class, () -> Progress.Mode.parse("sometimes"));
        Run bad = zarr("sometimes", "verify", store());
        assertEquals(2, bad.code());
        assertTrue(bad.err().startsWith("zarr: ZARR_PROGRESS must be always, never or auto, not 'sometimes'"), bad.err());
    }

    private String store() {
        String s = tmp.resolve("p.zarr").toString();
        assertEquals(0, zarr(null, "create", s, "--path", "/a", "--shape", "100,8", "--chunks", "10,8", "--dtype", "int32")
                .code());
        return s;
    }

    @Test
    void writeCopyAndVerifyDrawOnStandardErrorOnlyWhenAsked() throws IOException {
        String s = store();
        byte[] data = new byte[100 * 8 * 4];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i % 251 + 1);
        }
        Path raw = Files.write(tmp.resolve("a.raw"), data);
        Run quiet = zarr(null, "write", s, "--path", "/a", "--raw", raw.toString());
        assertEquals(0, quiet.code(), quiet.err());
        assertEquals("", quiet.err(), "auto: the test's standard error is no terminal");
        Run write = zarr("always", "write", s, "--path", "/a", "--raw", raw.toString());
        assertEquals(0, write.code(), write.err());
        assertEquals(quiet.out(), write.out(), "standard output is the same with a bar");
        assertTrue(write.err().contains("\rwrite /a [") && write.err().contains("10/10 slabs"), write.err());
        assertTrue(write.err().endsWith(CLEAR), write.err());
        assertEquals(0, zarr("never", "cat", s, "--path", "/a", "-o", tmp.resolve("back.raw").toString()).code());
        assertEquals(java.util.Arrays.toString(data), java.util.Arrays.toString(Files.readAllBytes(tmp.resolve("back.raw"))),
                "written slab by slab, read back whole");

        String dst = tmp.resolve("copy.zarr").toString();
        Run copy = zarr("always", "copy", s, dst);
        assertEquals(0, copy.code(), copy.err());
        assertTrue(copy.err().contains("\rcopy /a [") && copy.err().contains("100% 10/10 chunks"), copy.err());
        assertTrue(copy.err().endsWith(CLEAR), copy.err());
        assertTrue(copy.out().startsWith("/a -> Zarr v3: copied byte for byte: 10 chunk(s)"), copy.out());
        assertTrue(!copy.out().contains("\r") && !copy.out().contains("["), copy.out());

        Run verify = zarr("always", "verify", dst);
        Run verifyQuiet = zarr("never", "verify", dst);
        assertEquals(0, verify.code(), verify.err());
        assertEquals(verifyQuiet.out(), verify.out());
        assertEquals("", verifyQuiet.err());
        assertTrue(verify.err().contains("\rverify /a [") && verify.err().contains("100% 10/10 chunks"), verify.err());
        assertTrue(verify.err().endsWith(CLEAR), verify.err());

        Run consolidate = zarr("always", "consolidate", dst);
        assertEquals(0, consolidate.code(), consolidate.err());
        assertTrue(consolidate.out().startsWith("consolidated the metadata of 1 node(s)"), consolidate.out());
        assertTrue(consolidate.err().isEmpty() || consolidate.err().endsWith(CLEAR), consolidate.err());
    }
}
