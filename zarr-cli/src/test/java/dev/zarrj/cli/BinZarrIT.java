package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher {@code bin/zarr} end to end, as a user runs it: on the module path, from the jars
 * this build packaged (run by Failsafe after {@code package}).
 */
class BinZarrIT {
    @TempDir
    Path tmp;

    record Run(int code, byte[] out, String err) {
        String text() {
            return new String(out, StandardCharsets.UTF_8);
        }
    }

    static Run binZarr(String... args) throws IOException, InterruptedException {
        Path repo = Path.of(System.getProperty("zarrj.repo", "..")).toAbsolutePath().normalize();
        List<String> cmd = new ArrayList<>(List.of(repo.resolve("bin/zarr").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("ZARR_SKIP_BUILD", "1");
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bin/zarr did not finish");
        return new Run(p.exitValue(), out, err);
    }

    @Test
    void demoInfoCatAndPluginsRunThroughTheLauncher() throws Exception {
        Path store = tmp.resolve("demo.zarr");
        Run demo = binZarr("demo", store.toString());
        assertEquals(0, demo.code(), demo.err());
        assertTrue(demo.text().contains("/weather/temperature_gzip"), demo.text());

        Run info = binZarr("info", store.toString(), "--path", "/counts");
        assertEquals(0, info.code(), info.err());
        assertTrue(info.text().contains("/counts  array uint16 shape [200,200] chunks [64,64]"), info.text());

        Run cat = binZarr("cat", store.toString(), "--path", "/flags", "--region", "0:4");
        assertEquals(0, cat.code(), cat.err());
        assertArrayEquals(new byte[] {1, 0, 1, 1}, cat.out());

        Run plugins = binZarr("plugins");
        assertEquals(0, plugins.code(), plugins.err());
        assertTrue(plugins.text().contains("(module dev.zarrj.codec.gzip"), "plugins run as named modules: " + plugins.text());

        Run bad = binZarr("cat", store.toString(), "--path", "/nothing-here");
        assertEquals(2, bad.code());
        assertEquals(1, bad.err().strip().lines().count(), "one line: " + bad.err());
        assertTrue(Files.isDirectory(store.resolve("weather")));
    }
}
