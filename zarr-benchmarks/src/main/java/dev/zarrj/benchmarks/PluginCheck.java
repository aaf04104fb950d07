package dev.zarrj.benchmarks;

import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.store.StoreProvider;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks that the benchmarks jar finds every zarrj provider that the benchmarks use, through the
 * {@code META-INF/services} files alone (it runs on the class path, where {@code provides} clauses
 * count for nothing). The build runs it on {@code target/benchmarks.jar}; by hand:
 * {@code java -cp zarr-benchmarks/target/benchmarks.jar dev.zarrj.benchmarks.PluginCheck}.
 * Exits 1, naming what is missing, when a provider is not found or failed to load.
 */
public final class PluginCheck {
    static final List<String> CODECS = List.of("bytes", "crc32c", "gzip", "zstd", "blosc", "sharding_indexed");

    private PluginCheck() {}

    public static void main(String[] args) {
        List<String> problems = problems(ExtensionRegistry.discover());
        if (ExtensionRegistry.class.getModule().isNamed()) {
            problems.add("zarr-core was loaded as a named module; this check is for the class path");
        }
        if (!problems.isEmpty()) {
            System.err.println("benchmarks jar: " + String.join("; ", problems));
            System.exit(1);
        }
        System.out.println("benchmarks jar: class path registry has codecs " + CODECS + " and the memory: store");
    }

    /** What is missing from {@code registry} for the benchmarks; empty when nothing is. */
    static List<String> problems(ExtensionRegistry registry) {
        List<String> problems = new ArrayList<>();
        for (String codec : CODECS) {
            if (registry.find(ExtensionPoint.CODEC, codec, CodecProvider.class).isEmpty()) {
                problems.add("codec '" + codec + "' not found (installed: " + registry.names(ExtensionPoint.CODEC) + ")");
            }
        }
        if (registry.find(ExtensionPoint.STORE, "memory", StoreProvider.class).isEmpty()) {
            problems.add("store 'memory' not found");
        }
        registry.report().loadProblems().forEach(p -> problems.add("load problem: " + p.describe()));
        return problems;
    }
}
