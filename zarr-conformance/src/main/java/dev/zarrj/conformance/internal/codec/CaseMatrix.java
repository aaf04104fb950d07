package dev.zarrj.conformance.internal.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.ExtensionConfig;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Every configuration × data type × shape that a codec contract checks, with what was refused and
 * what went wrong while building it.
 *
 * <p>A case is <em>accepted</em> when the kind-specific probe (for example {@code checkSupported}
 * and {@code encodedSize}) passes, <em>refused</em> when the probe throws
 * {@link InvalidMetadataException}, and a <em>problem</em> when creating the codec or probing it
 * throws anything else: a codec must refuse a representation it cannot handle with
 * {@code InvalidMetadataException}. When {@link Codec#resolveDefaults} gives another codec for a
 * representation, that codec is a case of its own ("defaults resolved"), since new arrays record it.
 *
 * <p>Every data type meets every shape, except that samples above {@link Samples#HEAVY_BYTES}
 * (the large array) are used for one accepted data type per configuration, rotating through the
 * data types from one configuration to the next: a few large arrays cover the code paths of large
 * input, and the run stays short.
 *
 * <p>Only the round-trip rule reports problems and round-trip failures; every other rule checks
 * the cases that round-trip, so that one defect fails one rule.
 */
public final class CaseMatrix {
    /** Checks that a codec accepts a case; throws {@link InvalidMetadataException} to refuse it. */
    @FunctionalInterface
    public interface Probe {
        void check(Case c);
    }

    /** A configuration and the codec created from it. */
    public record Configured(ObjectNode configuration, Codec codec) {}

    /** Something that went wrong while building the cases, for the round-trip rule to report. */
    public record Problem(String label, String message, Throwable cause) {}

    /** The JSON pointer the contracts create codecs with, as if each were an array's first codec. */
    public static final String POINTER = "/codecs/0/configuration";

    private final List<Configured> configured = new ArrayList<>();
    private final List<Case> accepted = new ArrayList<>();
    private final List<Problem> problems = new ArrayList<>();
    private final Map<Case, Boolean> roundTrips = new IdentityHashMap<>();
    private final Predicate<Case> roundTrip;
    private int refused;

    private CaseMatrix(Predicate<Case> roundTrip) {
        this.roundTrip = roundTrip;
    }

    /**
     * Builds the cases.
     *
     * @param kind      the codec interface the contract checks
     * @param kindName  how messages name that kind ("bytes→bytes")
     * @param probe     whether a codec accepts a case
     * @param roundTrip whether a case round-trips (cached; see {@link #roundTripping()})
     */
    public static CaseMatrix build(CodecProvider provider, ProviderContext context, List<ObjectNode> configurations,
                                   List<DataType> dataTypes, Function<DataType, List<long[]>> shapes,
                                   Class<? extends Codec> kind, String kindName, Probe probe,
                                   Predicate<Case> roundTrip) {
        CaseMatrix m = new CaseMatrix(roundTrip);
        for (ObjectNode configuration : configurations) {
            String what = provider.name() + " " + configuration;
            Codec codec;
            try {
                codec = create(provider, context, configuration);
            } catch (Throwable e) {
                m.problems.add(new Problem(what, "create(" + configuration + ") threw " + Failures.describe(e)
                        + "; every configuration the contract is given must be valid", e));
                continue;
            }
            if (codec == null || !kind.isInstance(codec)) {
                m.problems.add(new Problem(what, "create returned " + (codec == null ? "null" : "a "
                        + codec.getClass().getName()) + ", not a " + kindName + " codec", null));
                continue;
            }
            m.configured.add(new Configured(configuration, codec));
            int configurationIndex = m.configured.size() - 1;
            boolean heavyDone = false;
            for (int t = 0; t < dataTypes.size(); t++) {
                // Heavy samples rotate through the data types, one accepted per configuration.
                DataType type = dataTypes.get((t + configurationIndex) % dataTypes.size());
                for (long[] shape : shapes.apply(type)) {
                    ChunkSpec spec = new ChunkSpec(type, shape, type.defaultFillValue());
                    boolean heavy = spec.byteSize() > Samples.HEAVY_BYTES;
                    if (heavy && heavyDone) {
                        continue;
                    }
                    long seed = Samples.seed(type, shape);
                    heavyDone |= m.add(new Case(label(spec, codec, false), codec, spec, seed), probe) && heavy;
                    Codec resolved;
                    try {
                        resolved = codec.resolveDefaults(spec);
                    } catch (InvalidMetadataException e) {
                        continue;
                    } catch (Throwable e) {
                        m.problems.add(new Problem(label(spec, codec, false), "resolveDefaults threw "
                                + Failures.describe(e), e));
                        continue;
                    }
                    if (resolved == null || !kind.isInstance(resolved)) {
                        m.problems.add(new Problem(label(spec, codec, false), "resolveDefaults returned "
                                + (resolved == null ? "null" : "a " + resolved.getClass().getName()) + ", not a "
                                + kindName + " codec", null));
                    } else if (resolved != codec && !Json.same(resolved.toJson(), codec.toJson())) {
                        heavyDone |= m.add(new Case(label(spec, resolved, true), resolved, spec, seed), probe) && heavy;
                    }
                }
            }
        }
        return m;
    }

    /** Creates a codec from a configuration as the first codec of an array. */
    public static Codec create(CodecProvider provider, ProviderContext context, ObjectNode configuration) {
        return provider.create(ExtensionConfig.of(provider.name(), configuration, POINTER), context);
    }

    private static String label(ChunkSpec spec, Codec codec, boolean resolved) {
        String json;
        try {
            json = String.valueOf(codec.toJson());
        } catch (RuntimeException e) {
            json = codec.name() + " (toJson threw " + e + ")";
        }
        return spec.dataType().name() + " " + Samples.shape(spec.shape()) + " " + json
                + (resolved ? " (defaults resolved)" : "");
    }

    private boolean add(Case c, Probe probe) {
        try {
            probe.check(c);
        } catch (InvalidMetadataException e) {
            refused++;
            return false;
        } catch (Throwable e) {
            problems.add(new Problem(c.label(), "refused it with " + Failures.describe(e)
                    + "; a codec must refuse a representation it cannot handle with InvalidMetadataException", e));
            return false;
        }
        accepted.add(c);
        return true;
    }

    /** The configurations that created a codec of the right kind. */
    public List<Configured> configured() {
        return configured;
    }

    /** The accepted cases. */
    public List<Case> accepted() {
        return accepted;
    }

    /** The accepted cases that round-trip: what every rule but the round-trip rule checks. */
    public List<Case> roundTripping() {
        List<Case> out = new ArrayList<>();
        for (Case c : accepted) {
            if (roundTrips(c)) {
                out.add(c);
            }
        }
        return out;
    }

    /** Whether a case round-trips; computed once. */
    public synchronized boolean roundTrips(Case c) {
        return roundTrips.computeIfAbsent(c, k -> {
            try {
                return roundTrip.test(k);
            } catch (Throwable e) {
                return false;
            }
        });
    }

    /** What went wrong while building the cases. */
    public List<Problem> problems() {
        return problems;
    }

    /** How many cases the codec refused. */
    public int refused() {
        return refused;
    }
}
