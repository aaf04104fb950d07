package dev.zarrj.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.bench.data.Host;
import dev.zarrj.bench.raw.RawCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** What the figures were measured on, read from the JVM and (on Linux) {@code /proc}. */
final class Machine {
    private Machine() {}

    static ObjectNode describe(boolean quick, Path dir) {
        ObjectNode m = JsonNodeFactory.instance.objectNode();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("cpu", Host.procField("/proc/cpuinfo", "model name").orElse(System.getProperty("os.arch")));
        Host.procField("/proc/meminfo", "MemTotal").map(Machine::kibToMb).ifPresent(mb -> m.put("mem_total_mb", Math.round(mb)));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("arch", System.getProperty("os.arch"));
        m.put("java", System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")");
        m.put("jvm_max_heap_mb", Math.round(Runtime.getRuntime().maxMemory() / 1e6));
        m.put("zarrj", Host.zarrjVersion());
        m.put("gzip", RawCodec.gzipImplementation());
        m.put("quick", quick);
        m.put("dir", dir.toAbsolutePath().toString());
        return m;
    }

    /**
     * This process's peak resident set size (Linux {@code VmHWM}) in MB, or empty where
     * {@code /proc} does not say.
     */
    static Optional<Double> peakRssMb() {
        return Host.procField("/proc/self/status", "VmHWM").map(Machine::kibToMb);
    }

    /**
     * Minor page faults of this process so far (Linux {@code /proc/self/stat}, field 10), or
     * empty where unknown: each is a page touched for the first time, such as fresh heap.
     */
    static Optional<Long> minorFaults() {
        try {
            Path p = Path.of("/proc/self/stat");
            if (!Files.isReadable(p)) {
                return Optional.empty();
            }
            String stat = Files.readString(p);
            // After "pid (comm) ": state is field 3, minflt field 10; comm may hold spaces.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Optional.of(Long.parseLong(f[7]));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** "12345 kB" in MB (10^6 bytes). */
    private static double kibToMb(String value) {
        String digits = value.replaceAll("[^0-9]", "");
        return Long.parseLong(digits) * 1024 / 1e6;
    }
}
