package dev.zarrj.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * The one local Spark session ({@code local[2]}) the tests of this module share: starting one
 * takes seconds, so it is started on first use and stopped when the test JVM exits, with its
 * scratch folder.
 */
public final class TestSpark {
    private static SparkSession session;
    private static Path scratch;

    private TestSpark() {}

    /** The shared session. */
    public static synchronized SparkSession session() {
        if (session == null) {
            try {
                scratch = Files.createTempDirectory("zarrj-spark-test-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            session = SparkSession.builder()
                    .master("local[2]")
                    .appName("zarrj tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "4")
                    .config("spark.local.dir", scratch.toString())
                    .config("spark.sql.warehouse.dir", scratch.resolve("warehouse").toString())
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .getOrCreate();
            Runtime.getRuntime().addShutdownHook(new Thread(TestSpark::stop));
        }
        return session;
    }

    private static synchronized void stop() {
        if (session != null) {
            session.stop();
            session = null;
        }
        if (scratch != null) {
            try (Stream<Path> s = Files.walk(scratch)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // the JVM is exiting; nothing else can be done
            }
        }
    }
}
