package dev.zarrj.cli;

import static dev.zarrj.cli.CliRun.zarr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code zarr verify} against what a hostile or crashed world leaves in a directory store: a
 * folder or fifo where a chunk file should be, temporary files of interrupted writes.
 */
class VerifyCommandTest {
    @TempDir
    Path tmp;

    Path store;


    /** An int32 array {@code /a} of 90 × 110 in chunks of 10 × 10: 99 chunks, all written. */
    @BeforeEach
    void writeArray() throws IOException {
        store = tmp.resolve("s.zarr");
        CliRun c = zarr("create", store.toString(), "--path", "/a", "--shape", "90,110", "--chunks", "10,10",
                "--dtype", "int32");
        assertEquals(0, c.code(), c.err());
        ByteBuffer raw = ByteBuffer.allocate(90 * 110 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 90 * 110; i++) {
            raw.putInt(i + 1);
        }
        Path file = tmp.resolve("a.raw");
        Files.write(file, raw.array());
        CliRun w = zarr("write", store.toString(), "--path", "/a", "--raw", file.toString());
        assertEquals(0, w.code(), w.err());
        CliRun v = zarr("verify", store.toString());
        assertEquals(0, v.code(), v.out() + v.err());
        assertTrue(v.out().contains("99 chunk(s) checked, 0 bad"), v.out());
    }

    /** The same in a zip archive: a directory entry named like the chunk, and no file of that name. */
    @Test
    void aDirectoryEntryWhereAChunkShouldBeIsBadInAZip() throws IOException {
        Path zip = tmp.resolve("s.zip");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip));
             Stream<Path> files = Files.walk(store)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                String name = store.relativize(f).toString().replace('\\', '/');
                out.putNextEntry(new ZipEntry(name.equals("a/c/0/0") ? "a/c/0/0/" : name));
                if (!name.equals("a/c/0/0")) {
                    out.write(Files.readAllBytes(f));
                }
                out.closeEntry();
            }
        }

        CliRun verify = zarr("verify", zip.toString());
        assertEquals(1, verify.code(), verify.out() + verify.err());
        assertTrue(verify.out().contains("BAD a/c/0/0: ") && verify.out().contains("directory entry"), verify.out());
        CliRun cat = zarr("cat", zip.toString(), "--path", "/a", "--region", "0:2,0:3", "--format", "csv");
        assertEquals(2, cat.code(), cat.out());
        assertTrue(cat.err().contains("'a/c/0/0'"), cat.err());
    }

    /**
     * The same in a large, mostly absent array, whose reads list the array rather than ask for
     * every chunk: the listing must show the folder, which {@code list_prefix} does not.
     */
    @Test
    void aFolderWhereAnAbsentChunkShouldBeIsAnErrorInASparseRead() throws IOException {
        CliRun c = zarr("create", store.toString(), "--path", "/sparse", "--shape", "64,64", "--chunks", "1,1",
                "--dtype", "int32");
        assertEquals(0, c.code(), c.err());
        Path one = tmp.resolve("one.raw");
        Files.write(one, new byte[] {7, 0, 0, 0});
        CliRun w = zarr("write", store.toString(), "--path", "/sparse", "--region", "3,4", "--raw", one.toString());
        assertEquals(0, w.code(), w.err());
        Files.createDirectories(store.resolve("sparse/c/40/41"));

        CliRun cat = zarr("cat", store.toString(), "--path", "/sparse", "--format", "csv");
        assertEquals(2, cat.code(), "4,096 chunks, one present, one a folder: " + cat.err());
        assertTrue(cat.err().contains("'sparse/c/40/41'") && cat.err().contains("is a directory"), cat.err());
    }

    @Test
    void aFolderWhereAChunkShouldBeIsAnErrorInCatAndBadInVerify() throws IOException {
        Files.delete(store.resolve("a/c/0/0"));
        Files.createDirectory(store.resolve("a/c/0/0"));

        CliRun cat = zarr("cat", store.toString(), "--path", "/a", "--region", "0:2,0:3", "--format", "csv");
        assertEquals(2, cat.code(), cat.out());
        assertEquals("", cat.out(), "no fill values printed in place of the data");
        assertTrue(cat.err().contains("'a/c/0/0'") && cat.err().contains("is a directory"), cat.err());
        assertEquals(1, cat.err().lines().count(), cat.err());

        CliRun verify = zarr("verify", store.toString());
        assertEquals(1, verify.code(), verify.out() + verify.err());
        assertTrue(verify.out().contains("BAD a/c/0/0: ") && verify.out().contains("is a directory"), verify.out());
        assertTrue(verify.out().contains("99 chunk(s) checked, 1 bad"), verify.out());
    }

    @Test
    void aFolderHoldingFilesWhereAChunkShouldBeIsBadToo() throws IOException {
        Files.delete(store.resolve("a/c/3/4"));
        Files.createDirectories(store.resolve("a/c/3/4/x"));
        Files.write(store.resolve("a/c/3/4/x/y"), new byte[] {1});
        CliRun verify = zarr("verify", store.toString(), "--path", "/a");
        assertEquals(1, verify.code(), verify.out() + verify.err());
        assertTrue(verify.out().contains("BAD a/c/3/4: ") && verify.out().contains("is a directory"), verify.out());
        assertTrue(verify.out().contains("99 chunk(s) checked, 1 bad"), verify.out());
    }

    @Test
    void aFifoWhereAChunkShouldBeIsBadAndNothingBlocks() throws Exception {
        Path fifo = store.resolve("a/c/8/10");
        Files.delete(fifo);
        try {
            Process p = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                System.out.println("fifo test skipped: mkfifo failed: " + out);
                return;
            }
        } catch (IOException e) {
            System.out.println("fifo test skipped: the mkfifo command is not available (" + e.getMessage() + ")");
            return;
        }
        CliRun verify = zarr("verify", store.toString());
        assertEquals(1, verify.code(), verify.out() + verify.err());
        assertTrue(verify.out().contains("BAD a/c/8/10: ") && verify.out().contains("is a fifo"), verify.out());
        assertTrue(verify.out().contains("99 chunk(s) checked, 1 bad"), verify.out());
    }

    static Path plant(Path dir, String name, int size, Duration age) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, new byte[size]);
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minus(age)));
        return p;
    }

    @Test
    void verifyListsLeftoversApartFromBadChunksAndCleanRemovesTheDeadOnes() throws IOException {
        Path old = plant(store.resolve("a/c/1"), ".zarrj-0abc.tmp", 4000, Duration.ofHours(3));
        Path young = plant(store.resolve("a/c/2"), ".zarrj-0def.tmp", 40, Duration.ZERO);
        Path held = plant(store.resolve("a/c/3"), ".zarrj-0123.tmp", 400, Duration.ofHours(3));

        try (FileChannel ch = FileChannel.open(held, StandardOpenOption.WRITE); FileLock lock = ch.lock()) {
            CliRun list = zarr("verify", store.toString());
            assertEquals(0, list.code(), "leftovers are no error of the data: " + list.out() + list.err());
            assertTrue(list.out().contains("99 chunk(s) checked, 0 bad"), list.out());
            assertTrue(list.out().contains("leftover " + old + " 4000 bytes\n"), list.out());
            assertTrue(list.out().contains("leftover " + young + " 40 bytes\n"), list.out());
            assertTrue(list.out().contains("leftover " + held + " 400 bytes (live: a writer is still running)\n"),
                    list.out());
            assertTrue(list.out().contains("3 leftover(s), 4440 bytes, 1 live; zarr verify --clean removes the others"),
                    list.out());
            assertTrue(Files.exists(old) && Files.exists(young), "verify alone removes nothing");

            CliRun clean = zarr("verify", store.toString(), "--clean");
            assertEquals(0, clean.code(), clean.out() + clean.err());
            String out = clean.out();
            assertTrue(out.contains("removed leftover " + old + " 4000 bytes\n1 leftover(s) removed, 4000 bytes\n"),
                    out);
            assertTrue(out.contains("leftover " + young + " 40 bytes\n"), "younger than the default 1s: " + out);
            assertTrue(out.contains("2 leftover(s), 440 bytes, 1 live; the others are younger than --min-age 1s"), out);
            assertFalse(Files.exists(old));
            assertTrue(Files.exists(young) && Files.exists(held));

            CliRun all = zarr("verify", store.toString(), "--clean", "--min-age", "0");
            assertEquals(0, all.code(), all.out() + all.err());
            assertTrue(all.out().contains("removed leftover " + young + " 40 bytes\n"), all.out());
            assertTrue(all.out().contains("1 leftover(s), 400 bytes, all live"), all.out());
            assertTrue(Files.exists(held), "a live leftover is never removed");
            assertFalse(Files.exists(young));
        }
        CliRun none = zarr("verify", store.toString(), "--clean", "--min-age", "PT0S");
        assertTrue(none.out().contains("removed leftover " + held + " 400 bytes"), none.out());
        assertTrue(none.out().endsWith("no leftovers remain\n"), none.out());
        CliRun data = zarr("cat", store.toString(), "--path", "/a", "--region", "89,109", "--format", "csv");
        assertEquals("9900\n", data.out(), "values are never touched");
    }

    @Test
    void aBadMinimumAgeIsAUserError() {
        CliRun r = zarr("verify", store.toString(), "--clean", "--min-age", "5 minutes");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("zarr: Invalid value for option '--min-age': '5 minutes' is not a duration"),
                r.err());
        assertEquals(Duration.ofMinutes(90), Durations.parse("90m"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("1500ms"));
        assertEquals("90m", Durations.format(Duration.ofMinutes(90)));
        assertEquals("1500ms", Durations.format(Duration.ofMillis(1500)));
    }
}
