package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command reports what it wrote only after the store holding it was closed, which is when a zip
 * archive is written (issue 22, item 6): when closing fails, the command exits 2 with the error
 * and no success line. The destination is the test-only {@code failclose:} store, whose close
 * fails as a zip store's does on a full disk.
 */
class ReportAfterCloseTest {
    @TempDir
    Path tmp;

    private static void zarr(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, ZarrCli.run(args, out, err), err.toString(StandardCharsets.UTF_8));
    }

    private static void failsWithoutReport(CliJvm.Run r, String report) {
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("cannot finish writing the store"), r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        assertFalse(r.out().contains(report), "reported before the store was closed: " + r.out());
    }

    @Test
    void copyCreateAndWriteSayNothingWhenTheDestinationFailsToClose() throws Exception {
        assumeTrue(CliJvm.available(), "no class path to start the CLI with");
        Path src = tmp.resolve("src.zarr");
        zarr("create", src.toString(), "--path", "/a", "--shape", "4", "--chunks", "2", "--dtype", "int32");

        CliJvm.Run copy = CliJvm.finish(CliJvm.startWithTestProviders("copy", src.toString(),
                "failclose:" + tmp.resolve("dst.zarr").toAbsolutePath()));
        failsWithoutReport(copy, "copied");

        CliJvm.Run create = CliJvm.finish(CliJvm.startWithTestProviders("create",
                "failclose:" + tmp.resolve("new.zarr").toAbsolutePath(), "--path", "/b", "--shape", "4", "--dtype", "int32"));
        failsWithoutReport(create, "created");

        CliJvm.Run group = CliJvm.finish(CliJvm.startWithTestProviders("create",
                "failclose:" + tmp.resolve("g.zarr").toAbsolutePath(), "--path", "/g", "--group"));
        failsWithoutReport(group, "created");

        Path raw = Files.write(tmp.resolve("a.raw"), new byte[16]);
        CliJvm.Run write = CliJvm.finish(CliJvm.startWithTestProviders("write", "failclose:" + src.toAbsolutePath(),
                "--path", "/a", "--raw", raw.toString()));
        failsWithoutReport(write, "wrote");

        CliJvm.Run fine = CliJvm.finish(CliJvm.startWithTestProviders("copy", src.toString(),
                tmp.resolve("ok.zip").toString()));
        assertEquals(0, fine.code(), fine.err());
        assertTrue(fine.out().contains("copied 1 array(s)"), "a close that succeeds is reported: " + fine.out());
    }

    /**
     * The zip case itself: the archive cannot be moved into place when the store closes (a
     * directory took its path while {@code zarr write} waited for its input), so the write fails
     * with exit 2 and says nothing of what it wrote.
     */
    @Test
    void aZipWriteWhoseArchiveCannotBeWrittenSaysNothing() throws Exception {
        assumeTrue(CliJvm.available(), "no module path to start the CLI with");
        Path zip = tmp.resolve("s.zip");
        zarr("create", zip.toString(), "--path", "/a", "--shape", "4", "--chunks", "2", "--dtype", "int32");
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc to see when the writer opened the archive");
        Process p = CliJvm.start("write", zip.toString(), "--path", "/a", "--raw", "-");
        Path lock = tmp.resolve(".s.zip.zarrj.lock");
        while (!opened(p, zip) && p.isAlive()) {
            Thread.sleep(20);
        }
        Files.delete(zip); // the writer reads on through the file it opened
        Files.writeString(Files.createDirectory(zip).resolve("in-the-way"), "x");
        p.getOutputStream().write(new byte[16]);
        CliJvm.Run r = CliJvm.finish(p);
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(zip.toString()) && r.err().contains("cannot write the archive"), r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        assertFalse(r.out().contains("wrote"), r.out());
        assertFalse(Files.exists(lock), "the lock is released when the write fails");
    }

    /** Whether process {@code p} has the file {@code file} open (Linux: {@code /proc/<pid>/fd}). */
    private static boolean opened(Process p, Path file) throws java.io.IOException {
        try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/" + p.pid() + "/fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(file.toAbsolutePath());
                } catch (java.io.IOException | RuntimeException e) {
                    return false;
                }
            });
        } catch (java.nio.file.NoSuchFileException e) {
            return false;
        }
    }

    /** {@code zarr demo x.zip} writes the archive before it shows it, and leaves nothing beside it. */
    @Test
    void demoIntoAZipClosesTheArchiveBeforeShowingIt() throws Exception {
        Path zip = tmp.resolve("demo.zip");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, ZarrCli.run(new String[] {"demo", zip.toString()}, out, err), err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("/counts  array uint16"), out.toString(StandardCharsets.UTF_8));
        try (java.util.stream.Stream<Path> files = Files.list(tmp)) {
            assertEquals(java.util.List.of(zip), files.toList(), "no spill or lock file left");
        }
    }
}
