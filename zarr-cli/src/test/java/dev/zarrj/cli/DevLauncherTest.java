package dev.zarrj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repository's {@code bin/zarr} decides when to build: in a copy of the repository's layout
 * with an {@code mvn} that only records its calls and makes a stand-in distribution, so that no
 * real build runs.
 */
class DevLauncherTest {
    @TempDir
    Path tmp;

    private Path repo;
    private Path calls;

    @BeforeEach
    void layout() throws IOException {
        Path real = Path.of(System.getProperty("zarrj.repo", "..")).toAbsolutePath().normalize();
        repo = Files.createDirectories(tmp.resolve("repo"));
        Files.createDirectories(repo.resolve("bin"));
        executable(Files.copy(real.resolve("bin/zarr"), repo.resolve("bin/zarr")));
        Files.writeString(repo.resolve("pom.xml"), "<project/>");
        Files.createDirectories(repo.resolve("zarr-core/src/main/java"));
        Files.createDirectories(repo.resolve("zarr-core/src/test/java"));
        Files.writeString(repo.resolve("zarr-core/pom.xml"), "<project/>");
        Files.writeString(repo.resolve("zarr-core/src/main/java/A.java"), "class A {}");
        Files.writeString(repo.resolve("zarr-core/src/test/java/ATest.java"), "class ATest {}");
        calls = repo.resolve("mvn-calls");
        Path fake = Files.createDirectories(tmp.resolve("fakebin"));
        executable(Files.writeString(fake.resolve("mvn"), String.join("\n",
                "#!/bin/sh",
                "echo \"$*\" >> '" + calls + "'",
                "mkdir -p zarr-cli/target/zarr-9/bin",
                "printf '#!/bin/sh\\necho \"dist ran: $*\"\\n' > zarr-cli/target/zarr-9/bin/zarr",
                "chmod +x zarr-cli/target/zarr-9/bin/zarr",
                "")));
    }

    private static Path executable(Path p) throws IOException {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    private String run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(repo.resolve("bin/zarr").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("PATH", tmp.resolve("fakebin") + ":" + System.getenv("PATH"));
        pb.environment().remove("ZARR_SKIP_BUILD");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    private long builds() throws IOException {
        return Files.exists(calls) ? Files.readAllLines(calls).size() : 0;
    }

    private void touch(String file) throws IOException {
        Files.setLastModifiedTime(repo.resolve(file), FileTime.from(Instant.now()));
    }

    @Test
    void buildsOnlyWhenMainSourcesOrPomsChanged() throws Exception {
        assertEquals("dist ran: info x\n", run(Map.of(), "info", "x"), "builds when there is no distribution, then runs it");
        assertEquals(1, builds());
        run(Map.of(), "info", "x");
        assertEquals(1, builds(), "nothing changed");

        touch("zarr-core/src/main/java/A.java");
        run(Map.of(), "--version");
        assertEquals(2, builds(), "a main source changed");

        touch("zarr-core/src/test/java/ATest.java");
        run(Map.of());
        assertEquals(2, builds(), "tests do not change the command");

        touch("zarr-core/pom.xml");
        run(Map.of());
        assertEquals(3, builds(), "a pom.xml changed");
    }

    @Test
    void skipBuildRunsWhatIsThereAndBuildsOnlyWhenNothingIs() throws Exception {
        assertEquals("dist ran: a\n", run(Map.of("ZARR_SKIP_BUILD", "1"), "a"));
        assertEquals(1, builds(), "nothing to run: built");
        touch("zarr-core/src/main/java/A.java");
        assertEquals("dist ran: b\n", run(Map.of("ZARR_SKIP_BUILD", "1"), "b"));
        assertEquals(1, builds(), "skipped");
    }
}
