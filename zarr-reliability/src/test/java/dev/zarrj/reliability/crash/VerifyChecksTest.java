package dev.zarrj.reliability.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrj.api.store.Store;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.ZarrArray;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checks the crash tests rely on find what they are meant to find. */
class VerifyChecksTest {
    private static final Zarr ZARR = Zarr.defaults();

    @TempDir
    Path dir;

    @Test
    void findsADamagedChunkAKeyThatIsNoChunkAndAFolderWhereAChunkShouldBe() throws IOException {
        Path root = dir.resolve("data.zarr");
        CrashArrays.create(ZARR, root.toString(), 128);
        for (String path : List.of(CrashArrays.UNSHARDED, CrashArrays.SHARDED)) {
            try (ZarrArray a = ZARR.openArray(root.toString(), path)) {
                a.write(new long[] {0, 0}, new long[] {128, 128}, CrashArrays.region(1, 128, 0, 0, 128, 128));
            }
        }
        try (Store s = ZARR.openStore(root.toString(), true)) {
            VerifyChecks.Result clean = VerifyChecks.verify(ZARR, s);
            assertEquals(List.of(), clean.problems());
            assertEquals(3, clean.nodes());
            assertEquals(16 + 1, clean.chunks());
            assertEquals(3 + 16 + 1, clean.keys());
        }

        try (FileChannel ch = FileChannel.open(root.resolve("u/c/1/1"), StandardOpenOption.WRITE)) {
            ch.truncate(100); // a torn write
        }
        Files.write(root.resolve("u/extra"), new byte[] {1});
        Files.delete(root.resolve("s/c/0/0"));
        Files.createDirectories(root.resolve("s/c/0/0"));
        try (Store s = ZARR.openStore(root.toString(), true)) {
            List<String> problems = VerifyChecks.verify(ZARR, s).problems();
            assertEquals(3, problems.size(), problems.toString());
            assertTrue(problems.stream().anyMatch(p -> p.startsWith("BAD u/c/1/1: ")), problems.toString());
            assertTrue(problems.contains("BAD s/c/0/0: a folder where a chunk should be"), problems.toString());
            assertTrue(problems.contains("listed key 'u/extra' is neither metadata nor a chunk"), problems.toString());
        }
    }
}
