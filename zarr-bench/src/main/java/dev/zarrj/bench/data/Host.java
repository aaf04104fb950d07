package dev.zarrj.bench.data;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import org.apiguardian.api.API;

/**
 * What a benchmark reports about the machine and build it ran on, read once here for every
 * benchmark ({@code zarr bench}, {@code bench/spark-bench}).
 */
@API(status = INTERNAL, since = "0.17")
public final class Host {
    private Host() {}

    /** The project version this build was made from. */
    public static String zarrjVersion() {
        try (InputStream in = Host.class.getResourceAsStream("/dev/zarrj/bench/zarrj.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The 1-minute load average (Linux {@code /proc/loadavg}), or empty where unknown. */
    public static Optional<Double> loadAverage() {
        try {
            Path p = Path.of("/proc/loadavg");
            if (!Files.isReadable(p)) {
                return Optional.empty();
            }
            return Optional.of(Double.parseDouble(Files.readString(p).trim().split("\\s+")[0]));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The value of the first line {@code key: value} of a /proc file, or empty. */
    public static Optional<String> procField(String file, String key) {
        Path p = Path.of(file);
        if (!Files.isReadable(p)) {
            return Optional.empty();
        }
        try {
            for (String line : Files.readAllLines(p)) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals(key)) {
                    return Optional.of(line.substring(colon + 1).trim());
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
