package dev.zarrj.core.internal.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.Extension;
import dev.zarrj.api.ExtensionProvider;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.TaskRunner;
import dev.zarrj.api.UnknownExtensionException;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.DataTypeProvider;
import dev.zarrj.core.internal.pipeline.DefaultCodecChain;
import dev.zarrj.core.registry.ExtensionPoint;
import dev.zarrj.core.registry.ExtensionRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Turns extension entries of metadata into instances through the registry, applying the
 * {@code must_understand} rules: only an unknown <em>name</em> marked {@code "must_understand": false}
 * at a skippable point is skipped; a known extension with broken configuration always fails.
 */
public final class ExtensionResolver implements ProviderContext {
    private static final Pattern RAW_TYPE = Pattern.compile("^r[0-9]+$");

    private final ExtensionRegistry registry;
    private final TaskRunner tasks;

    /** A resolver over a registry whose codecs run their pieces in the calling thread. */
    public ExtensionResolver(ExtensionRegistry registry) {
        this(registry, TaskRunner.sequential());
    }

    /** A resolver over a registry whose codecs run their pieces on {@code tasks}. */
    public ExtensionResolver(ExtensionRegistry registry, TaskRunner tasks) {
        this.registry = registry;
        this.tasks = tasks;
    }

    @Override
    public TaskRunner tasks() {
        return tasks;
    }

    /** The registry. */
    public ExtensionRegistry registry() {
        return registry;
    }

    /**
     * Creates the instance for an entry, or empty when it may be skipped.
     *
     * @throws UnknownExtensionException when the name is unknown and may not be skipped
     * @throws InvalidMetadataException  when the configuration is invalid
     */
    public <T extends Extension, P extends ExtensionProvider<T>> Optional<T> resolve(
            ExtensionPoint point, ExtensionEntry entry, Class<P> providerType) {
        String lookup = entry.name();
        if (point == ExtensionPoint.DATA_TYPE && RAW_TYPE.matcher(lookup).matches()) {
            lookup = "r*";
        }
        Optional<P> provider = registry.find(point, lookup, providerType);
        if (provider.isEmpty()) {
            if (!entry.mustUnderstand() && point.skippable()) {
                return Optional.empty();
            }
            throw unknown(point, entry);
        }
        T instance = provider.get().create(entry.config(), this);
        if (instance == null) {
            throw new IllegalStateException(provider.get().getClass().getName() + ".create returned null");
        }
        return Optional.of(instance);
    }

    private UnknownExtensionException unknown(ExtensionPoint point, ExtensionEntry entry) {
        StringBuilder sb = new StringBuilder("unknown ").append(point.label()).append(" '").append(entry.name()).append("'");
        Optional<String> module = ExtensionRegistry.knownModule(entry.name());
        if (point == ExtensionPoint.DATA_TYPE && (entry.name().equals("struct") || entry.name().equals("structured"))) {
            sb = new StringBuilder("data type '").append(entry.name()).append("' (records of named fields, zarr-extensions")
                    .append(" data-types/struct) is not implemented by zarrj: arrays of it cannot be opened");
        } else if (module.isPresent()) {
            sb.append("; it is provided by ").append(module.get()).append(": add it to the module path or class path");
        } else if (!point.skippable()) {
            sb.append("; a ").append(point.label()).append(" cannot be skipped with \"must_understand\": false");
        } else {
            sb.append("; install a plugin that provides it, or mark it \"must_understand\": false if readers may ignore it");
        }
        sb.append(". Installed ").append(point.label()).append("s: ").append(registry.names(point));
        return new UnknownExtensionException(entry.pointer(), entry.name(), sb.toString());
    }

    @Override
    public CodecChain codecChain(JsonNode codecs, String pointer) {
        return parseCodecs(codecs, pointer);
    }

    @Override
    public DataType dataType(JsonNode dataType, String pointer) {
        return resolve(ExtensionPoint.DATA_TYPE, ExtensionEntry.parse(dataType, pointer, "data type"),
                DataTypeProvider.class).orElseThrow();
    }

    /** Parses a JSON array of codecs into a validated chain (kinds in order; unknown codecs per the rules). */
    public DefaultCodecChain parseCodecs(JsonNode codecs, String pointer) {
        if (codecs == null || !codecs.isArray()) {
            throw new InvalidMetadataException(pointer, "codecs must be a JSON array, found "
                    + (codecs == null ? "none" : codecs.toString()));
        }
        List<Codec> active = new ArrayList<>();
        List<String> pointers = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (int i = 0; i < codecs.size(); i++) {
            String p = pointer + "/" + i;
            ExtensionEntry e = ExtensionEntry.parse(codecs.get(i), p, "codec");
            Optional<Codec> c = resolve(ExtensionPoint.CODEC, e, CodecProvider.class);
            if (c.isPresent()) {
                active.add(c.get());
                pointers.add(p);
            } else {
                skipped.add(e.name());
            }
        }
        return new DefaultCodecChain(active, pointers, codecs.deepCopy(), skipped, pointer);
    }
}
