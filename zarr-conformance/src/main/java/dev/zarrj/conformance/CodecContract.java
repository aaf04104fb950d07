package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.conformance.internal.codec.ArrayRegions;
import dev.zarrj.conformance.internal.codec.Buffers;
import dev.zarrj.conformance.internal.codec.Case;
import dev.zarrj.conformance.internal.codec.CaseMatrix;
import dev.zarrj.conformance.internal.codec.Concurrency;
import dev.zarrj.conformance.internal.codec.Contracts;
import dev.zarrj.conformance.internal.codec.Failures;
import dev.zarrj.conformance.internal.codec.References;
import dev.zarrj.conformance.internal.codec.Samples;
import dev.zarrj.core.Zarr;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestInstance;

/**
 * What the three codec contracts share: the provider under test, the cases it is checked on, and
 * the rules whose only difference between codec kinds is the type of the values they compare.
 *
 * <p>A plugin's test does not extend this class (only the kit's three contracts can): it extends
 * {@link BytesToBytesCodecContract}, {@link ArrayToBytesCodecContract} or
 * {@link ArrayToArrayCodecContract}, implements {@link #provider()}, and may override the other
 * <em>protected</em> methods, which choose the cases. Each contract implements the package-private
 * abstract methods, which say how its kind of codec encodes and decodes a case, and declares its
 * rules: one JUnit test per rule, named {@code required_<ID>_<description>} or
 * {@code optional_<ID>_<description>}.
 *
 * <p>The test instance is shared by the rules of one class ({@link TestInstance.Lifecycle#PER_CLASS}),
 * so that the cases are built once.
 *
 * @param <C> the codec interface under test
 * @param <D> a decoded value ({@code NdArray}, or {@code ByteBuffer} for bytes→bytes codecs)
 * @param <E> an encoded value ({@code ByteBuffer}, or {@code NdArray} for array→array codecs)
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class CodecContract<C extends Codec, D, E> {
    private final Class<C> kind;
    private final String kindName;
    private final boolean encodesToArray;
    private CaseMatrix matrix;

    /**
     * @param kind           the codec interface every configuration must create
     * @param kindName       how messages name that kind ("bytes→bytes")
     * @param encodesToArray whether encodings are arrays, for the wording of messages
     */
    CodecContract(Class<C> kind, String kindName, boolean encodesToArray) {
        this.kind = kind;
        this.kindName = kindName;
        this.encodesToArray = encodesToArray;
    }

    // ---- What a plugin's test supplies: the provider, and optionally other cases ----

    /** The provider under test. */
    protected abstract CodecProvider provider();

    /**
     * The configurations to create codecs from. Default: the provider's
     * {@link CodecProvider#exampleConfigurations()}, or one empty configuration when it has none.
     */
    protected List<ObjectNode> configurations() {
        return Contracts.defaultConfigurations(provider());
    }

    /**
     * The data types of the sample arrays. Default: {@link ConformanceKit#codecDataTypes}, the
     * core data types and the variable-length ones ({@code string}, {@code bytes}) of the
     * installed providers. Bytes→bytes codecs are never given variable-length types: their input
     * is bytes.
     */
    protected List<DataType> dataTypes() {
        return ConformanceKit.codecDataTypes(Zarr.defaults().registry());
    }

    /** Whether the contract samples the bytes of arrays (bytes→bytes), so variable-length types do not apply. */
    boolean samplesBytes() {
        return false;
    }

    /**
     * The shapes of the sample arrays of one data type. Default: {@link CodecSamples#defaultShapes}:
     * 0-d, 1-d, 2-d and 3-d shapes with lengths of 1 and odd lengths, and one array of at least
     * 4 MiB.
     */
    protected List<long[]> shapes(DataType dataType) {
        return Samples.defaultShapes(dataType);
    }

    /** What the provider gets to build nested codec chains. Default: {@code Zarr.defaults()}'s. */
    protected ProviderContext context() {
        return Zarr.defaults().providerContext();
    }

    // ---- What each of the three contracts supplies: how its kind of codec works on a case ----

    /** Accepts a case, or refuses it by throwing {@code InvalidMetadataException}. */
    abstract void probe(Case c);

    /** Empty when the case round-trips, otherwise why not. */
    abstract String roundTrip(Case c);

    /** The sample value of a case, {@code x} in messages (a fresh copy). */
    abstract D sample(Case c);

    /** {@code x} encoded by {@code codec}, as every rule that does not vary the input encodes it. */
    abstract E encode(C codec, D x, Case c);

    /** An encoding decoded by {@code codec}, told the decoded representation or size. */
    abstract D decode(C codec, E encoded, Case c);

    /**
     * For the kinds that decode to arrays: the codec's partial decoder of the case's encoding, as
     * stored or as absent; empty when the codec has none. The other kinds keep this default.
     */
    Optional<ArrayPartialDecoder> arrayPartialDecoder(Case c, boolean stored) {
        return Optional.empty();
    }

    // ---- What the rules share ----

    /** One rule's check of one case; throws {@link Failures.Violation} when the case breaks it. */
    @FunctionalInterface
    interface CaseCheck {
        void check(Case c) throws Throwable;
    }

    /** An encode or decode call under test. */
    @FunctionalInterface
    interface Call<C, T, R> {
        R call(C codec, T input, Case c);
    }

    /** The cases, built once. */
    final CaseMatrix matrix() {
        if (matrix == null) {
            List<DataType> types = dataTypes().stream()
                    .filter(t -> !(samplesBytes() && t.kind() != null && t.kind().isVariableLength())).toList();
            matrix = CaseMatrix.build(provider(), context(), configurations(), types, this::shapes, kind,
                    kindName, this::probe, c -> roundTrip(c).isEmpty());
        }
        return matrix;
    }

    /** The codec of a case, as its kind. */
    final C codec(Case c) {
        return kind.cast(c.codec());
    }

    /** The case's sample encoded by its codec. */
    final E encode(Case c) {
        return encode(codec(c), sample(c), c);
    }

    /** The cases that round-trip, without the large sample: for the costliest rules. */
    final List<Case> lightCases() {
        return matrix().roundTripping().stream().filter(c -> !c.heavy()).toList();
    }

    /** Checks every case that round-trips; fails rule {@code id} with the cases that break it. */
    final void eachCase(String id, String rule, CaseCheck check) {
        eachCase(id, rule, matrix().roundTripping(), check);
    }

    /** Checks every one of {@code cases}; fails rule {@code id} with the cases that break it. */
    static void eachCase(String id, String rule, List<Case> cases, CaseCheck check) {
        Failures f = new Failures(id, rule);
        for (Case c : cases) {
            f.check(c.label(), () -> check.check(c));
        }
        f.finish();
    }

    /**
     * An optional rule: one test over the cases that round-trip and for which the codec claims the
     * capability, or none (printing why) when it claims it for none.
     */
    final Stream<DynamicTest> ifClaimed(String id, String rule, String test, Predicate<Case> claims, String unclaimed,
                                        CaseCheck check) {
        List<Case> claimed = matrix().roundTripping().stream().filter(claims).toList();
        if (claimed.isEmpty()) {
            Contracts.notClaimed(id, provider().name(), unclaimed);
            return Stream.empty();
        }
        return Stream.of(DynamicTest.dynamicTest(id + " " + provider().name() + " " + test,
                () -> eachCase(id, rule, claimed, check)));
    }

    /**
     * A reference rule: one test over {@code cases} when the kit has a reference for the codec's
     * name, or none (printing why).
     */
    final Stream<DynamicTest> ifReference(String id, Optional<? extends References.Reference> reference,
                                          List<Case> cases, CaseCheck check) {
        return ifReference(id, reference, "agrees with", cases, check);
    }

    /** A reference rule as {@link #ifReference(String, Optional, List, CaseCheck)}, its rule told as {@code rule + source}. */
    final Stream<DynamicTest> ifReference(String id, Optional<? extends References.Reference> reference, String rule,
                                          List<Case> cases, CaseCheck check) {
        if (reference.isEmpty()) {
            Contracts.nothingToCheck(id, provider().name(), "the kit has no reference for this name");
            return Stream.empty();
        }
        String what = rule + " " + reference.get().source();
        return Stream.of(DynamicTest.dynamicTest(id + " " + provider().name() + " " + what,
                () -> eachCase(id, what, cases, check)));
    }

    /** Throws when {@code operation} changed the input {@code v} since {@code before}. */
    static void expectUnchanged(String operation, Buffers.Variant<?> v, Buffers.Before before) {
        String change = before.changes(v.value());
        if (!change.isEmpty()) {
            throw Failures.violation(operation + " modified its input, " + v.name() + ": " + change);
        }
    }

    /**
     * Throws unless {@code call} throws {@link CorruptDataException}. {@code call} returns the
     * violation's message for when it returns; {@code what} names it when it throws another exception.
     */
    static void expectCorruptData(String what, Callable<String> call) {
        String returned;
        try {
            returned = call.call();
        } catch (CorruptDataException expected) {
            return;
        } catch (Throwable t) {
            throw Failures.violation(what + " threw " + Failures.describe(t) + ", not CorruptDataException");
        }
        throw Failures.violation(returned);
    }

    /**
     * The round-trip rule: reports the problems of building the cases, a provider that accepts no
     * case, and every accepted case that does not round-trip.
     */
    final void roundTripRule(String id) {
        CaseMatrix m = matrix();
        Failures f = new Failures(id, "decode(encode(x)) is x");
        Contracts.summary(id, provider().name(), m);
        for (CaseMatrix.Problem p : m.problems()) {
            f.fail(p.label(), p.message(), p.cause());
        }
        if (m.accepted().isEmpty() && m.problems().isEmpty()) {
            f.fail(provider().name(), "accepted no case: all " + m.refused() + " configuration × data type × shape"
                    + " cases were refused with InvalidMetadataException", null);
        }
        for (Case c : m.accepted()) {
            f.check(c.label(), () -> {
                String why = roundTrip(c);
                if (!why.isEmpty()) {
                    throw Failures.violation(why);
                }
            });
        }
        f.finish();
    }

    /**
     * The any-input rule: {@code encode} of every form of {@code x} and {@code decode} of every
     * form of its encoding give the right value and leave their input unchanged.
     */
    final void anyInputRule(String id, String rule, Call<C, D, E> encode, Call<C, E, D> decode) {
        eachCase(id, rule, c -> {
            D x = sample(c);
            for (Buffers.Variant<D> v : Buffers.variantsOf(x)) {
                Buffers.Before before = Buffers.before(v.value());
                E encoded = encode.call(codec(c), v.value(), c);
                expectUnchanged("encode", v, before);
                String d = Buffers.differenceOf(x, decode.call(codec(c), encoded, c));
                if (!d.isEmpty()) {
                    throw Failures.violation("encoding " + v.name() + " does not round-trip: " + d);
                }
            }
            for (Buffers.Variant<E> v : Buffers.variantsOf(encode(c))) {
                Buffers.Before before = Buffers.before(v.value());
                String d = Buffers.differenceOf(x, decode.call(codec(c), v.value(), c));
                if (!d.isEmpty()) {
                    throw Failures.violation("decoding " + v.name() + " does not give x: " + d);
                }
                expectUnchanged("decode", v, before);
            }
        });
    }

    /**
     * The configuration rule: every codec's name and JSON, and the codec created from its own
     * configuration encodes the same (when encoding is deterministic) and decodes the original's
     * encodings, and the other way round.
     */
    final void configurationRoundTripRule(String id) {
        Failures f = new Failures(id, "the configuration survives toJson → create");
        Contracts.configurationRoundTrip(f, provider(), context(), matrix(), new Contracts.Behaviour() {
            @Override
            public boolean sameTwice(Codec codec, Case c) {
                C k = kind.cast(codec);
                return Buffers.differenceOf(encode(k, sample(c), c), encode(k, sample(c), c)).isEmpty();
            }

            @Override
            public void compare(Codec original, Codec recreated, Case c, boolean compareEncodings) {
                C a = kind.cast(original);
                C b = kind.cast(recreated);
                D x = sample(c);
                E fromA = encode(a, x, c);
                E fromB = encode(b, x, c);
                String d = compareEncodings ? Buffers.differenceOf(fromA, fromB) : "";
                if (!d.isEmpty()) {
                    throw Failures.violation("it encodes " + (encodesToArray ? "to another array" : "other bytes")
                            + " (" + d + ")");
                }
                d = Buffers.differenceOf(x, decode(b, fromA, c));
                if (!d.isEmpty()) {
                    throw Failures.violation("it does not decode the original's encoding: " + d);
                }
                d = Buffers.differenceOf(x, decode(a, fromB, c));
                if (!d.isEmpty()) {
                    throw Failures.violation("the original does not decode its encoding: " + d);
                }
            }
        });
        f.finish();
    }

    /** The determinism rule: twice with one instance, and once with another of the same configuration. */
    final void deterministicRule(String id) {
        CaseMatrix m = matrix();
        eachCase(id, "encoding is deterministic", c -> {
            E first = encode(c);
            String d = Buffers.differenceOf(first, encode(c));
            if (!d.isEmpty()) {
                throw Failures.violation("encoding twice gave different " + (encodesToArray ? "arrays" : "bytes")
                        + ": " + d);
            }
            Optional<ObjectNode> configuration = Contracts.configurationOf(m, c.codec());
            if (configuration.isPresent()) {
                C other = kind.cast(CaseMatrix.create(provider(), context(), configuration.get()));
                d = Buffers.differenceOf(first, encode(other, sample(c), c));
                if (!d.isEmpty()) {
                    throw Failures.violation("another instance of the same configuration encodes "
                            + (encodesToArray ? "otherwise" : "other bytes") + ": " + d);
                }
            }
        });
    }

    /**
     * The thread-safety rule: {@link Concurrency#THREADS} threads encode and decode the light
     * cases with shared instances.
     */
    final void threadSafeRule(String id) {
        Failures f = new Failures(id, "one instance is safe to share between threads");
        record Work(Case c, Object x, Object encoded) {}
        List<Work> work = new ArrayList<>();
        for (Case c : lightCases()) {
            work.add(new Work(c, sample(c), encode(c)));
        }
        Concurrency.hammer(work, w -> w.c().label(), w -> {
            @SuppressWarnings("unchecked") D x = (D) w.x();
            @SuppressWarnings("unchecked") E expected = (E) w.encoded();
            C k = codec(w.c());
            String d = Buffers.differenceOf(x, decode(k, encode(k, x, w.c()), w.c()));
            if (!d.isEmpty()) {
                throw Failures.violation("concurrent decode(encode(x)) is not x: " + d);
            }
            d = Buffers.differenceOf(x, decode(k, expected, w.c()));
            if (!d.isEmpty()) {
                throw Failures.violation("concurrent decode of a known encoding is not x: " + d);
            }
        }, f);
        f.finish();
    }

    /** The partial-decode rule of the array kinds: a stored value's regions, as {@link #arrayPartialDecoder} gives them. */
    final Stream<DynamicTest> arrayPartialDecodeRule(String id) {
        return ifClaimed(id, "partial decode equals full decode", "partial decode",
                c -> arrayPartialDecoder(c, true).isPresent(), "partialDecoder(...) is empty",
                c -> ArrayRegions.checkPartialDecoder(c.array(), c.spec(), arrayPartialDecoder(c, true).orElseThrow(),
                        c.heavy() ? 3 : 8, c.seed()));
    }

    /**
     * The inner chunk rule of the array kinds: a partial decoder's {@code innerChunkShape}, when
     * present, divides the chunk and each inner chunk decodes to its part of the whole.
     */
    final Stream<DynamicTest> arrayInnerChunkShapeRule(String id) {
        return ifClaimed(id, "innerChunkShape divides the chunk and each inner chunk decodes to its part",
                "inner chunk shape", c -> arrayPartialDecoder(c, true).map(dec -> dec.innerChunkShape().isPresent())
                        .orElse(false), "no partial decoder declares innerChunkShape()",
                c -> ArrayRegions.checkInnerChunkShape(c.array(), c.spec(), arrayPartialDecoder(c, true).orElseThrow(),
                        c.heavy() ? 2 : 6, c.seed()));
    }

    /** The absence rule of the array kinds: the partial decoder of an absent value answers absent. */
    final Stream<DynamicTest> arrayAbsentValueRule(String id) {
        return ifClaimed(id, "a partial decoder of an absent value answers absent", "partial decode of an absent value",
                c -> arrayPartialDecoder(c, true).isPresent(), "partialDecoder(...) is empty",
                c -> ArrayRegions.checkAbsent(c.spec(), arrayPartialDecoder(c, false).orElseThrow(() -> Failures.violation(
                        "partialDecoder(...) is empty over an absent value but present over a stored one; creating it"
                                + " must read nothing")), c.seed()));
    }

    /**
     * The reference rule for an exact reference: the codec's encoding is the reference's, and it
     * decodes the reference's encoding.
     *
     * @param theReference          how messages name the reference's encoding as encode's peer
     * @param theReferencesEncoding how messages name the reference's encoding as decode's input
     */
    final Stream<DynamicTest> exactReferenceRule(String id, Optional<? extends References.Exact<D, E>> reference,
                                                 String theReference, String theReferencesEncoding) {
        return ifReference(id, reference, matrix().roundTripping(), c -> {
            D x = sample(c);
            E expected = reference.orElseThrow().encode(c.codec().configuration(), x);
            String d = Buffers.differenceOf(expected, encode(c));
            if (!d.isEmpty()) {
                throw Failures.violation("encode differs from " + theReference + ": " + d);
            }
            d = Buffers.differenceOf(x, decode(codec(c), expected, c));
            if (!d.isEmpty()) {
                throw Failures.violation("decoding " + theReferencesEncoding + " does not give x: " + d);
            }
        });
    }
}
