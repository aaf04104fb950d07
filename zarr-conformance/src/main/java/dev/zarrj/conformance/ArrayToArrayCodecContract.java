package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.conformance.internal.codec.ArrayRegions;
import dev.zarrj.conformance.internal.codec.Buffers;
import dev.zarrj.conformance.internal.codec.Case;
import dev.zarrj.conformance.internal.codec.Concurrency;
import dev.zarrj.conformance.internal.codec.Failures;
import dev.zarrj.conformance.internal.codec.References;
import dev.zarrj.conformance.internal.codec.Samples;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

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
 * <p>Each rule is one test named {@code required_<ID>_<description>} or
 * {@code optional_<ID>_<description>}; its failure message starts with the rule id. Rules other
 * than AA01 check only the cases that round-trip, so that one defect fails one rule. Optional
 * rules (the partial decoder's) print {@code optional_<ID> not claimed by <name>: skipped} and run
 * nothing when {@code partialDecoder} is empty. The list of rules is {@code rules/codecs.md} of
 * zarr-conformance.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public abstract class ArrayToArrayCodecContract extends CodecContract<ArrayToArrayCodec, NdArray, NdArray> {
    /** For a plugin's test. */
    protected ArrayToArrayCodecContract() {
        super(ArrayToArrayCodec.class, "array→array", true);
    }

    @Override
    final void probe(Case c) {
        codec(c).encodedSpec(c.spec());
    }

    @Override
    final NdArray sample(Case c) {
        return c.array();
    }

    @Override
    final NdArray encode(ArrayToArrayCodec codec, NdArray x, Case c) {
        return codec.encode(x, c.spec());
    }

    @Override
    final NdArray decode(ArrayToArrayCodec codec, NdArray encoded, Case c) {
        return codec.decode(encoded, c.spec());
    }

    @Override
    final String roundTrip(Case c) {
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
        roundTripRule("AA01");
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
        eachCase("AA02", "encodedSpec matches what encode returns", c -> {
            ChunkSpec expected = codec(c).encodedSpec(c.spec());
            String d = Buffers.representationDifference(expected, encode(c));
            if (!d.isEmpty()) {
                throw Failures.violation("encodedSpec(spec) is " + expected + " but encode returned another array: " + d);
            }
        });
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
        anyInputRule("AA03", "any input array works and is left unchanged", (k, x, c) -> k.encode(x, c.spec()),
                (k, encoded, c) -> k.decode(encoded, c.spec()));
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
        configurationRoundTripRule("AA04");
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
        deterministicRule("AA05");
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
        eachCase("AA06", "an encoded array of the wrong shape is rejected", lightCases(), c -> {
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
        threadSafeRule("AA07");
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
        return exactReferenceRule("AA08", References.arrayToArray(provider().name()), "the reference",
                "the reference's encoding");
    }

    /**
     * AA09 (optional, claimed by a present {@code partialDecoder(encoded, spec)}): the partial
     * decoder, over a partial decoder of the stored encoded array, returns the same elements as a
     * full decode for the whole chunk, single elements and random regions, through {@code decode}
     * and through {@code decodeInto} into a destination one element larger on every side.
     *
     * <p>Spec: core.rst "Codecs" ({@code partial_decode}); the SPI's
     * {@code ArrayToArrayCodec.partialDecoder}.
     *
     * <p>If this fails, check: the region asked of the encoded decoder (permuted for
     * {@code transpose}); the block it returns transformed back to the decoded region's shape.
     */
    @TestFactory
    @DisplayName("AA09 partial decode equals full decode (SPI ArrayToArrayCodec.partialDecoder)")
    public Stream<DynamicTest> optional_AA09_partialDecode() {
        return arrayPartialDecodeRule("AA09");
    }

    /** Over a partial decoder of the case's encoded array, or of an absent one. */
    @Override
    final Optional<ArrayPartialDecoder> arrayPartialDecoder(Case c, boolean stored) {
        NdArray encoded = encode(c);
        ArrayPartialDecoder input = stored ? region -> Optional.of(encoded.region(region)) : ArrayRegions.ABSENT_ARRAY;
        return codec(c).partialDecoder(input, c.spec());
    }

    /**
     * AA10 (optional, claimed by a present {@code partialDecoder(encoded, spec)}): over the
     * partial decoder of an encoded array that is not stored, the partial decoder answers absent:
     * {@code decode} returns empty and {@code decodeInto} returns false with its destination
     * unchanged, for the whole chunk, its first and last element and random regions; neither
     * throws.
     *
     * <p>Spec: the SPI's {@code ArrayToArrayCodec.partialDecoder} ("absence passes through") and
     * {@code ArrayPartialDecoder}.
     *
     * <p>If this fails, check: {@code orElseThrow()} or {@code get()} on what the encoded decoder
     * returns; a fill value written where the answer is "absent".
     */
    @TestFactory
    @DisplayName("AA10 a partial decoder of an absent value answers absent (SPI ArrayToArrayCodec.partialDecoder)")
    public Stream<DynamicTest> optional_AA10_partialDecodeOfAbsentValue() {
        return arrayAbsentValueRule("AA10");
    }
}
