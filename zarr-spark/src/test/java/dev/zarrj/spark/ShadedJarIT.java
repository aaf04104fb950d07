package dev.zarrj.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar ({@code zarr-spark-VERSION-all.jar}) is all a Spark job needs: a JVM with only
 * Spark's libraries and that jar on its class path finds the {@code zarr} source, the stores and
 * the codecs (their {@code META-INF/services} merged), and reads an array.
 */
class ShadedJarIT {
    @TempDir
    Path dir;

    @Test
    void sparkWithTheShadedJarAloneReadsAShardedZstdArray() throws Exception {
        // Spark's libraries: what zarr-spark has in provided scope, and those it shares with zarrj.
        String provided = System.getProperty("zarrj.spark.providedClasspath") + File.pathSeparator
                + System.getProperty("zarrj.spark.sharedClasspath");
        Path jar = Path.of(System.getProperty("zarrj.spark.shadedJar"));
        assertTrue(Files.isRegularFile(jar), "no shaded jar at " + jar);
        // Only the check's own class, not the module's test classes and their dependencies.
        Path classes = dir.resolve("classes/dev/zarrj/spark");
        Files.createDirectories(classes);
        Files.copy(Path.of(ShadedJarCheck.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/zarrj/spark/ShadedJarCheck.class"), classes.resolve("ShadedJarCheck.class"));
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx1g");
        for (String p : new String[] {"java.lang", "java.lang.invoke", "java.lang.reflect", "java.io", "java.net",
            "java.nio", "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "jdk.internal.ref",
            "sun.nio.ch", "sun.nio.cs", "sun.security.action", "sun.util.calendar"}) {
            cmd.add("--add-opens=java.base/" + p + "=ALL-UNNAMED");
        }
        cmd.add("-cp");
        cmd.add(provided + File.pathSeparator + jar + File.pathSeparator + dir.resolve("classes"));
        cmd.add(ShadedJarCheck.class.getName());
        cmd.add(dir.toString());
        Path log = dir.resolve("child.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean done = p.waitFor(5, TimeUnit.MINUTES);
        if (!done) {
            p.destroyForcibly();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done, "the child JVM did not finish:\n" + out);
        assertEquals(0, p.exitValue(), out);
        long n = 40 * 50;
        String expected = "RESULT " + n + " " + (n * (n - 1) / 2) + " 39 49";
        assertTrue(out.contains(expected), "expected '" + expected + "' in:\n" + out);
    }
}
