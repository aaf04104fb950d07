package dev.zarrj.core.registry;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.zarrj.api.ExtensionConflictException;
import dev.zarrj.api.NamedProvider;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apiguardian.api.API;

/**
 * The installed providers of every extension point, by name. Immutable and thread-safe.
 *
 * <p>Built from {@link ServiceLoader} — over the module path and the class path
 * ({@link #discover()}), a {@link ModuleLayer} of plugins ({@link #discover(ModuleLayer)}), a class
 * loader — or by hand for tests ({@link #builder()}). The same provider class seen twice counts
 * once. When different providers claim one name, the higher {@link NamedProvider#priority()} wins
 * and the choice is logged; when the top priorities tie, the conflict is recorded and using that
 * name fails with an {@link ExtensionConflictException} naming every claimant. A provider that
 * fails to load is recorded in the {@link #report()} instead of failing discovery.
 *
 * @since 0.1
 */
@API(status = INTERNAL, since = "0.1")
public final class ExtensionRegistry {
    private static final System.Logger LOG = System.getLogger(ExtensionRegistry.class.getName());

    private static final String NUMCODECS = "zarr-codec-numcodecs (module dev.zarrj.codec.numcodecs)";
    private static final String REGISTRY_CODECS = "zarr-codec-registry (module dev.zarrj.codec.registry)";
    /** Where each extension zarrj knows of but may not have installed comes from, for error messages. */
    private static final Map<String, String> KNOWN_MODULES = Map.ofEntries(
            Map.entry("gzip", "zarr-codec-gzip (module dev.zarrj.codec.gzip)"),
            Map.entry("blosc", "zarr-codec-blosc (module dev.zarrj.codec.blosc)"),
            Map.entry("zstd", "zarr-codec-zstd (module dev.zarrj.codec.zstd)"),
            Map.entry("sharding_indexed", "zarr-codec-sharding (module dev.zarrj.codec.sharding)"),
            Map.entry("numcodecs.zlib", NUMCODECS),
            Map.entry("numcodecs.bz2", NUMCODECS),
            Map.entry("numcodecs.lzma", NUMCODECS),
            Map.entry("numcodecs.lz4", NUMCODECS),
            Map.entry("numcodecs.adler32", NUMCODECS),
            Map.entry("numcodecs.crc32", NUMCODECS),
            Map.entry("numcodecs.crc32c", NUMCODECS),
            Map.entry("numcodecs.gzip", NUMCODECS),
            Map.entry("numcodecs.fletcher32", NUMCODECS),
            Map.entry("numcodecs.jenkins_lookup3", NUMCODECS),
            Map.entry("numcodecs.shuffle", NUMCODECS),
            Map.entry("numcodecs.delta", NUMCODECS),
            Map.entry("numcodecs.fixedscaleoffset", NUMCODECS),
            Map.entry("numcodecs.quantize", NUMCODECS),
            Map.entry("numcodecs.bitround", NUMCODECS),
            Map.entry("numcodecs.astype", NUMCODECS),
            Map.entry("numcodecs.packbits", NUMCODECS),
            Map.entry("numcodecs.zfpy", NUMCODECS),
            Map.entry("numcodecs.pcodec", NUMCODECS),
            Map.entry("bitround", REGISTRY_CODECS),
            Map.entry("packbits", REGISTRY_CODECS),
            Map.entry("scale_offset", REGISTRY_CODECS),
            Map.entry("cast_value", REGISTRY_CODECS),
            Map.entry("reshape", REGISTRY_CODECS),
            Map.entry("file", "zarr-store-fs (module dev.zarrj.store.fs)"),
            Map.entry("zip", "zarr-store-zip (module dev.zarrj.store.zip)"),
            Map.entry("http", "zarr-store-http (module dev.zarrj.store.http)"),
            Map.entry("https", "zarr-store-http (module dev.zarrj.store.http)"),
            Map.entry("s3", "zarr-store-s3 (module dev.zarrj.store.s3)"));

    /** The data types of zarr-ext-mldtypes. */
    private static final java.util.regex.Pattern ML_DTYPES = java.util.regex.Pattern.compile(
            "u?int[24]|(complex_)?(bfloat16|float8_e3m4|float8_e4m3|float8_e4m3b11fnuz|float8_e4m3fnuz|float8_e5m2"
                    + "|float8_e5m2fnuz|float8_e8m0fnu|float6_e2m3fn|float6_e3m2fn|float4_e2m1fn)|complex_float(16|32|64)");

    private final Map<ExtensionPoint, Map<String, NamedProvider>> byName;
    private final Map<ExtensionPoint, Map<String, RegistryReport.Conflict>> unresolved;
    private final RegistryReport report;

    private ExtensionRegistry(Map<ExtensionPoint, Map<String, NamedProvider>> byName,
                              Map<ExtensionPoint, Map<String, RegistryReport.Conflict>> unresolved,
                              RegistryReport report) {
        this.byName = byName;
        this.unresolved = unresolved;
        this.report = report;
    }

    private static volatile ExtensionRegistry defaultRegistry;

    /**
     * The registry of everything on the module path and class path, discovered once and cached.
     */
    public static ExtensionRegistry discover() {
        ExtensionRegistry r = defaultRegistry;
        if (r == null) {
            synchronized (ExtensionRegistry.class) {
                r = defaultRegistry;
                if (r == null) {
                    Builder b = builder();
                    for (ExtensionPoint p : ExtensionPoint.values()) {
                        // The module layer of zarrj itself, then the thread's class loader (class path).
                        b.loadAll(p, ServiceLoader.load(p.providerType(), ExtensionRegistry.class.getClassLoader()));
                        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
                        if (tccl != null) {
                            b.loadAll(p, ServiceLoader.load(p.providerType(), tccl));
                        }
                    }
                    r = b.build();
                    defaultRegistry = r;
                }
            }
        }
        return r;
    }

    /** A registry of the providers in a module layer (and its parents), for plugins loaded at run time. */
    public static ExtensionRegistry discover(ModuleLayer layer) {
        Builder b = builder();
        for (ExtensionPoint p : ExtensionPoint.values()) {
            b.loadAll(p, ServiceLoader.load(layer, p.providerType()));
        }
        return b.build();
    }

    /**
     * A registry of zarrj's own layer plus the plugin jars of a directory, loaded into a module layer
     * of their own (jars without a module descriptor become automatic modules, whose
     * {@code META-INF/services} entries count).
     *
     * @throws IllegalArgumentException when {@code dir} is not a directory
     * @throws java.lang.module.FindException or {@link java.lang.module.ResolutionException} when
     *         the jars cannot be resolved (for example a missing dependency), naming the module
     */
    public static ExtensionRegistry discoverPlugins(java.nio.file.Path dir) {
        if (!java.nio.file.Files.isDirectory(dir)) {
            throw new IllegalArgumentException("plugin path '" + dir + "' is not a directory");
        }
        java.lang.module.ModuleFinder finder = java.lang.module.ModuleFinder.of(dir);
        java.util.Set<String> roots = new java.util.HashSet<>();
        finder.findAll().forEach(r -> roots.add(r.descriptor().name()));
        ModuleLayer parent = ExtensionRegistry.class.getModule().getLayer() != null
                ? ExtensionRegistry.class.getModule().getLayer() : ModuleLayer.boot();
        java.lang.module.Configuration cf = parent.configuration()
                .resolveAndBind(finder, java.lang.module.ModuleFinder.of(), roots);
        ModuleLayer layer = parent.defineModulesWithOneLoader(cf, ClassLoader.getSystemClassLoader());
        return discover(layer);
    }

    /** A registry of the providers visible to a class loader (module path of its layer, and class path). */
    public static ExtensionRegistry discover(ClassLoader loader) {
        Builder b = builder();
        for (ExtensionPoint p : ExtensionPoint.values()) {
            b.loadAll(p, ServiceLoader.load(p.providerType(), loader));
        }
        return b.build();
    }

    /** A builder for a registry assembled by hand. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The provider of a name at an extension point.
     *
     * @return empty when no provider claims the name
     * @throws ExtensionConflictException when two providers claim it with the same priority
     */
    public <P extends NamedProvider> Optional<P> find(ExtensionPoint point, String name, Class<P> type) {
        RegistryReport.Conflict c = unresolved.get(point).get(name);
        if (c != null) {
            StringBuilder sb = new StringBuilder("the " + point.label() + " '" + name
                    + "' is provided by several providers with the same priority " + c.claimants().get(0).priority()
                    + "; remove one of them or give one a higher priority():");
            for (ProviderInfo i : c.claimants()) {
                sb.append("\n  - ").append(i.describe());
            }
            throw new ExtensionConflictException(sb.toString());
        }
        NamedProvider p = byName.get(point).get(name);
        return p == null ? Optional.empty() : Optional.of(type.cast(p));
    }

    /** Every name (and alias) installed at an extension point, sorted. */
    public Set<String> names(ExtensionPoint point) {
        Set<String> s = new TreeSet<>(byName.get(point).keySet());
        s.addAll(unresolved.get(point).keySet());
        return s;
    }

    /** The zarrj module that provides a name, when zarrj knows one (for "add this module" hints). */
    public static Optional<String> knownModule(String name) {
        String module = KNOWN_MODULES.get(name);
        if (module == null && (name.equals("numpy.datetime64") || name.equals("numpy.timedelta64"))) {
            module = "zarr-ext-datetime (module dev.zarrj.ext.datetime)";
        }
        if (module == null && ML_DTYPES.matcher(name).matches()) {
            module = "zarr-ext-mldtypes (module dev.zarrj.ext.mldtypes)";
        }
        if (module == null && (name.equals("optional") || name.equals("zarrs.optional"))) {
            module = "zarr-ext-optional (module dev.zarrj.ext.optional)";
        }
        return Optional.ofNullable(module);
    }

    /** What discovery found. */
    public RegistryReport report() {
        return report;
    }

    /** Builds a registry; also used by discovery. Not thread-safe. */
    public static final class Builder {
        private final Map<ExtensionPoint, Map<String, ProviderInfo>> classes = new EnumMap<>(ExtensionPoint.class);
        private final List<RegistryReport.LoadProblem> problems = new ArrayList<>();

        private Builder() {
            for (ExtensionPoint p : ExtensionPoint.values()) {
                classes.put(p, new LinkedHashMap<>());
            }
        }

        /**
         * Adds a provider by hand; its point is inferred from its type.
         *
         * @throws IllegalArgumentException when it implements no provider interface
         */
        public Builder add(NamedProvider provider) {
            for (ExtensionPoint p : ExtensionPoint.values()) {
                if (p.providerType().isInstance(provider)) {
                    addTo(p, provider);
                    return this;
                }
            }
            throw new IllegalArgumentException(provider.getClass().getName() + " implements no provider interface");
        }

        /** Adds every provider a {@link ServiceLoader} finds, recording those that fail to load. */
        public Builder loadAll(ExtensionPoint point, ServiceLoader<? extends NamedProvider> loader) {
            return loadAllFrom(point, loader.iterator());
        }

        /** Adds every provider an iterator yields, recording those whose loading throws. */
        public Builder loadAllFrom(ExtensionPoint point, Iterator<? extends NamedProvider> it) {
            // A failing provider throws from hasNext() or next(); the iterator then moves past it.
            for (int guard = 0; guard < 10_000; guard++) {
                try {
                    if (!it.hasNext()) {
                        return this;
                    }
                    addTo(point, it.next());
                } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
                    problems.add(new RegistryReport.LoadProblem(point, e));
                }
            }
            return this;
        }

        private void addTo(ExtensionPoint point, NamedProvider provider) {
            // The same class seen through two paths counts once.
            classes.get(point).putIfAbsent(provider.getClass().getName(),
                    new ProviderInfo(point, provider.name(), provider.priority(), provider));
        }

        /** The immutable registry. */
        public ExtensionRegistry build() {
            Map<ExtensionPoint, Map<String, NamedProvider>> byName = new EnumMap<>(ExtensionPoint.class);
            Map<ExtensionPoint, Map<String, RegistryReport.Conflict>> unresolved = new EnumMap<>(ExtensionPoint.class);
            List<ProviderInfo> inUse = new ArrayList<>();
            List<RegistryReport.Conflict> conflicts = new ArrayList<>();
            for (ExtensionPoint p : ExtensionPoint.values()) {
                Map<String, List<ProviderInfo>> claims = new TreeMap<>();
                for (ProviderInfo info : classes.get(p).values()) {
                    Set<String> names = new LinkedHashSet<>();
                    names.add(info.name());
                    names.addAll(info.provider().aliases());
                    for (String n : names) {
                        claims.computeIfAbsent(n, k -> new ArrayList<>()).add(info);
                    }
                }
                Map<String, NamedProvider> chosen = new LinkedHashMap<>();
                Map<String, RegistryReport.Conflict> ties = new LinkedHashMap<>();
                for (Map.Entry<String, List<ProviderInfo>> e : claims.entrySet()) {
                    List<ProviderInfo> list = new ArrayList<>(e.getValue());
                    list.sort(Comparator.comparingInt(ProviderInfo::priority).reversed()
                            .thenComparing(ProviderInfo::className));
                    if (list.size() == 1) {
                        chosen.put(e.getKey(), list.get(0).provider());
                        if (list.get(0).name().equals(e.getKey())) {
                            inUse.add(list.get(0));
                        }
                        continue;
                    }
                    boolean tie = list.get(0).priority() == list.get(1).priority();
                    RegistryReport.Conflict c = new RegistryReport.Conflict(p, e.getKey(), list, tie ? null : list.get(0));
                    conflicts.add(c);
                    if (tie) {
                        ties.put(e.getKey(), c);
                    } else {
                        chosen.put(e.getKey(), list.get(0).provider());
                        inUse.add(list.get(0));
                        LOG.log(Level.INFO, () -> "zarrj: " + p.label() + " '" + e.getKey() + "' is provided by "
                                + list.size() + " providers; using " + list.get(0).describe());
                    }
                }
                byName.put(p, Map.copyOf(chosen));
                unresolved.put(p, Map.copyOf(ties));
            }
            return new ExtensionRegistry(byName, unresolved, new RegistryReport(inUse, conflicts, problems));
        }
    }
}
