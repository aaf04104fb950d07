package dev.zarrj.conformance;

import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.Region;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.conformance.internal.codec.Buffers;
import dev.zarrj.conformance.internal.codec.Case;
import dev.zarrj.conformance.internal.codec.CaseMatrix;
import dev.zarrj.conformance.internal.codec.Concurrency;
import dev.zarrj.conformance.internal.codec.Contracts;
import dev.zarrj.conformance.internal.codec.Damage;
import dev.zarrj.conformance.internal.codec.Failures;
import dev.zarrj.conformance.internal.codec.References;
import dev.zarrj.conformance.internal.codec.Samples;
import dev.zarrj.core.Zarr;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * The contract of an array→bytes codec ({@code bytes}, {@code sharding_indexed}): extend it in
 * your plugin's tests and return your provider from {@link #provider()}.
 *
 * <pre>{@code
 * class ShardingCodecConformanceTest extends ArrayToBytesCodecContract {
 *     @Override protected CodecProvider provider() { return new ShardingCodecProvider(); }
 *     @Override protected List<long[]> shapes(DataType t) { return ...; } // divisible by chunk_shape
 * }
 * }</pre>
 *
 * <p>The codec is created from each of {@link #configurations()} (by default the provider's
 * {@link CodecProvider#exampleConfigurations() examples}) and run on sample arrays of every data
 * type of {@link #dataTypes()} and every shape of {@link #shapes(DataType)}: 0-d, 1-d, 2-d and 3-d
 * shapes with lengths of 1 and odd lengths, and one array of at least 4 MiB. A case the codec
 * refuses with {@link dev.zarrj.api.InvalidMetadataException} from {@code checkSupported} or
 * {@code encodedSize} is skipped (a {@code bytes} codec without {@code endian} refuses
 * {@code int16}; a sharding codec refuses shapes its {@code chunk_shape} does not divide);
 * refusing with any other exception is a failure of AB01. When {@link Codec#resolveDefaults} gives
 * another codec for a representation, that codec is checked too.
 *
 * <p>Each rule is one test named {@code required_<ID>_<description>} or
 * {@code optional_<ID>_<description>}; its failure message starts with the rule id. Rules other
 * than AB01 check only the cases that round-trip, so that one defect fails one rule. Optional rules
 * print {@code optional_<ID> not claimed by <name>: skipped} and run nothing when the capability
 * is not claimed. The list of rules is {@code rules/codecs.md} of zarr-conformance.
 *
 * @since 0.1
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ArrayToBytesCodecContract {
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

    /**
     * Whether this codec detects every corruption (for example sharding whose inner and index
     * chains both end in {@code crc32c}). Claiming it enables {@code optional_AB12}. Default: false,
     * as for {@code bytes}, which decodes any flipped bit to another valid element.
     */
    protected boolean detectsCorruption(ArrayToBytesCodec codec) {
        return false;
    }

    private CaseMatrix matrix() {
        if (matrix == null) {
            matrix = CaseMatrix.build(provider(), context(), configurations(), dataTypes(), this::shapes,
                    ArrayToBytesCodec.class, "array→bytes", c -> {
                        codec(c).checkSupported(c.spec());
                        codec(c).encodedSize(c.spec());
                    }, c -> roundTrip(c).isEmpty());
        }
        return matrix;
    }

    private static ArrayToBytesCodec codec(Case c) {
        return (ArrayToBytesCodec) c.codec();
    }

    private static ByteBuffer encode(Case c) {
        return codec(c).encode(c.array(), c.spec());
    }

    private static String roundTrip(Case c) {
        NdArray x = c.array();
        ByteBuffer encoded = codec(c).encode(x, c.spec());
        if (encoded == null) {
            return "encode returned null";
        }
        String d = Buffers.difference(c.array(), codec(c).decode(Buffers.copy(encoded), c.spec()));
        return d.isEmpty() ? "" : "decode(encode(x)) is not x: " + d;
    }

    /**
     * AB01: decoding what the codec encoded gives back the array: same data type, shape and
     * bytes. Also checked here: every configuration creates an array→bytes codec, the codec
     * refuses what it cannot encode only with {@code InvalidMetadataException}, and it accepts at
     * least one case.
     *
     * <p>Spec: core.rst "Codecs" (each codec is a bidirectional transform) and "Decoding procedure".
     *
     * <p>If this fails, check: element order (C order), byte order, fill-value handling of
     * absent parts, that decode returns the representation it is given; that
     * {@code checkSupported} throws {@code InvalidMetadataException}.
     */
    @Test
    @DisplayName("AB01 decode(encode(x)) is x (spec: core.rst 'Codecs', 'Decoding procedure')")
    public void required_AB01_roundTrip() {
        CaseMatrix m = matrix();
        Failures f = new Failures("AB01", "decode(encode(x)) is x");
        Contracts.summary("AB01", provider().name(), m);
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
     * AB02: the codec works with any input a caller may pass and leaves it unchanged: encode is
     * given arrays over a window into a larger buffer, a direct buffer and a read-only buffer;
     * decode is given such buffers and one set to little-endian order.
     *
     * <p>Spec: core.rst "Codecs"; the SPI's {@code Codec} ("buffers passed in are not modified").
     *
     * <p>If this fails, check: {@code array()} without {@code arrayOffset()}; writes into the
     * input (in-place byte swapping); reads that move the caller's position; multi-byte reads that
     * depend on the buffer's byte order.
     */
    @Test
    @DisplayName("AB02 any input array or buffer works and is left unchanged (spec: core.rst 'Codecs'; SPI Codec)")
    public void required_AB02_anyInput() {
        Failures f = new Failures("AB02", "any input array or buffer works and is left unchanged");
        for (Case c : matrix().roundTripping()) {
            f.check(c.label(), () -> {
                NdArray x = c.array();
                for (Buffers.Variant<NdArray> v : Buffers.variants(x)) {
                    Buffers.Snapshot before = Buffers.Snapshot.of(v.value().bytes());
                    ByteBuffer encoded = Buffers.copy(codec(c).encode(v.value(), c.spec()));
                    String change = before.changes(v.value().bytes());
                    if (!change.isEmpty()) {
                        throw Failures.violation("encode modified its input, " + v.name() + ": " + change);
                    }
                    String d = Buffers.difference(x, codec(c).decode(encoded, c.spec()));
                    if (!d.isEmpty()) {
                        throw Failures.violation("encoding " + v.name() + " does not round-trip: " + d);
                    }
                }
                for (Buffers.Variant<ByteBuffer> v : Buffers.variants(encode(c))) {
                    Buffers.Snapshot before = Buffers.Snapshot.of(v.value());
                    String d = Buffers.difference(x, codec(c).decode(v.value(), c.spec()));
                    if (!d.isEmpty()) {
                        throw Failures.violation("decoding " + v.name() + " does not give x: " + d);
                    }
                    String change = before.changes(v.value());
                    if (!change.isEmpty()) {
                        throw Failures.violation("decode modified its input, " + v.name() + ": " + change);
                    }
                }
            });
        }
        f.finish();
    }

    /**
     * AB03: the declared encoded size holds: {@code encodedSize(spec)} is exact when
     * {@code Fixed} and an upper bound when {@code Bounded}.
     *
     * <p>Spec: core.rst "Codecs" ({@code compute_encoded_size(array_size, data_type) -> byte_size}).
     *
     * <p>If this fails, check: headers and indexes counted; element size times count; a
     * variable size declared {@code Bounded} or {@code Unbounded}, never {@code Fixed}.
     */
    @Test
    @DisplayName("AB03 the declared encoded size holds (spec: core.rst 'Codecs', compute_encoded_size)")
    public void required_AB03_encodedSizeHonoured() {
        Failures f = new Failures("AB03", "the declared encoded size holds");
        for (Case c : matrix().roundTripping()) {
            f.check(c.label(), () -> {
                long actual = encode(c).remaining();
                EncodedSize declared = codec(c).encodedSize(c.spec());
                String why = Contracts.sizeViolation(declared, actual);
                if (!why.isEmpty()) {
                    throw Failures.violation("encodedSize(spec) is " + declared + ", but encode produced " + actual
                            + " bytes: " + why);
                }
            });
        }
        f.finish();
    }

    /**
     * AB04: the configuration survives a metadata round trip: {@code name()} is the provider's
     * name, {@code toJson()} holds it and {@code configuration()}, and the codec created from its
     * own configuration writes the same JSON and encodes the same bytes (when encoding is
     * deterministic) that the original decodes, and the other way round.
     *
     * <p>Spec: core.rst "codecs" (array metadata: each codec is an extension object with
     * {@code name} and {@code configuration}).
     *
     * <p>If this fails, check: that {@code configuration()} writes every field that changes the
     * encoding (for example {@code endian}); that {@code create} reads what
     * {@code configuration()} writes; nested chains written back in full.
     */
    @Test
    @DisplayName("AB04 the configuration survives toJson → create (spec: core.rst 'codecs' metadata)")
    public void required_AB04_configurationRoundTrip() {
        Failures f = new Failures("AB04", "the configuration survives toJson → create");
        Contracts.configurationRoundTrip(f, provider(), context(), matrix(), new Contracts.Behaviour() {
            @Override
            public boolean sameTwice(Codec codec, Case c) {
                ArrayToBytesCodec a = (ArrayToBytesCodec) codec;
                return Buffers.same(Buffers.copy(a.encode(c.array(), c.spec())), a.encode(c.array(), c.spec()));
            }

            @Override
            public void compare(Codec original, Codec recreated, Case c, boolean compareEncodings) {
                ArrayToBytesCodec a = (ArrayToBytesCodec) original;
                ArrayToBytesCodec b = (ArrayToBytesCodec) recreated;
                ByteBuffer fromA = Buffers.copy(a.encode(c.array(), c.spec()));
                ByteBuffer fromB = Buffers.copy(b.encode(c.array(), c.spec()));
                String d = compareEncodings ? Buffers.difference(fromA, fromB) : "";
                if (!d.isEmpty()) {
                    throw Failures.violation("it encodes other bytes (" + d + ")");
                }
                d = Buffers.difference(c.array(), b.decode(Buffers.copy(fromA), c.spec()));
                if (!d.isEmpty()) {
                    throw Failures.violation("it does not decode the original's encoding: " + d);
                }
                d = Buffers.difference(c.array(), a.decode(Buffers.copy(fromB), c.spec()));
                if (!d.isEmpty()) {
                    throw Failures.violation("the original does not decode its encoding: " + d);
                }
            }
        });
        f.finish();
    }

    /**
     * AB05: encoding is deterministic: the same array encodes to the same bytes, twice with one
     * instance and once more with another instance created from the same configuration.
     *
     * <p>Spec: core.rst "Encoding procedure".
     *
     * <p>If this fails, check: the order in which parts (inner chunks) are written when they are
     * encoded in parallel; uninitialised padding; timestamps.
     */
    @Test
    @DisplayName("AB05 encoding is deterministic (spec: core.rst 'Encoding procedure')")
    public void required_AB05_deterministic() {
        Failures f = new Failures("AB05", "encoding is deterministic");
        CaseMatrix m = matrix();
        for (Case c : m.roundTripping()) {
            f.check(c.label(), () -> {
                ByteBuffer first = Buffers.copy(encode(c));
                String d = Buffers.difference(first, encode(c));
                if (!d.isEmpty()) {
                    throw Failures.violation("encoding twice gave different bytes: " + d);
                }
                Optional<ObjectNode> configuration = Contracts.configurationOf(m, c.codec());
                if (configuration.isPresent()) {
                    ArrayToBytesCodec other = (ArrayToBytesCodec) CaseMatrix.create(provider(), context(),
                            configuration.get());
                    d = Buffers.difference(first, other.encode(c.array(), c.spec()));
                    if (!d.isEmpty()) {
                        throw Failures.violation("another instance of the same configuration encodes other bytes: " + d);
                    }
                }
            });
        }
        f.finish();
    }

    /**
     * AB06: a codec that declares a {@code Fixed} encoded size refuses input of any other size:
     * the encoding with 1 or 8 bytes appended throws {@link CorruptDataException}. (Shorter input
     * is AB07's.) Checks nothing for codecs of variable size.
     *
     * <p>Spec: core.rst "Codecs" ({@code compute_encoded_size}) and "Decoding procedure"; the
     * SPI's {@code ArrayToBytesCodec.decode}.
     *
     * <p>If this fails, check: that decode compares the input's length with the expected size
     * instead of reading just the bytes it needs.
     */
    @Test
    @DisplayName("AB06 a fixed-size codec refuses input of another size (spec: core.rst 'Codecs')")
    public void required_AB06_fixedSizeEnforced() {
        Failures f = new Failures("AB06", "a fixed-size codec refuses input of another size");
        for (Case c : matrix().roundTripping()) {
            if (!(codec(c).encodedSize(c.spec()) instanceof EncodedSize.Fixed)) {
                continue;
            }
            f.check(c.label(), () -> {
                ByteBuffer encoded = encode(c);
                for (int extra : new int[] {1, 8}) {
                    ByteBuffer longer = Buffers.append(encoded, new byte[extra]);
                    try {
                        NdArray out = codec(c).decode(longer, c.spec());
                        throw Failures.violation("decoding the " + encoded.remaining() + "-byte encoding with " + extra
                                + " byte(s) appended returned " + out + " instead of throwing CorruptDataException");
                    } catch (CorruptDataException expected) {
                        // the rule
                    } catch (Failures.Violation v) {
                        throw v;
                    } catch (Throwable t) {
                        throw Failures.violation("decoding with " + extra + " byte(s) appended threw "
                                + Failures.describe(t) + ", not CorruptDataException");
                    }
                }
            });
        }
        f.finish();
    }

    /**
     * AB07: truncated input is rejected: decoding any prefix of an encoding (every length for
     * encodings up to 256 bytes, the first and last few lengths and some others for longer ones)
     * throws a {@link ZarrException}, or returns exactly the original array. Never another
     * exception type, never other values.
     *
     * <p>Spec: core.rst "Decoding procedure"; DESIGN.md: a truncated chunk is an error, never a
     * wrong answer.
     *
     * <p>If this fails, check: the length check before decoding; offsets and lengths read from
     * an index checked against the input; {@code BufferUnderflowException} and
     * {@code IndexOutOfBoundsException} from reads past the end.
     */
    @Test
    @DisplayName("AB07 truncated input is rejected with a ZarrException (spec: core.rst 'Decoding procedure')")
    public void required_AB07_truncatedInputRejected() {
        Failures f = new Failures("AB07", "truncated input is rejected with a ZarrException");
        for (Case c : matrix().roundTripping()) {
            f.check(c.label(), () -> {
                NdArray x = c.array();
                ByteBuffer encoded = encode(c);
                int length = encoded.remaining();
                for (int k : Damage.truncationLengths(length, c.heavy(), c.seed())) {
                    expectRejectedOrOriginal(c, x, Buffers.prefix(encoded, k), "the first " + k + " of " + length
                            + " bytes", true);
                }
            });
        }
        f.finish();
    }

    private static void expectRejectedOrOriginal(Case c, NdArray x, ByteBuffer input, String what, boolean exact) {
        NdArray out;
        try {
            out = codec(c).decode(input, c.spec());
        } catch (ZarrException expected) {
            return;
        } catch (Throwable t) {
            throw new Failures.Violation("decoding " + what + " threw " + Failures.describe(t)
                    + "; damaged input must be rejected with a ZarrException (CorruptDataException)");
        }
        String d = exact ? Buffers.difference(x, out) : Buffers.representationDifference(c.spec(), out);
        if (!d.isEmpty()) {
            throw Failures.violation("decoding " + what + " returned " + (exact ? "other values" : "a wrong array")
                    + " instead of failing: " + d);
        }
    }

    /**
     * AB08: corrupted input fails cleanly: decoding an encoding with random bytes flipped (a
     * fixed seed) and with single bits flipped in the first and last byte throws a
     * {@link ZarrException} or returns an array of the decoded representation. Never another
     * exception type. A codec without a checksum (such as {@code bytes}, whose every bit pattern
     * is a valid element) legitimately decodes flipped bits to other values; one that claims to
     * detect corruption is held to more by {@code optional_AB12}.
     *
     * <p>Spec: core.rst "Decoding procedure"; DESIGN.md: bad input gets a clear error; shard
     * indexes are bounds-checked.
     *
     * <p>If this fails, check: offsets and lengths from an index used unchecked; overflow in
     * offset + length; inner decode errors not wrapped as {@link CorruptDataException}.
     */
    @Test
    @DisplayName("AB08 corrupted input fails cleanly (spec: core.rst 'Decoding procedure')")
    public void required_AB08_corruptInputFailsCleanly() {
        Failures f = new Failures("AB08", "corrupted input fails cleanly");
        for (Case c : matrix().roundTripping()) {
            f.check(c.label(), () -> {
                NdArray x = c.array();
                for (Damage.Damaged d : Damage.corruptions(encode(c), c.heavy(), c.seed())) {
                    expectRejectedOrOriginal(c, x, d.bytes(), "an encoding with " + d.description(), false);
                }
            });
        }
        f.finish();
    }

    /**
     * AB09: one instance is safe to share: {@value Concurrency#THREADS} threads started together
     * encode and decode different arrays with the same codec instances, and every result is right.
     *
     * <p>Spec: DESIGN.md "The SPI" (instances are immutable and thread-safe); the SPI's
     * {@code Codec}.
     *
     * <p>If this fails, check: shared scratch buffers; lazily built state; executors or pools
     * shared without care.
     */
    @Test
    @DisplayName("AB09 one instance is safe to share between threads (DESIGN.md 'The SPI')")
    public void required_AB09_threadSafe() {
        Failures f = new Failures("AB09", "one instance is safe to share between threads");
        List<Object[]> work = new ArrayList<>();
        for (Case c : matrix().roundTripping()) {
            if (!c.heavy()) {
                work.add(new Object[] {c, c.array(), Buffers.copy(encode(c))});
            }
        }
        Concurrency.hammer(work, w -> ((Case) w[0]).label(), w -> {
            Case c = (Case) w[0];
            NdArray x = (NdArray) w[1];
            ByteBuffer expected = (ByteBuffer) w[2];
            String d = Buffers.difference(x, codec(c).decode(Buffers.copy(codec(c).encode(x, c.spec())), c.spec()));
            if (!d.isEmpty()) {
                throw Failures.violation("concurrent decode(encode(x)) is not x: " + d);
            }
            d = Buffers.difference(x, codec(c).decode(Buffers.copy(expected), c.spec()));
            if (!d.isEmpty()) {
                throw Failures.violation("concurrent decode of a known encoding is not x: " + d);
            }
        }, f);
        f.finish();
    }

    /**
     * AB10: for a codec name whose format the kit knows ({@code bytes}), the codec's encoding is
     * exactly the kit's reference encoding, and it decodes the reference's encoding. Runs nothing
     * for other names.
     *
     * <p>Spec: codecs-bytes.rst "Format and algorithm".
     *
     * <p>If this fails, check: {@code endian} applied (not the platform's order); byte order
     * applied per component for complex types; C order of elements.
     */
    @TestFactory
    @DisplayName("AB10 agrees with the kit's reference for its name (spec: the codec's own document)")
    public Stream<DynamicTest> required_AB10_matchesReference() {
        Optional<References.ArrayToBytes> reference = References.arrayToBytes(provider().name());
        if (reference.isEmpty()) {
            Contracts.nothingToCheck("AB10", provider().name(), "the kit has no reference for this name");
            return Stream.empty();
        }
        References.ArrayToBytes ref = reference.get();
        return Stream.of(DynamicTest.dynamicTest("AB10 " + provider().name() + " agrees with " + ref.source(), () -> {
            Failures f = new Failures("AB10", "agrees with " + ref.source());
            for (Case c : matrix().roundTripping()) {
                f.check(c.label(), () -> {
                    ObjectNode configuration = c.codec().configuration();
                    NdArray x = c.array();
                    ByteBuffer expected = ref.encode(configuration, x);
                    String d = Buffers.difference(expected, encode(c));
                    if (!d.isEmpty()) {
                        throw Failures.violation("encode differs from the reference encoding: " + d);
                    }
                    d = Buffers.difference(x, codec(c).decode(Buffers.copy(expected), c.spec()));
                    if (!d.isEmpty()) {
                        throw Failures.violation("decoding the reference encoding does not give x: " + d);
                    }
                });
            }
            f.finish();
        }));
    }

    /**
     * AB11 (optional, claimed by {@code supportsPartialDecode()}): the partial decoder returns the
     * same elements as a full decode for the whole chunk, single elements and random regions.
     *
     * <p>Spec: core.rst "Codecs" ({@code partial_decode}).
     *
     * <p>If this fails, check: offsets of regions that span several inner parts; regions at the
     * upper edge; fill value for absent parts; the rank-0 case.
     */
    @TestFactory
    @DisplayName("AB11 partial decode equals full decode (spec: core.rst 'Codecs', partial_decode)")
    public Stream<DynamicTest> optional_AB11_partialDecode() {
        List<Case> claimed = matrix().roundTripping().stream()
                .filter(c -> codec(c).partialDecoder(ByteSource.of(encode(c)), c.spec()).isPresent()).toList();
        if (claimed.isEmpty()) {
            Contracts.notClaimed("AB11", provider().name(), "partialDecoder(...) is empty");
            return Stream.empty();
        }
        return Stream.of(DynamicTest.dynamicTest("AB11 " + provider().name() + " partial decode", () -> {
            Failures f = new Failures("AB11", "partial decode equals full decode");
            for (Case c : claimed) {
                f.check(c.label(), () -> {
                    NdArray x = c.array();
                    ArrayPartialDecoder decoder = codec(c).partialDecoder(ByteSource.of(encode(c)), c.spec()).orElseThrow();
                    for (long[][] region : regions(c.spec(), c.heavy() ? 3 : 8, c.seed())) {
                        NdArray expected = x.region(Region.of(region[0], region[1]));
                        String d = Buffers.difference(expected, decoder.decode(Region.of(region[0], region[1])).orElseThrow());
                        if (!d.isEmpty()) {
                            throw Failures.violation("region at " + Arrays.toString(region[0]) + " of shape "
                                    + Arrays.toString(region[1]) + ": " + d);
                        }
                        d = intoBordered(x, c.spec(), region, (dst, at) ->
                                decoder.decodeInto(Region.of(region[0], region[1]), dst, at));
                        if (!d.isEmpty()) {
                            throw Failures.violation("region at " + Arrays.toString(region[0]) + " of shape "
                                    + Arrays.toString(region[1]) + " decoded by decodeInto at offset 1: " + d);
                        }
                    }
                });
            }
            f.finish();
        }));
    }

    /** The whole chunk, its first and last element, and random regions: {offset, shape} pairs. */
    private static List<long[][]> regions(ChunkSpec spec, int random, long seed) {
        long[] shape = spec.shape();
        int rank = shape.length;
        List<long[][]> out = new ArrayList<>();
        out.add(new long[][] {new long[rank], shape});
        if (spec.elementCount() == 0) {
            return out;
        }
        long[] one = new long[rank];
        Arrays.fill(one, 1);
        long[] last = new long[rank];
        for (int d = 0; d < rank; d++) {
            last[d] = shape[d] - 1;
        }
        out.add(new long[][] {new long[rank], one});
        out.add(new long[][] {last, one});
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < random; i++) {
            long[] offset = new long[rank];
            long[] size = new long[rank];
            for (int d = 0; d < rank; d++) {
                offset[d] = r.nextLong(shape[d]);
                size[d] = 1 + r.nextLong(shape[d] - offset[d]);
            }
            out.add(new long[][] {offset, size});
        }
        return out;
    }

    /**
     * AB12 (optional, claimed by {@link #detectsCorruption}): corruption is detected: every
     * corrupted encoding of AB08 throws a {@link ZarrException} or decodes to exactly the original.
     *
     * <p>Spec: codecs-sharding-indexed.rst (index and inner chunks verified through their codec
     * chains, e.g. codecs-crc32c.rst).
     *
     * <p>If this fails, check: bytes not covered by any checksum (gaps, padding, an index
     * without {@code crc32c}); decode paths that skip verification.
     */
    @TestFactory
    @DisplayName("AB12 corruption is detected (spec: the codec's checksum, e.g. codecs-crc32c.rst)")
    public Stream<DynamicTest> optional_AB12_corruptionDetected() {
        List<Case> claimed = matrix().roundTripping().stream().filter(c -> detectsCorruption(codec(c))).toList();
        if (claimed.isEmpty()) {
            Contracts.notClaimed("AB12", provider().name(), "detectsCorruption is false");
            return Stream.empty();
        }
        return Stream.of(DynamicTest.dynamicTest("AB12 " + provider().name() + " detects corruption", () -> {
            Failures f = new Failures("AB12", "corruption is detected");
            for (Case c : claimed) {
                f.check(c.label(), () -> {
                    NdArray x = c.array();
                    for (Damage.Damaged d : Damage.corruptions(encode(c), c.heavy(), c.seed())) {
                        expectRejectedOrOriginal(c, x, d.bytes(), "an encoding with " + d.description(), true);
                    }
                });
            }
            f.finish();
        }));
    }

    /**
     * AB13: {@code decodeInto} writes exactly the requested region of the decoded chunk into the
     * destination at the requested offset, for the whole chunk, its first and last element and
     * random regions, each into a destination one element larger on every side: the elements
     * around the region keep their values.
     *
     * <p>Spec: the SPI's {@code ArrayToBytesCodec.decodeInto} (a read decodes each chunk straight
     * into the caller's array).
     *
     * <p>If this fails, check: the chunk offset and destination offset mixed up; strides of the
     * destination taken from the chunk's shape; parts of absent inner chunks (fill value) written
     * outside the region.
     */
    @Test
    @DisplayName("AB13 decodeInto writes exactly the region (SPI ArrayToBytesCodec.decodeInto)")
    public void required_AB13_decodeIntoWritesRegion() {
        Failures f = new Failures("AB13", "decodeInto writes exactly the region");
        for (Case c : matrix().roundTripping()) {
            f.check(c.label(), () -> {
                NdArray x = c.array();
                ByteBuffer encoded = encode(c);
                for (long[][] region : regions(c.spec(), c.heavy() ? 2 : 4, c.seed())) {
                    String d = intoBordered(x, c.spec(), region, (dst, at) ->
                            codec(c).decodeInto(Buffers.copy(encoded), c.spec(), Region.of(region[0], region[1]), dst, at));
                    if (!d.isEmpty()) {
                        throw Failures.violation("region at " + Arrays.toString(region[0]) + " of shape "
                                + Arrays.toString(region[1]) + " decoded into a destination at offset 1: " + d);
                    }
                }
            });
        }
        f.finish();
    }

    /**
     * AB14: {@code encodeRegion} of the chunk placed inside a larger source (one element of
     * padding on every side, set to a sentinel) gives the same bytes as {@code encode} of the
     * chunk, with heap and direct memory lent (larger than asked, full of old bytes), and leaves
     * the source unchanged.
     *
     * <p>Spec: the SPI's {@code ArrayToBytesCodec.encodeRegion} (a write encodes a chunk straight
     * out of the caller's array when the codec claims {@code supportsRegionEncode()}).
     *
     * <p>If this fails, check: the source offset ignored or added twice; strides taken from the
     * chunk's shape instead of the source's; the padding's sentinel read as chunk data.
     */
    @Test
    @DisplayName("AB14 encodeRegion into lent memory equals encode of the region (SPI ArrayToBytesCodec.encodeRegion)")
    public void required_AB14_encodeRegionEqualsEncode() {
        Failures f = new Failures("AB14", "encodeRegion equals encode of the region");
        for (Case c : matrix().roundTripping()) {
            if (codec(c).regionEncoder(c.spec()).isEmpty()) {
                continue; // TODO(kit): an optional rule, reported as not claimed
            }
            f.check(c.label(), () -> {
                NdArray x = c.array();
                int rank = x.rank();
                long[] padded = new long[rank];
                long[] at = new long[rank];
                for (int d = 0; d < rank; d++) {
                    padded[d] = x.shape(d) + 2;
                    at[d] = 1;
                }
                NdArray source = NdArray.allocate(c.spec().dataType(), padded);
                ByteBuffer bytes = source.bytes();
                for (int i = 0; i < bytes.limit(); i++) {
                    bytes.put(i, (byte) 0xA5);
                }
                RegionCopy.copy(x, Region.of(new long[rank], x.shape()), source, at);
                NdArray before = NdArray.allocate(c.spec().dataType(), padded);
                before.bytes().put(source.bytes());
                ByteBuffer expected = encode(c);
                for (boolean direct : new boolean[] {false, true}) {
                    String kind = direct ? "direct" : "heap";
                    ByteBuffer actual = codec(c).regionEncoder(c.spec()).orElseThrow().encode(source, Region.of(at, c.spec().shape()), Buffers.lender(direct, (byte) 0xA5));
                    String d = Buffers.difference(expected, actual);
                    if (!d.isEmpty()) {
                        throw Failures.violation("encodeRegion at offset 1 of a padded source, " + kind
                                + " memory lent, differs from encode: " + d);
                    }
                    String changed = Buffers.difference(before, source);
                    if (!changed.isEmpty()) {
                        throw Failures.violation("encodeRegion changed its source: " + changed);
                    }
                }
            });
        }
        f.finish();
    }

    /** A call that decodes a region into {@code destination} at {@code at}. */
    private interface IntoCall {
        void decodeInto(NdArray destination, long[] at);
    }

    /**
     * Runs {@code call} on a destination one element larger than the region on every side, its
     * elements set to a sentinel, and returns how it differs from the region of {@code x} at
     * offset 1 surrounded by the sentinel; empty when it does not.
     */
    private static String intoBordered(NdArray x, ChunkSpec spec, long[][] region, IntoCall call) {
        int rank = region[1].length;
        long[] dstShape = new long[rank];
        long[] at = new long[rank];
        for (int d = 0; d < rank; d++) {
            dstShape[d] = region[1][d] + 2;
            at[d] = 1;
        }
        NdArray dst = NdArray.allocate(spec.dataType(), dstShape);
        ByteBuffer bytes = dst.bytes();
        for (int i = 0; i < bytes.limit(); i++) {
            bytes.put(i, (byte) 0xA5);
        }
        NdArray expected = NdArray.allocate(spec.dataType(), dstShape);
        expected.bytes().put(dst.bytes());
        RegionCopy.copy(x, Region.of(region[0], region[1]), expected, at);
        call.decodeInto(dst, at);
        return Buffers.difference(expected, dst);
    }
}
