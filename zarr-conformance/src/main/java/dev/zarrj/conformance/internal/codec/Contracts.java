package dev.zarrj.conformance.internal.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What the three codec contracts share: default configurations and the configuration round trip. */
public final class Contracts {
    /** Compares what two codecs of one configuration do with one case; throws when they disagree. */
    public interface Behaviour {
        /** Whether the codec encodes the case to the same value twice. */
        boolean sameTwice(Codec codec, Case c) throws Throwable;

        /**
         * Throws a {@link Failures.Violation} when the two disagree: when {@code compareEncodings},
         * on the encoded value; always, on decoding each other's encoding.
         */
        void compare(Codec original, Codec recreated, Case c, boolean compareEncodings) throws Throwable;
    }

    private Contracts() {}

    /** The provider's example configurations, or one empty configuration when it lists none. */
    public static List<ObjectNode> defaultConfigurations(CodecProvider provider) {
        List<ObjectNode> examples = provider.exampleConfigurations();
        if (examples == null || examples.isEmpty()) {
            return List.of(JsonNodeFactory.instance.objectNode());
        }
        return examples;
    }

    /** Empty when an encoded size of {@code actual} bytes is allowed by {@code declared}, otherwise why not. */
    public static String sizeViolation(dev.zarrj.api.EncodedSize declared, long actual) {
        if (declared == null) {
            return "null is not a size";
        }
        if (declared instanceof dev.zarrj.api.EncodedSize.Fixed fixed && fixed.bytes() != actual) {
            return "a Fixed size must be exact";
        }
        if (declared instanceof dev.zarrj.api.EncodedSize.Bounded b && actual > b.maxBytes()) {
            return "a Bounded size must be an upper bound";
        }
        return "";
    }

    /** The configuration a codec of the matrix was created from; empty for codecs with defaults resolved. */
    public static java.util.Optional<ObjectNode> configurationOf(CaseMatrix m, Codec codec) {
        for (CaseMatrix.Configured c : m.configured()) {
            if (c.codec() == codec) {
                return java.util.Optional.of(c.configuration());
            }
        }
        return java.util.Optional.empty();
    }

    /** Prints that an optional rule is not claimed; the contract then runs no test for it. */
    public static void notClaimed(String id, String codec, String what) {
        System.out.println("optional_" + id + " not claimed by " + codec + ": skipped (" + what + ")");
    }

    /** Prints what the cases of a contract are: how many were accepted, refused and heavy. */
    public static void summary(String id, String codec, CaseMatrix m) {
        long heavy = m.accepted().stream().filter(Case::heavy).count();
        System.out.println(id + " " + codec + ": " + m.configured().size() + " configurations, " + m.accepted().size()
                + " cases accepted (" + heavy + " of them large), " + m.refused() + " refused");
    }

    /** Prints that a rule had nothing to check. */
    public static void nothingToCheck(String id, String codec, String why) {
        System.out.println(id + " " + codec + ": nothing to check (" + why + ")");
    }

    /**
     * Every codec of the matrix (from the configurations, and with defaults resolved): its name is
     * the provider's, its JSON names it, and the codec created from its own configuration writes
     * the same JSON and, on every case of the original that round-trips, behaves the same.
     */
    public static void configurationRoundTrip(Failures f, CodecProvider provider, ProviderContext context,
                                              CaseMatrix m, Behaviour behaviour) {
        Map<Codec, List<Case>> byCodec = new IdentityHashMap<>();
        Map<String, Codec> distinct = new LinkedHashMap<>();
        for (CaseMatrix.Configured c : m.configured()) {
            distinct.putIfAbsent(String.valueOf(c.codec().toJson()), c.codec());
        }
        for (Case c : m.accepted()) {
            distinct.putIfAbsent(String.valueOf(c.codec().toJson()), c.codec());
            byCodec.computeIfAbsent(c.codec(), k -> new ArrayList<>()).add(c);
        }
        Set<String> names = new java.util.HashSet<>(provider.aliases());
        names.add(provider.name());
        for (Map.Entry<String, Codec> e : distinct.entrySet()) {
            Codec original = e.getValue();
            f.check(provider.name() + " " + e.getKey(), () -> {
                if (!names.contains(original.name())) {
                    throw Failures.violation("name() is \"" + original.name() + "\", but the provider registers "
                            + names);
                }
                JsonNode json = original.toJson();
                if (json == null || !json.isObject() || !original.name().equals(json.path("name").asText(null))) {
                    throw Failures.violation("toJson() " + json + " does not name the codec \"" + original.name() + "\"");
                }
                ObjectNode configuration = original.configuration();
                JsonNode written = json.get("configuration");
                boolean empty = configuration == null || configuration.isEmpty();
                if (empty ? written != null && !written.isEmpty() : !Json.same(configuration, written)) {
                    throw Failures.violation("toJson() " + json + " does not hold configuration() " + configuration);
                }
                Codec recreated;
                try {
                    recreated = CaseMatrix.create(provider, context, empty ? JsonNodeFactory.instance.objectNode()
                            : configuration);
                } catch (Throwable t) {
                    throw new Failures.Violation("create(" + configuration + ") of the codec's own configuration threw "
                            + Failures.describe(t));
                }
                if (recreated == null) {
                    throw Failures.violation("create(" + configuration + ") returned null");
                }
                if (!Json.same(json, recreated.toJson())) {
                    throw Failures.violation("the codec created from its own configuration writes " + recreated.toJson()
                            + ", not " + json);
                }
                List<Case> cases = new ArrayList<>();
                for (Case c : byCodec.getOrDefault(original, List.of())) {
                    if (!c.heavy() && m.roundTrips(c)) {
                        cases.add(c);
                    }
                }
                // Encodings are compared only for a deterministic codec (BB05/AB05/AA05 check that),
                // judged on all its cases at once so that a chance repeat cannot mislead.
                boolean deterministic = true;
                for (Case c : cases) {
                    deterministic &= behaviour.sameTwice(original, c);
                }
                for (Case c : cases) {
                    try {
                        behaviour.compare(original, recreated, c, deterministic);
                    } catch (Failures.Violation v) {
                        throw Failures.violation("on " + c.spec().dataType().name() + " "
                                + Samples.shape(c.spec().shape()) + ", the codec created from " + json
                                + " behaves differently: " + v.getMessage());
                    }
                }
            });
        }
    }
}
