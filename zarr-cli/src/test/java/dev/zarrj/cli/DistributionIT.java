package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution this build packaged ({@code target/zarr-VERSION.tar.gz}) as a user installs it:
 * unpacked into a folder of its own, run through a symbolic link, with no Maven (an {@code mvn}
 * first on PATH that fails if called). Run by Failsafe after {@code package}.
 */
class DistributionIT {
    @TempDir
    Path tmp;

    private Path home;
    private Path link;

    record Run(int code, byte[] out, String err) {
        String text() {
            return new String(out, StandardCharsets.UTF_8);
        }
    }

    @BeforeEach
    void unpack() throws Exception {
        Path target = Path.of(System.getProperty("zarrj.repo", "..")).toAbsolutePath().normalize().resolve("zarr-cli/target");
        Path tar;
        try (Stream<Path> files = Files.list(target)) {
            tar = files.filter(p -> p.getFileName().toString().matches("zarr-.*\\.tar\\.gz")).findFirst().orElseThrow();
        }
        Path opt = Files.createDirectories(tmp.resolve("opt"));
        Process p = new ProcessBuilder("tar", "xzf", tar.toString(), "-C", opt.toString()).inheritIO().start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "tar xzf " + tar);
        try (Stream<Path> dirs = Files.list(opt)) {
            home = dirs.findFirst().orElseThrow();
        }
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        link = Files.createSymbolicLink(bin.resolve("zarr"), home.resolve("bin/zarr"));
        Path mvn = Files.writeString(bin.resolve("mvn"), "#!/bin/sh\necho 'mvn called by the distribution' >&2\nexit 99\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private Run zarr(String... args) throws IOException, InterruptedException {
        // Found on PATH by the shell, as a user's shell finds it.
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", "exec zarr \"$@\"", "zarr"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        pb.environment().put("PATH", link.getParent() + ":" + System.getenv("PATH"));
        pb.environment().remove("ZARR_JAVA_OPTS");
        pb.environment().remove("ZARR_CDS");
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "zarr did not finish");
        return new Run(p.exitValue(), out, err);
    }

    @Test
    void runsDemoInfoAndCatThroughALinkWithoutMaven() throws Exception {
        Path lib = home.resolve("lib");
        assertTrue(Files.isRegularFile(lib.resolve("zarr-cli-" + home.getFileName().toString().substring("zarr-".length()) + ".jar")));
        assertTrue(Files.notExists(lib.resolve("zarr.jsa")), "no class-data sharing archive is shipped");

        Run demo = zarr("demo", "demo.zarr");
        assertEquals(0, demo.code(), demo.err());
        assertTrue(demo.text().contains("/weather/temperature_gzip"), demo.text());
        assertTrue(Files.size(lib.resolve("zarr-s3.jsa")) > 0, "the first run makes the archive");

        Run info = zarr("info", "demo.zarr", "--path", "/counts");
        assertEquals(0, info.code(), info.err());
        assertTrue(info.text().contains("/counts  array uint16 shape [200,200] chunks [64,64]"), info.text());
        assertEquals("", info.err());
        assertTrue(Files.size(lib.resolve("zarr.jsa")) > 0, "info, without the S3 jars, has an archive of its own");

        Run cat = zarr("cat", "demo.zarr", "--path", "/flags", "--region", "0:4");
        assertEquals(0, cat.code(), cat.err());
        assertArrayEquals(new byte[] {1, 0, 1, 1}, cat.out());

        Run bad = zarr("cat", "demo.zarr", "--path", "/nothing-here");
        assertEquals(2, bad.code());
        assertEquals(1, bad.err().strip().lines().count(), "one line: " + bad.err());
    }

    /**
     * A command that names an s3: location gets the S3 store although info starts without its jars
     * (lib/s3) otherwise.
     */
    @Test
    void anS3LocationBringsTheS3Store() throws Exception {
        assertTrue(Files.isRegularFile(home.resolve("lib/s3").resolve(jarOf("s3", "zarr-store-s3"))));
        Run info = zarr("info", "s3://no-such-bucket/x?region=us-east-1&endpoint=http://127.0.0.1:9");
        assertEquals(2, info.code());
        assertFalse(info.err().contains("no store provider"), info.err());
        assertTrue(info.err().contains("no-such-bucket"), info.err());
    }

    /**
     * The benchmark runs without the archive (its sharded runs were slower under it): it neither
     * makes one nor needs one to run.
     */
    @Test
    void theBenchmarkRunsWithoutTheArchive() throws Exception {
        Run help = zarr("bench", "--help");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.text().contains("--no-tensorstore"), help.text());
        try (Stream<Path> files = Files.list(home.resolve("lib"))) {
            List<String> archives = files.map(p -> p.getFileName().toString()).filter(n -> n.contains(".jsa")).toList();
            assertEquals(List.of(), archives, "bench made no class-data sharing archive");
        }
        assertEquals(0, zarr("--version").code());
        assertTrue(Files.size(home.resolve("lib/zarr.jsa")) > 0, "another command makes it");
    }

    /** A jar that changed (a rebuild, a reinstall, newer or older) has the launcher make the archive again. */
    @Test
    void aChangedJarHasTheArchiveMadeAgain() throws Exception {
        Path archive = home.resolve("lib/zarr.jsa");
        assertEquals(0, zarr("--version").code());
        FileTime made = Files.getLastModifiedTime(archive);
        Files.setLastModifiedTime(home.resolve("lib").resolve(jarOf("zarr-core")), FileTime.from(Instant.now().plusSeconds(5)));

        Run again = zarr("--version");
        assertEquals(0, again.code(), again.err());
        assertEquals("", again.err());
        assertTrue(Files.getLastModifiedTime(archive).compareTo(made) > 0, "made again");

        // A jar replaced by an older one (which the JVM refuses as well).
        FileTime second = Files.getLastModifiedTime(archive);
        Files.setLastModifiedTime(home.resolve("lib").resolve(jarOf("zarr-api")), FileTime.from(Instant.parse("2001-02-03T04:05:06Z")));
        Run older = zarr("--version");
        assertEquals(0, older.code(), older.err());
        assertTrue(Files.getLastModifiedTime(archive).compareTo(second) > 0, "made again after an older jar");
    }

    /** An archive the JVM cannot use costs only speed: the command runs, and says nothing about it. */
    @Test
    void aDamagedArchiveIsIgnoredSilently() throws Exception {
        Path archive = home.resolve("lib/zarr.jsa");
        assertEquals(0, zarr("--version").code());
        archive.toFile().setWritable(true);
        Files.writeString(archive, "not an archive");
        Files.setLastModifiedTime(archive, FileTime.from(Instant.now().plusSeconds(5)));

        Run run = zarr("--version");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.text().startsWith("zarrj "), run.text());
        assertEquals("", run.err());
    }

    private String jarOf(String artifact) throws IOException {
        return jarOf("", artifact);
    }

    private String jarOf(String folder, String artifact) throws IOException {
        try (Stream<Path> jars = Files.list(home.resolve("lib").resolve(folder))) {
            return jars.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(artifact + "-") && n.endsWith(".jar"))
                    .findFirst().orElseThrow();
        }
    }
}
