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

    /**
     * The zstd plugin left off the module path is missing (its arrays fail naming it and the module
     * to add), and found again when its jars are handed over with --plugin-path, in a layer of its own.
     */
    @Test
    void pluginPathLoadsPluginJarsIntoTheirOwnLayer() throws Exception {
        Path repo = Path.of(System.getProperty("zarrj.repo", "..")).toAbsolutePath().normalize();
        Path cliJar;
        try (var jars = Files.list(repo.resolve("zarr-cli/target"))) {
            cliJar = jars.filter(p -> p.getFileName().toString().matches("zarr-cli-.*\\.jar")).findFirst().orElseThrow();
        }
        List<String> kept = new ArrayList<>(List.of(cliJar.toString()));
        Path plugins = Files.createDirectories(tmp.resolve("plugins"));
        for (String entry : Files.readString(repo.resolve("zarr-cli/target/module-path.txt")).strip().split(java.io.File.pathSeparator)) {
            String name = Path.of(entry).getFileName().toString();
            if (name.startsWith("zarr-codec-zstd") || name.startsWith("zstd-jni")) {
                Files.copy(Path.of(entry), plugins.resolve(name));
            } else {
                kept.add(entry);
            }
        }
        assertEquals(2, Files.list(plugins).count(), "the zstd plugin and its binding");
        String modulePath = String.join(java.io.File.pathSeparator, kept);
        Path store = tmp.resolve("z.zarr");
        Run created = binZarr("create", store.toString(), "--path", "/z", "--shape", "10", "--dtype", "int32", "--codecs",
                "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":true}}]");
        assertEquals(0, created.code(), created.err());

        Run without = java(modulePath, "cat", store.toString(), "--path", "/z");
        assertEquals(2, without.code(), without.err());
        assertTrue(without.err().contains("unknown codec 'zstd'") && without.err().contains("zarr-codec-zstd"), without.err());

        Run list = java(modulePath, "--plugin-path", plugins.toString(), "plugins");
        assertEquals(0, list.code(), list.err());
        assertTrue(list.text().contains("dev.zarrj.codec.zstd.internal.ZstdCodecProvider  (module dev.zarrj.codec.zstd"),
                list.text());
        Run with = java(modulePath, "--plugin-path", plugins.toString(), "cat", store.toString(), "--path", "/z");
        assertEquals(0, with.code(), with.err());
        assertEquals(40, with.out().length);
    }

    private static Run java(String modulePath, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-p", modulePath, "-m", "dev.zarrj.cli/dev.zarrj.cli.ZarrCli"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "java did not finish");
        return new Run(p.exitValue(), out, err);
    }

    /**
     * zarr bench runs the zarr-bench module found on the launcher's module path, child JVMs
     * included, and zarr --help still lists it.
     */
    @Test
    void benchRunsTheHarnessModuleThroughTheLauncher() throws Exception {
        Run help = binZarr("--help");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.text().lines().anyMatch(l -> l.strip().startsWith("bench ")), help.text());
        Run benchHelp = binZarr("bench", "--help");
        assertEquals(0, benchHelp.code(), benchHelp.err());
        assertTrue(benchHelp.text().startsWith("Usage: zarr bench "), benchHelp.text());

        Path dir = tmp.resolve("bench");
        Run run = binZarr("bench", "--size", "tiny", "--json", "--dir", dir.toString(), "--only", "float32/bytes$|uint16/chunks-256");
        assertEquals(0, run.code(), run.err());
        String json = run.text();
        assertTrue(json.contains("\"name\" : \"float32/bytes\""), json);
        assertTrue(json.contains("\"name\" : \"uint16/chunks-256\"") && json.contains("\"heap_max_mb\""),
                "the child JVM rows: " + json);
        assertTrue(Files.isRegularFile(dir.resolve("uint16/chunks-256/zarr.json")), "kept in --dir");
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
