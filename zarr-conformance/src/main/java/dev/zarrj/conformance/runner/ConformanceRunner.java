package dev.zarrj.conformance.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.NamedProvider;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.store.Store;
import dev.zarrj.conformance.vectors.KitVectors;
import dev.zarrj.conformance.vectors.VectorResult;
import dev.zarrj.conformance.vectors.VectorVerifier;
import dev.zarrj.core.Zarr;
import dev.zarrj.core.registry.ExtensionRegistry;
import dev.zarrj.core.registry.ProviderInfo;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.apiguardian.api.API;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs every contract of the kit against every provider a registry holds, and the kit's vectors,
 * through the JUnit Platform launcher. Prints one line per rule and provider — {@code PASS},
 * {@code FAIL} with the reason, {@code SKIP} with the reason — and a closing line
 * {@code N passed, M failed}.
 *
 * <p>{@code java -m dev.zarrj.conformance/dev.zarrj.conformance.runner.ConformanceRunner
 * [--plugin-path DIR]} loads the jars of DIR (modular or not) into a module layer of their own;
 * {@code zarr conformance} does the same from the CLI. Exit status 0 only when nothing failed.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ConformanceRunner {
    private final ExtensionRegistry registry;
    private final PrintWriter out;
    private final AtomicInteger passed = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger skipped = new AtomicInteger();

    /** A runner over the providers of a registry, printing to {@code out}. */
    public ConformanceRunner(ExtensionRegistry registry, PrintWriter out) {
        this.registry = registry;
        this.out = out;
    }

    /** Runs everything; returns the number of failures. */
    public int run(boolean vectors) {
        try (Zarr zarr = Zarr.builder().registry(registry).build()) {
            Target.setZarr(zarr);
            return runWith(zarr, vectors);
        } finally {
            Target.setZarr(null);
            Target.set(null);
        }
    }

    private int runWith(Zarr zarr, boolean vectors) {
        for (ProviderInfo info : registry.report().providers()) {
            Class<?> contract = contractFor(info);
            if (contract == null) {
                continue;
            }
            runContract(info, contract);
        }
        for (var c : registry.report().conflicts()) {
            if (c.unresolved()) {
                line("FAIL", c.point().label() + " '" + c.name() + "'", "registry", "two providers with the same priority: "
                        + c.claimants());
            }
        }
        for (var p : registry.report().loadProblems()) {
            line("FAIL", p.point().label(), "load", p.describe());
        }
        if (vectors) {
            Store store = KitVectors.memoryStore(zarr);
            for (VectorResult r : VectorVerifier.verify(zarr, store, KitVectors.manifest())) {
                line(r.status().name(), "vector " + r.path(), "V01 reads as its manifest says", r.reason());
            }
        }
        out.printf("%d passed, %d failed%s%n", passed.get(), failed.get(),
                skipped.get() > 0 ? ", " + skipped.get() + " skipped" : "");
        out.flush();
        return failed.get();
    }

    /** The contract class that checks a provider, or null for kinds the kit has no contract for. */
    private Class<?> contractFor(ProviderInfo info) {
        NamedProvider p = info.provider();
        return switch (info.point()) {
            case CODEC -> {
                Codec c = sampleCodec((CodecProvider) p);
                if (c == null) {
                    yield null;
                }
                yield c instanceof ArrayToArrayCodec ? Discovered.ArrayToArrayCodec.class
                        : c instanceof ArrayToBytesCodec ? Discovered.ArrayToBytesCodec.class
                        : Discovered.BytesToBytesCodec.class;
            }
            case DATA_TYPE -> Discovered.DataType.class;
            case CHUNK_GRID -> Discovered.ChunkGrid.class;
            case CHUNK_KEY_ENCODING -> Discovered.ChunkKeyEncoding.class;
            case STORAGE_TRANSFORMER -> Discovered.StorageTransformer.class;
            case STORE -> {
                var remote = Discovered.Store.notLocal((dev.zarrj.api.store.StoreProvider) p);
                if (remote.isPresent()) {
                    line("SKIP", "store " + p.name(), "all rules", "cannot open a local temporary location ("
                            + remote.get() + "); a remote store is checked by its own StoreContract test against a server");
                    yield null;
                }
                yield Discovered.Store.class;
            }
            case METADATA_FORMAT -> null;
        };
    }

    private Codec sampleCodec(CodecProvider p) {
        var examples = p.exampleConfigurations();
        try {
            return p.create(ExtensionConfig.of(p.name(), examples.isEmpty() ? null : examples.get(0), "/codecs/0/configuration"),
                    Target.zarr().providerContext());
        } catch (RuntimeException e) {
            line("SKIP", "codec " + p.name(), "configuration",
                    "cannot create it from its example configurations (list some in exampleConfigurations()): " + e.getMessage());
            return null;
        }
    }

    private void runContract(ProviderInfo info, Class<?> contract) {
        Target.set(info.provider());
        String who = info.point().label() + " " + info.name();
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(contract)).build();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, new TestExecutionListener() {
            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                if (id.isTest() || id.isContainer() && id.getSource().isPresent()) {
                    line("SKIP", who, id.getDisplayName(), reason);
                }
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (!id.isTest()) {
                    if (result.getStatus() == TestExecutionResult.Status.FAILED && id.getSource().isPresent()) {
                        line("FAIL", who, id.getDisplayName(), reason(result));
                    }
                    return;
                }
                switch (result.getStatus()) {
                    case SUCCESSFUL -> line("PASS", who, id.getDisplayName(), "");
                    case ABORTED -> line("SKIP", who, id.getDisplayName(), reason(result));
                    case FAILED -> line("FAIL", who, id.getDisplayName(), reason(result));
                }
            }
        });
    }

    private static String reason(TestExecutionResult result) {
        return result.getThrowable().map(t -> {
            String m = t.getMessage();
            return (m == null ? t.getClass().getSimpleName() : m).replace('\n', ' ');
        }).orElse("");
    }

    private synchronized void line(String status, String who, String rule, String reason) {
        switch (status) {
            case "PASS" -> passed.incrementAndGet();
            case "FAIL" -> failed.incrementAndGet();
            default -> skipped.incrementAndGet();
        }
        out.println(status + " " + who + ": " + rule + (reason == null || reason.isEmpty() ? "" : " — " + reason));
    }

    /** Entry point: {@code [--plugin-path DIR] [--no-vectors]}. */
    public static void main(String[] args) {
        Path plugins = null;
        boolean vectors = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--plugin-path" -> plugins = Path.of(args[++i]);
                case "--no-vectors" -> vectors = false;
                default -> {
                    System.err.println("usage: ConformanceRunner [--plugin-path DIR] [--no-vectors]");
                    System.exit(2);
                }
            }
        }
        ExtensionRegistry registry = plugins == null ? ExtensionRegistry.discover() : ExtensionRegistry.discoverPlugins(plugins);
        PrintWriter out = new PrintWriter(System.out, true);
        int failures = new ConformanceRunner(registry, out).run(vectors);
        System.exit(failures == 0 ? 0 : 1);
    }
}
