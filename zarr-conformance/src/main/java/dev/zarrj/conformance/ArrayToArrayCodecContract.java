package dev.zarrj.conformance;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
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
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * The contract of an array→array codec ({@code transpose}, filters): extend it in your plugin's
 * tests and return your provider from {@link #provider()}.
 *
 * <pre>{@code
 * class TransposeCodecConformanceTest extends ArrayToArrayCodecContract {
 *     @Override protected CodecProvider provider() { return ...; }
 *     @Override protected List<ObjectNode> configurations() { return ...; } // orders of several ranks
 * }
 * }</pre>
 *
 * <p>The codec is created from each of {@link #configurations()} (by default the provider's
 * {@link CodecProvider#exampleConfigurations() examples}) and run on sample arrays of every data
 * type of {@link #dataTypes()} and every shape of {@link #shapes(DataType)}: 0-d, 1-d, 2-d and 3-d
 * shapes with lengths of 1 and odd lengths, and one array of at least 4 MiB. A case whose
 * {@code encodedSpec} throws {@link dev.zarrj.api.InvalidMetadataException} is skipped (a
 * {@code transpose} order of rank 2 refuses 3-d chunks); refusing with any other exception is a
 * failure of AA01.
 *
 * <p>Each rule is one test named {@code required_<ID>_<description>}; its failure message starts
 * with the rule id. Rules other than AA01 check only the cases that round-trip, so that one defect
 * fails one rule. The list of rules is {@code rules/codecs.md} of zarr-conformance.
 *
 * @since 0.1
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ArrayToArrayCodecContract {
    private CaseMatrix matrix;

    /** The provider under test. */
    protected abstract CodecProvider provider();

    /**
     * The configurations to create codecs from. Default: the provider's
     * {@link CodecProvider#exampleConfigurations()}, or one empty configuration when it has none.
     */
    protected List<ObjectNode> configurations() {
        return Contracts.defaultConfigurations(provider());
    }

    /** The data types of the sample arrays. Default: {@link ConformanceKit#coreDataTypes()}. */
    protected List<DataType> dataTypes() {
        return ConformanceKit.coreDataTypes();
    }

    /** The shapes of the sample arrays of one data type. Default: see the class description. */
    protected List<long[]> shapes(DataType dataType) {
        return Samples.defaultShapes(dataType);
    }

    /** What the provider gets to build nested codec chains. Default: {@code Zarr.defaults()}'s. */
    protected ProviderContext context() {
        return Zarr.defaults().providerContext();
    }

    private CaseMatrix matrix() {
        if (matrix == null) {
            matrix = CaseMatrix.build(provider(), context(), configurations(), dataTypes(), this::shapes,
                    ArrayToArrayCodec.class, "array→array", c -> codec(c).encodedSpec(c.spec()),
                    c -> roundTrip(c).isEmpty());
        }
        return matrix;
    }

    private static ArrayToArrayCodec codec(Case c) {
        return (ArrayToArrayCodec) c.codec();
    }

    private static NdArray encode(Case c) {
        return codec(c).encode(c.array(), c.spec());
    }

    private static String roundTrip(Case c) {
        NdArray encoded = encode(c);
        if (encoded == null) {
            return "encode returned null";
        }
        NdArray decoded = codec(c).decode(encoded, c.spec());
        if (!codec(c).lossless()) {
            // A lossy codec: what it decodes must have the decoded shape and type, and be a fixed point.
            if (decoded == null || !java.util.Arrays.equals(decoded.shape(), c.spec().shape())
                    || decoded.dataType().size() != c.spec().dataType().size()) {
                return "decode(encode(x)) has the wrong shape or data type: " + decoded;
            }
            NdArray again = codec(c).decode(codec(c).encode(decoded, c.spec()), c.spec());
            String d = Buffers.difference(decoded, again);
            return d.isEmpty() ? "" : "the codec declares lossless() false, but y = decode(encode(x)) is not a fixed point "
                    + "(decode(encode(y)) differs from y): " + d;
        }
        String d = Buffers.difference(c.array(), decoded);
        return d.isEmpty() ? "" : "decode(encode(x)) is not x: " + d;
    }

    /**
     * AA01: decoding what the codec encoded gives back the array: same data type, shape and
     * bytes. For a codec that declares {@code lossless()} false, the decoded array has the same data
     * type and shape, and is a fixed point: encoding and decoding it again gives it back. Also checked here: every configuration creates an array→array codec, the codec refuses
     * what it cannot encode only with {@code InvalidMetadataException}, and it accepts at least one
     * case.
     *
     * <p>Spec: core.rst "Codecs" (each codec is a bidirectional transform) and "Decoding procedure".
     *
     * <p>If this fails, check: that decode applies the inverse of encode's transform; that it
     * returns the decoded representation's shape and data type; that {@code encodedSpec} throws
     * {@code InvalidMetadataException} for what the codec cannot handle.
     */
    @Test
    @DisplayName("AA01 decode(encode(x)) is x (spec: core.rst 'Codecs', 'Decoding procedure')")
    public void required_AA01_roundTrip() {
        CaseMatrix m = matrix();
        Failures f = new Failures("AA01", "decode(encode(x)) is x");
        Contracts.summary("AA01", provider().name(), m);
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
     * AA02: {@code encodedSpec(spec)} describes what {@code encode} returns: the same data type and
     * shape, computed from the decoded representation alone.
     *
     * <p>Spec: core.rst "Codecs" ({@code compute_encoded_representation_type}: "the shape and
     * data type of the encoded representation must be computable based only on the shape and data
     * type") and "Determination of encoded representations".
     *
     * <p>If this fails, check: that {@code encodedSpec} applies the same permutation or type
     * change as {@code encode}; the next codec in a chain is configured from it.
     */
    @Test
    @DisplayName("AA02 encodedSpec matches what encode returns (spec: core.rst 'Determination of encoded representations')")
    public void required_AA02_encodedSpecMatchesEncode() {
        Failures f = new Failures("AA02", "encodedSpec matches what encode returns");
        for (Case c : matrix().roundTripping()) {
            f.check(c.label(), () -> {
                ChunkSpec expected = codec(c).encodedSpec(c.spec());
                String d = Buffers.representationDifference(expected, encode(c));
                if (!d.isEmpty()) {
                    throw Failures.violation("encodedSpec(spec) is " + expected + " but encode returned another array: "
                            + d);
                }
            });
        }
        f.finish();
    }

    /**
     * AA03: the codec works with any input array a caller may pass and leaves it unchanged: encode
     * and decode are given arrays over a window into a larger buffer, a direct buffer and a
     * read-only buffer.
     *
     * <p>Spec: core.rst "Codecs"; the SPI's {@code Codec} ("buffers passed in are not modified").
     *
     * <p>If this fails, check: {@code bytes().array()} without {@code arrayOffset()}; in-place
     * transforms of the input.
     */
    @Test
    @DisplayName("AA03 any input array works and is left unchanged (spec: core.rst 'Codecs'; SPI Codec)")
    public void required_AA03_anyInputArray() {
        Failures f = new Failures("AA03", "any input array works and is left unchanged");
        for (Case c : matrix().roundTripping()) {
            f.check(c.label(), () -> {
                NdArray x = c.array();
                for (Buffers.Variant<NdArray> v : Buffers.variants(x)) {
                    Buffers.Snapshot before = Buffers.Snapshot.of(v.value().bytes());
                    NdArray encoded = codec(c).encode(v.value(), c.spec());
                    String change = before.changes(v.value().bytes());
                    if (!change.isEmpty()) {
                        throw Failures.violation("encode modified its input, " + v.name() + ": " + change);
                    }
                    String d = Buffers.difference(x, codec(c).decode(encoded, c.spec()));
                    if (!d.isEmpty()) {
                        throw Failures.violation("encoding " + v.name() + " does not round-trip: " + d);
                    }
                }
                for (Buffers.Variant<NdArray> v : Buffers.variants(encode(c))) {
                    Buffers.Snapshot before = Buffers.Snapshot.of(v.value().bytes());
                    String d = Buffers.difference(x, codec(c).decode(v.value(), c.spec()));
                    if (!d.isEmpty()) {
                        throw Failures.violation("decoding " + v.name() + " does not give x: " + d);
                    }
                    String change = before.changes(v.value().bytes());
                    if (!change.isEmpty()) {
                        throw Failures.violation("decode modified its input, " + v.name() + ": " + change);
                    }
                }
            });
        }
        f.finish();
    }

    /**
     * AA04: the configuration survives a metadata round trip: {@code name()} is the provider's
     * name, {@code toJson()} holds it and {@code configuration()}, and the codec created from its
     * own configuration writes the same JSON and encodes to the same array.
     *
     * <p>Spec: core.rst "codecs" (array metadata: each codec is an extension object with
     * {@code name} and {@code configuration}).
     *
     * <p>If this fails, check: that {@code configuration()} writes every field (for example the
     * whole {@code order}); that {@code create} reads what {@code configuration()} writes.
     */
    @Test
    @DisplayName("AA04 the configuration survives toJson → create (spec: core.rst 'codecs' metadata)")
    public void required_AA04_configurationRoundTrip() {
        Failures f = new Failures("AA04", "the configuration survives toJson → create");
        Contracts.configurationRoundTrip(f, provider(), context(), matrix(), new Contracts.Behaviour() {
            @Override
            public boolean sameTwice(Codec codec, Case c) {
                ArrayToArrayCodec a = (ArrayToArrayCodec) codec;
                return Buffers.difference(a.encode(c.array(), c.spec()), a.encode(c.array(), c.spec())).isEmpty();
            }

            @Override
            public void compare(Codec original, Codec recreated, Case c, boolean compareEncodings) {
                ArrayToArrayCodec a = (ArrayToArrayCodec) original;
                ArrayToArrayCodec b = (ArrayToArrayCodec) recreated;
                NdArray fromA = a.encode(c.array(), c.spec());
                NdArray fromB = b.encode(c.array(), c.spec());
                String d = compareEncodings ? Buffers.difference(fromA, fromB) : "";
                if (!d.isEmpty()) {
                    throw Failures.violation("it encodes to another array (" + d + ")");
                }
                d = Buffers.difference(c.array(), b.decode(fromA, c.spec()));
                if (!d.isEmpty()) {
                    throw Failures.violation("it does not decode the original's encoding: " + d);
                }
                d = Buffers.difference(c.array(), a.decode(fromB, c.spec()));
                if (!d.isEmpty()) {
                    throw Failures.violation("the original does not decode its encoding: " + d);
                }
            }
        });
        f.finish();
    }

    /**
     * AA05: encoding is deterministic: the same array encodes to the same array, twice with one
     * instance and once more with another instance created from the same configuration.
     *
     * <p>Spec: core.rst "Encoding procedure".
     *
     * <p>If this fails, check: state carried between calls; uninitialised output.
     */
    @Test
    @DisplayName("AA05 encoding is deterministic (spec: core.rst 'Encoding procedure')")
    public void required_AA05_deterministic() {
        Failures f = new Failures("AA05", "encoding is deterministic");
        CaseMatrix m = matrix();
        for (Case c : m.roundTripping()) {
            f.check(c.label(), () -> {
                NdArray first = encode(c);
                String d = Buffers.difference(first, encode(c));
                if (!d.isEmpty()) {
                    throw Failures.violation("encoding twice gave different arrays: " + d);
                }
                Optional<ObjectNode> configuration = Contracts.configurationOf(m, c.codec());
                if (configuration.isPresent()) {
                    ArrayToArrayCodec other = (ArrayToArrayCodec) CaseMatrix.create(provider(), context(),
                            configuration.get());
                    d = Buffers.difference(first, other.encode(c.array(), c.spec()));
                    if (!d.isEmpty()) {
                        throw Failures.violation("another instance of the same configuration encodes otherwise: " + d);
                    }
                }
            });
        }
        f.finish();
    }

    /**
     * AA06: an encoded array of the wrong shape is rejected: decoding an array with one dimension
     * longer than {@code encodedSpec} says (or, for 0-d, a 1-d array of two elements) throws a
     * {@link ZarrException} or returns exactly the original. Never another exception type.
     *
     * <p>Spec: core.rst "Decoding procedure" ({@code decode(encoded_value,
     * decoded_representation_type)}); DESIGN.md: bad input gets a clear error.
     *
     * <p>If this fails, check: that decode compares the encoded array's shape with
     * {@code encodedSpec(decoded)} before indexing into it.
     */
    @Test
    @DisplayName("AA06 an encoded array of the wrong shape is rejected (spec: core.rst 'Decoding procedure')")
    public void required_AA06_wrongShapeRejected() {
        Failures f = new Failures("AA06", "an encoded array of the wrong shape is rejected");
        for (Case c : matrix().roundTripping()) {
            if (c.heavy()) {
                continue;
            }
            f.check(c.label(), () -> {
                ChunkSpec encodedSpec = codec(c).encodedSpec(c.spec());
                long[] shape = encodedSpec.shape();
                long[] wrong = shape.length == 0 ? new long[] {2} : shape.clone();
                if (shape.length > 0) {
                    wrong[wrong.length - 1]++;
                }
                NdArray input = Samples.array(encodedSpec.dataType(), wrong, c.seed());
                NdArray out;
                try {
                    out = codec(c).decode(input, c.spec());
                } catch (ZarrException expected) {
                    return;
                } catch (Throwable t) {
                    throw Failures.violation("decoding an array of shape " + Arrays.toString(wrong) + " (expected "
                            + Arrays.toString(shape) + ") threw " + Failures.describe(t) + ", not a ZarrException");
                }
                String d = Buffers.difference(c.array(), out);
                if (!d.isEmpty()) {
                    throw Failures.violation("decoding an array of shape " + Arrays.toString(wrong) + " (expected "
                            + Arrays.toString(shape) + ") returned " + out + " instead of failing");
                }
            });
        }
        f.finish();
    }

    /**
     * AA07: one instance is safe to share: {@value Concurrency#THREADS} threads started together
     * encode and decode different arrays with the same codec instances, and every result is right.
     *
     * <p>Spec: DESIGN.md "The SPI" (instances are immutable and thread-safe).
     *
     * <p>If this fails, check: shared scratch arrays or index buffers.
     */
    @Test
    @DisplayName("AA07 one instance is safe to share between threads (DESIGN.md 'The SPI')")
    public void required_AA07_threadSafe() {
        Failures f = new Failures("AA07", "one instance is safe to share between threads");
        List<Object[]> work = new ArrayList<>();
        for (Case c : matrix().roundTripping()) {
            if (!c.heavy()) {
                work.add(new Object[] {c, c.array(), encode(c)});
            }
        }
        Concurrency.hammer(work, w -> ((Case) w[0]).label(), w -> {
            Case c = (Case) w[0];
            NdArray x = (NdArray) w[1];
            NdArray expected = (NdArray) w[2];
            String d = Buffers.difference(x, codec(c).decode(codec(c).encode(x, c.spec()), c.spec()));
            if (!d.isEmpty()) {
                throw Failures.violation("concurrent decode(encode(x)) is not x: " + d);
            }
            d = Buffers.difference(x, codec(c).decode(expected, c.spec()));
            if (!d.isEmpty()) {
                throw Failures.violation("concurrent decode of a known encoding is not x: " + d);
            }
        }, f);
        f.finish();
    }

    /**
     * AA08: for a codec name whose transform the kit knows ({@code transpose}), the codec's
     * encoding is exactly the kit's reference, and it decodes the reference's encoding. Runs
     * nothing for other names.
     *
     * <p>Spec: codecs-transpose.rst "Format and algorithm".
     *
     * <p>If this fails, check: {@code order} against its inverse: the encoded array's dimension
     * {@code i} is the decoded array's dimension {@code order[i]}.
     */
    @TestFactory
    @DisplayName("AA08 agrees with the kit's reference for its name (spec: the codec's own document)")
    public Stream<DynamicTest> required_AA08_matchesReference() {
        Optional<References.ArrayToArray> reference = References.arrayToArray(provider().name());
        if (reference.isEmpty()) {
            Contracts.nothingToCheck("AA08", provider().name(), "the kit has no reference for this name");
            return Stream.empty();
        }
        References.ArrayToArray ref = reference.get();
        return Stream.of(DynamicTest.dynamicTest("AA08 " + provider().name() + " agrees with " + ref.source(), () -> {
            Failures f = new Failures("AA08", "agrees with " + ref.source());
            for (Case c : matrix().roundTripping()) {
                f.check(c.label(), () -> {
                    ObjectNode configuration = c.codec().configuration();
                    NdArray x = c.array();
                    NdArray expected = ref.encode(configuration, x);
                    String d = Buffers.difference(expected, encode(c));
                    if (!d.isEmpty()) {
                        throw Failures.violation("encode differs from the reference: " + d);
                    }
                    d = Buffers.difference(x, codec(c).decode(expected, c.spec()));
                    if (!d.isEmpty()) {
                        throw Failures.violation("decoding the reference's encoding does not give x: " + d);
                    }
                });
            }
            f.finish();
        }));
    }
}
