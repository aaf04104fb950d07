package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.RegionCopy;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayRegionEncoder;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.conformance.internal.codec.ArrayRegions;
import dev.zarrj.conformance.internal.codec.Buffers;
import dev.zarrj.conformance.internal.codec.Case;
import dev.zarrj.conformance.internal.codec.Concurrency;
import dev.zarrj.conformance.internal.codec.Contracts;
import dev.zarrj.conformance.internal.codec.Damage;
import dev.zarrj.conformance.internal.codec.Failures;
import dev.zarrj.conformance.internal.codec.References;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

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
@API(status = EXPERIMENTAL, since = "0.1")
public abstract class ArrayToBytesCodecContract extends CodecContract<ArrayToBytesCodec, NdArray, ByteBuffer> {
    /** For a plugin's test. */
    protected ArrayToBytesCodecContract() {
        super(ArrayToBytesCodec.class, "array→bytes", false);
    }

    /**
     * Whether this codec detects every corruption (for example sharding whose inner and index
     * chains both end in {@code crc32c}). Claiming it enables {@code optional_AB12}. Default: false,
     * as for {@code bytes}, which decodes any flipped bit to another valid element.
     */
    protected boolean detectsCorruption(ArrayToBytesCodec codec) {
        return false;
    }

    @Override
    final void probe(Case c) {
        codec(c).checkSupported(c.spec());
        codec(c).encodedSize(c.spec());
    }

    @Override
    final NdArray sample(Case c) {
        return c.array();
    }

    @Override
    final ByteBuffer encode(ArrayToBytesCodec codec, NdArray x, Case c) {
        return Buffers.copy(codec.encode(x, c.spec()));
    }

    @Override
    final NdArray decode(ArrayToBytesCodec codec, ByteBuffer encoded, Case c) {
        return codec.decode(Buffers.copy(encoded), c.spec());
    }

    @Override
    final String roundTrip(Case c) {
        ByteBuffer encoded = codec(c).encode(c.array(), c.spec());
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
        roundTripRule("AB01");
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
        anyInputRule("AB02", "any input array or buffer works and is left unchanged",
                (k, x, c) -> Buffers.copy(k.encode(x, c.spec())), (k, encoded, c) -> k.decode(encoded, c.spec()));
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
        eachCase("AB03", "the declared encoded size holds", c -> {
            long actual = encode(c).remaining();
            EncodedSize declared = codec(c).encodedSize(c.spec());
            String why = Contracts.sizeViolation(declared, actual);
            if (!why.isEmpty()) {
                throw Failures.violation("encodedSize(spec) is " + declared + ", but encode produced " + actual
                        + " bytes: " + why);
            }
        });
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
        configurationRoundTripRule("AB04");
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
        deterministicRule("AB05");
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
        List<Case> fixed = matrix().roundTripping().stream()
                .filter(c -> codec(c).encodedSize(c.spec()) instanceof EncodedSize.Fixed).toList();
        eachCase("AB06", "a fixed-size codec refuses input of another size", fixed, c -> {
            ByteBuffer encoded = encode(c);
            for (int extra : new int[] {1, 8}) {
                ByteBuffer longer = Buffers.append(encoded, new byte[extra]);
                expectCorruptData("decoding with " + extra + " byte(s) appended", () -> "decoding the "
                        + encoded.remaining() + "-byte encoding with " + extra + " byte(s) appended returned "
                        + codec(c).decode(longer, c.spec()) + " instead of throwing CorruptDataException");
            }
        });
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
        eachCase("AB07", "truncated input is rejected with a ZarrException",
                c -> expectRejectedOrOriginal(c, Damage.truncations(encode(c), c.heavy(), c.seed()), true));
    }

    /** Decoding each damaged input throws a ZarrException or gives x ({@code exact}) or an array of x's representation. */
    private void expectRejectedOrOriginal(Case c, List<Damage.Damaged> inputs, boolean exact) {
        NdArray x = c.array();
        for (Damage.Damaged damaged : inputs) {
            NdArray out;
            try {
                out = codec(c).decode(damaged.bytes(), c.spec());
            } catch (ZarrException expected) {
                continue;
            } catch (Throwable t) {
                throw new Failures.Violation("decoding " + damaged.description() + " threw " + Failures.describe(t)
                        + "; damaged input must be rejected with a ZarrException (CorruptDataException)");
            }
            String d = exact ? Buffers.difference(x, out) : Buffers.representationDifference(c.spec(), out);
            if (!d.isEmpty()) {
                throw Failures.violation("decoding " + damaged.description() + " returned "
                        + (exact ? "other values" : "a wrong array") + " instead of failing: " + d);
            }
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
        eachCase("AB08", "corrupted input fails cleanly",
                c -> expectRejectedOrOriginal(c, Damage.corruptions(encode(c), c.heavy(), c.seed()), false));
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
        threadSafeRule("AB09");
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
        return exactReferenceRule("AB10", References.arrayToBytes(provider().name()), "the reference encoding",
                "the reference encoding");
    }

    /**
     * AB11 (optional, claimed by a present {@code partialDecoder(...)}): the partial decoder of a
     * stored value returns the same elements as a full decode for the whole chunk, single elements
     * and random regions, through {@code decode} and through {@code decodeInto} into a bordered
     * destination as in AB13.
     *
     * <p>Spec: core.rst "Codecs" ({@code partial_decode}); the SPI's
     * {@code ArrayToBytesCodec.partialDecoder}.
     *
     * <p>If this fails, check: offsets of regions that span several inner parts; regions at the
     * upper edge; fill value for absent parts; the rank-0 case.
     */
    @TestFactory
    @DisplayName("AB11 partial decode equals full decode (spec: core.rst 'Codecs', partial_decode)")
    public Stream<DynamicTest> optional_AB11_partialDecode() {
        return arrayPartialDecodeRule("AB11");
    }

    /** Over the case's encoding as stored, or over an absent value. */
    @Override
    final Optional<ArrayPartialDecoder> arrayPartialDecoder(Case c, boolean stored) {
        return codec(c).partialDecoder(stored ? ByteSource.of(encode(c)) : Buffers.ABSENT, c.spec());
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
        return ifClaimed("AB12", "corruption is detected", "detects corruption", c -> detectsCorruption(codec(c)),
                "detectsCorruption is false",
                c -> expectRejectedOrOriginal(c, Damage.corruptions(encode(c), c.heavy(), c.seed()), true));
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
     * <p>If this fails, check: the region's offset and the destination offset mixed up; strides of
     * the destination taken from the chunk's shape; parts of absent inner chunks (fill value)
     * written outside the region.
     */
    @Test
    @DisplayName("AB13 decodeInto writes exactly the region (SPI ArrayToBytesCodec.decodeInto)")
    public void required_AB13_decodeIntoWritesRegion() {
        eachCase("AB13", "decodeInto writes exactly the region", c -> {
            NdArray x = c.array();
            ByteBuffer encoded = encode(c);
            for (Region region : ArrayRegions.regions(c.spec(), c.heavy() ? 2 : 4, c.seed())) {
                String d = ArrayRegions.intoBordered(x, region, (dst, at) -> {
                    codec(c).decodeInto(Buffers.copy(encoded), c.spec(), region, dst, at);
                    return true;
                });
                if (!d.isEmpty()) {
                    throw Failures.violation("region " + region + " decoded into a destination at offset 1: " + d);
                }
            }
        });
    }

    /**
     * AB14 (optional, claimed by a present {@code regionEncoder(spec)}): the region encoder, given
     * the chunk placed inside a larger source (one element of padding on every side, set to a
     * sentinel), gives the same bytes as {@code encode} of the chunk, with heap and direct memory
     * lent (larger than asked, full of old bytes), and leaves the source unchanged.
     *
     * <p>Spec: the SPI's {@code ArrayToBytesCodec.regionEncoder} and {@code ArrayRegionEncoder} (a
     * write encodes a chunk straight out of the caller's array).
     *
     * <p>If this fails, check: the region's offset ignored or added twice; strides taken from the
     * chunk's shape instead of the source's; the padding's sentinel read as chunk data.
     */
    @TestFactory
    @DisplayName("AB14 the region encoder equals encode of the region (SPI ArrayToBytesCodec.regionEncoder)")
    public Stream<DynamicTest> optional_AB14_regionEncoderEqualsEncode() {
        return ifClaimed("AB14", "the region encoder equals encode of the region", "region encoder",
                c -> codec(c).regionEncoder(c.spec()).isPresent(), "regionEncoder(spec) is empty", c -> {
                    ArrayRegionEncoder encoder = codec(c).regionEncoder(c.spec()).orElseThrow();
                    NdArray x = c.array();
                    NdArray source = ArrayRegions.bordered(x.dataType(), x.shape());
                    Region region = Region.of(ArrayRegions.ones(x.rank()), x.shape());
                    RegionCopy.copy(x, Region.whole(x.shape()), source, region.offset());
                    NdArray before = ArrayRegions.copyOf(source);
                    ByteBuffer expected = encode(c);
                    for (boolean direct : new boolean[] {false, true}) {
                        String kind = direct ? "direct" : "heap";
                        ByteBuffer actual = encoder.encode(source, region, Buffers.lender(direct, ArrayRegions.SENTINEL));
                        String d = Buffers.difference(expected, actual);
                        if (!d.isEmpty()) {
                            throw Failures.violation("the region encoder at offset 1 of a padded source, " + kind
                                    + " memory lent, differs from encode: " + d);
                        }
                        String changed = Buffers.difference(before, source);
                        if (!changed.isEmpty()) {
                            throw Failures.violation("the region encoder changed its source: " + changed);
                        }
                    }
                });
    }

    /**
     * AB15: {@code encode(array, spec, lender)}, with heap and direct memory lent (larger than
     * asked, full of old bytes), gives the same bytes as {@code encode(array, spec)} and leaves the
     * input unchanged. (The result may be a view of the input where {@code encode} without a lender
     * would be, as {@code bytes} in native order is: {@code BufferLender} allows it for array→bytes
     * codecs, so it is not checked.) Also with a lender that takes back at once what the codec
     * gives back ({@code BufferLender.giveBack}) and overwrites it: the result is still the same,
     * and only buffers lent are given back, once each.
     *
     * <p>Spec: the SPI's {@code ArrayToBytesCodec.encode(NdArray, ChunkSpec, BufferLender)} and
     * {@code BufferLender} (a write encodes into memory it reuses).
     *
     * <p>If this fails, check: the lent buffer returned with its own limit instead of the encoded
     * length; lent memory assumed to be zeroed; a buffer given back while the result still lies in
     * it (or views it), or given back twice.
     */
    @Test
    @DisplayName("AB15 encode into lent memory equals encode (SPI ArrayToBytesCodec.encode with a BufferLender)")
    public void required_AB15_encodeIntoLentMemory() {
        eachCase("AB15", "encode into lent memory equals encode", c -> {
            ByteBuffer expected = encode(c);
            for (boolean direct : new boolean[] {false, true}) {
                String kind = direct ? "direct" : "heap";
                NdArray input = c.array();
                NdArray before = ArrayRegions.copyOf(input);
                ByteBuffer result = codec(c).encode(input, c.spec(), Buffers.lender(direct, ArrayRegions.SENTINEL));
                String d = Buffers.difference(before, input);
                if (!d.isEmpty()) {
                    throw Failures.violation("encode with " + kind + " memory lent changed its input: " + d);
                }
                d = Buffers.difference(expected, result);
                if (!d.isEmpty()) {
                    throw Failures.violation("encode with " + kind + " memory lent differs from encode: " + d);
                }
            }
            Buffers.TakingBack lender = Buffers.takingBack(false, ArrayRegions.SENTINEL);
            ByteBuffer result = codec(c).encode(c.array(), c.spec(), lender);
            if (!lender.misuse().isEmpty()) {
                throw Failures.violation("encode with memory lent: " + lender.misuse().get(0));
            }
            String d = Buffers.difference(expected, result);
            if (!d.isEmpty()) {
                throw Failures.violation("encode with memory lent, some of it given back early (giveBack, then"
                        + " overwritten as the lender's next borrower would), differs from encode (was a buffer"
                        + " given back while the result still lay in it?): " + d);
            }
        });
    }

    /**
     * AB16 (optional, claimed by {@code encodesAsInMemory(spec)} true): the encoding is the
     * array's bytes exactly as an {@code NdArray} holds them (native byte order, C order), so
     * that the pipeline may decode straight into a destination array's memory.
     *
     * <p>Spec: the SPI's {@code ArrayToBytesCodec.encodesAsInMemory}.
     *
     * <p>If this fails, check: the claim made for an {@code endian} other than the platform's,
     * or for an encoding with a header.
     */
    @TestFactory
    @DisplayName("AB16 an encoding claimed to be as in memory is the array's bytes (SPI ArrayToBytesCodec.encodesAsInMemory)")
    public Stream<DynamicTest> optional_AB16_encodesAsInMemory() {
        return ifClaimed("AB16", "an encoding claimed to be as in memory is the array's bytes", "encodes as in memory",
                c -> codec(c).encodesAsInMemory(c.spec()), "encodesAsInMemory(spec) is false", c -> {
                    if (c.array().holdsObjects()) {
                        throw Failures.violation("encodesAsInMemory(spec) is true for " + c.spec().dataType().name()
                                + ", whose arrays hold objects, not bytes");
                    }
                    String d = Buffers.difference(c.array().bytes(), encode(c));
                    if (!d.isEmpty()) {
                        throw Failures.violation("encodesAsInMemory(spec) is true, but the encoding is not the"
                                + " array's bytes (native byte order, C order): " + d);
                    }
                });
    }

    /**
     * AB17 (optional, claimed by a present {@code partialDecoder(...)}): the partial decoder of a
     * value that is not stored (a {@code ByteSource} whose reads return empty) answers absent:
     * {@code decode} returns empty and {@code decodeInto} returns false with its destination
     * unchanged, for the whole chunk, its first and last element and random regions; neither
     * throws.
     *
     * <p>Spec: the SPI's {@code ByteSource} and {@code ArrayPartialDecoder} (an absent value is an
     * answer, not an error: the pipeline reads the fill value).
     *
     * <p>If this fails, check: {@code read(...).orElseThrow()} or {@code get()} on what the source
     * returns; an index read that treats "absent" as "corrupt".
     */
    @TestFactory
    @DisplayName("AB17 a partial decoder of an absent value answers absent (SPI ByteSource, ArrayPartialDecoder)")
    public Stream<DynamicTest> optional_AB17_partialDecodeOfAbsentValue() {
        return arrayAbsentValueRule("AB17");
    }

    /**
     * AB19 (optional, claimed by a partial decoder whose {@code innerChunkShape()} is present):
     * the inner chunk shape has the chunk's rank, each entry positive and dividing the chunk's
     * shape, and decoding exactly one inner chunk's region (first, last, random), through
     * {@code decode} and {@code decodeInto} into a bordered destination, equals that part of the
     * whole decode. Selections rely on it to fetch only the inner chunks holding selected
     * elements.
     *
     * <p>Spec: the SPI's {@code ArrayPartialDecoder.innerChunkShape}; codecs-sharding-indexed.rst
     * (inner chunks).
     *
     * <p>If this fails, check: the shape of the inner chunks rather than their count per shard;
     * the shape as the decoder's chunk sees it (after an array-to-array codec such as transpose).
     */
    @TestFactory
    @DisplayName("AB19 innerChunkShape divides the chunk and inner chunks decode to their part (SPI ArrayPartialDecoder)")
    public Stream<DynamicTest> optional_AB19_innerChunkShape() {
        return arrayInnerChunkShapeRule("AB19");
    }

    /**
     * AB18 (required for {@code vlen-utf8} and {@code vlen-bytes}, whose format the kit knows):
     * an encoding that breaks the format is rejected with {@link CorruptDataException}, never
     * another exception and never an array: an element count other than the chunk's, an element
     * length past the end, bytes after the last element (even the form of one more empty element),
     * and for {@code vlen-utf8} an element of malformed UTF-8 (a stray continuation byte, a
     * truncated sequence, overlong forms, an encoded surrogate, a code point past U+10FFFF, a byte
     * UTF-8 never uses). Runs nothing for other names.
     *
     * <p>Spec: zarr-extensions {@code codecs/vlen-utf8}, {@code codecs/vlen-bytes}; core.rst
     * "Decoding procedure"; DESIGN.md: a damaged chunk is an error, never a wrong answer.
     *
     * <p>If this fails, check: {@code new String(bytes, UTF_8)}, which replaces malformed input
     * with U+FFFD instead of failing (use a {@code CharsetDecoder} set to {@code REPORT}); the
     * count compared with the chunk's element count; the end of the input checked after the last
     * element; a length read as a signed {@code int}.
     */
    @TestFactory
    @DisplayName("AB18 a malformed variable-length encoding is rejected (spec: zarr-extensions codecs/vlen-utf8, vlen-bytes)")
    public Stream<DynamicTest> required_AB18_malformedVariableLengthRejected() {
        Optional<References.Vlen> reference = References.variableLength(provider().name());
        return ifReference("AB18", reference, "rejects malformed encodings, as does", lightCases(), c -> {
            for (Damage.Damaged damaged : reference.orElseThrow().malformed(c.array())) {
                expectCorruptData("decoding " + damaged.description(), () -> "decoding " + damaged.description()
                        + " returned an array instead of throwing CorruptDataException: "
                        + codec(c).decode(damaged.bytes(), c.spec()));
            }
        });
    }
}
