package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a store that suggests keeping many requests in flight (an object store), {@code zarr copy}
 * copies that many chunks at once and {@code zarr info}, when the store's listing carries no
 * sizes (it leaves {@code listPrefixSizes} to the default), asks that many chunk sizes at once,
 * not one per core: their requests are mostly waiting. The store is the test-only {@code slow:}
 * store ({@link SlowStoreProvider}).
 */
class StoreConcurrencyCliTest {
    @TempDir
    Path tmp;

    private static byte[] zarr(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, ZarrCli.run(args, out, err), err.toString(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    @Test
    void copyKeepsAsManyWritesInFlightAsTheStoreSuggests() throws Exception {
        assumeTrue(CliJvm.available(), "no class path to start the CLI with");
        Path src = tmp.resolve("src.zarr");
        zarr("create", src.toString(), "--path", "/a", "--shape", "256,16", "--chunks", "1,16", "--dtype", "int32");
        ByteBuffer values = ByteBuffer.allocate(256 * 16 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 256 * 16; i++) {
            values.putInt(i * 7 + 1);
        }
        Path raw = Files.write(tmp.resolve("a.raw"), values.array());
        zarr("write", src.toString(), "--path", "/a", "--raw", raw.toString());

        Path dst = tmp.resolve("dst.zarr").toAbsolutePath();
        CliJvm.Run copy = CliJvm.finish(CliJvm.startWithTestProviders("copy", src.toString(), "slow:" + dst));
        assertEquals(0, copy.code(), copy.err());

        int peak = Integer.parseInt(Files.readString(Path.of(dst + ".peak")).strip());
        assertTrue(peak > Runtime.getRuntime().availableProcessors() && peak <= SlowStoreProvider.SUGGESTED,
                "256 chunk writes of 20 ms each, the store suggesting " + SlowStoreProvider.SUGGESTED
                        + " in flight: the copy peaked at " + peak);
        assertArrayEquals(values.array(), zarr("cat", dst.toString(), "--path", "/a", "--format", "raw"));
    }

    @Test
    void infoAsksAsManyChunkSizesAtOnceAsTheStoreSuggests() throws Exception {
        assumeTrue(CliJvm.available(), "no class path to start the CLI with");
        Path src = tmp.resolve("src.zarr").toAbsolutePath();
        zarr("create", src.toString(), "--path", "/a", "--shape", "256", "--chunks", "1", "--dtype", "int32",
                "--fill", "7");
        Path raw = Files.write(tmp.resolve("a.raw"), new byte[256 * 4]);
        zarr("write", src.toString(), "--path", "/a", "--raw", raw.toString());

        CliJvm.Run info = CliJvm.finish(CliJvm.startWithTestProviders("info", "slow:" + src, "--json"));
        assertEquals(0, info.code(), info.err());
        assertTrue(info.out().contains("\"stored_chunks\" : 256") && info.out().contains("\"stored_bytes\" : 1024"),
                info.out());

        int peak = Integer.parseInt(Files.readString(Path.of(src + ".peak")).strip());
        assertTrue(peak > Runtime.getRuntime().availableProcessors() && peak <= SlowStoreProvider.SUGGESTED,
                "256 sizes of 20 ms each, the store suggesting " + SlowStoreProvider.SUGGESTED
                        + " in flight: info peaked at " + peak);
    }
}
