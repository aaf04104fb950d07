package dev.zarrj.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteRange;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.BytesToBytesCodec;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * The contract of a bytes→bytes codec (compressors, checksums): extend it in your plugin's tests
 * and return your provider from {@link #provider()}.
 *
 * <pre>{@code
 * class GzipCodecConformanceTest extends BytesToBytesCodecContract {
 *     @Override protected CodecProvider provider() { return new GzipCodecProvider(); }
 * }
 * }</pre>
 *
 * <p>The codec is created from each of {@link #configurations()} (by default the provider's
 * {@link CodecProvider#exampleConfigurations() examples}) and run on the bytes of sample arrays of
 * every data type of {@link #dataTypes()} and every shape of {@link #shapes(DataType)}: 0-d,
 * 1-d, 2-d and 3-d shapes with lengths of 1 and odd lengths, and one array of at least 4 MiB. A
 * codec whose {@link Codec#resolveDefaults} gives another codec for an array (blosc's
 * {@code typesize}) is checked in both forms. A case the codec refuses with
 * {@link dev.zarrj.api.InvalidMetadataException} (from {@code encodedSize} or {@code encode}) is
 * skipped; refusing with any other exception is a failure of BB01.
 *
 * <p>Each rule is one test named {@code required_<ID>_<description>} or
 * {@code optional_<ID>_<description>}; its failure message starts with the rule id. Rules other
 * than BB01 check only the cases that round-trip, so that one defect fails one rule. Optional
 * rules are {@link TestFactory test factories}: when the codec does not claim the capability they
 * print {@code optional_<ID> not claimed by <name>: skipped} and run nothing. The list of rules is
 * {@code rules/codecs.md} of zarr-conformance.
 *
 * <p>The test instance is shared by the rules of one class ({@link TestInstance.Lifecycle#PER_CLASS}),
 * so that the cases are built once.
 *
 * @since 0.1
 */
@API(status = EXPERIMENTAL, since = "0.1")
public abstract class BytesToBytesCodecContract extends CodecContract<BytesToBytesCodec, ByteBuffer, ByteBuffer> {
    /** For a plugin's test. */
    protected BytesToBytesCodecContract() {
        super(BytesToBytesCodec.class, "bytes→bytes", false);
    }

    /**
     * Whether this codec detects every corruption: a checksum over all the data it decodes, as
     * {@code crc32c} and {@code gzip} have. Claiming it enables {@code optional_BB12}. Default:
     * false.
     */
    protected boolean detectsCorruption(BytesToBytesCodec codec) {
        return false;
    }

    @Override
    final void probe(Case c) {
        codec(c).encodedSize(EncodedSize.fixed(c.decodedBytes()));
        codec(c).encode(c.array().bytes());
    }

    @Override
    final boolean samplesBytes() {
        return true;
    }

    @Override
    final ByteBuffer sample(Case c) {
        return c.array().bytes();
    }

    @Override
    final ByteBuffer encode(BytesToBytesCodec codec, ByteBuffer x, Case c) {
        return codec.encode(x.duplicate());
    }

    @Override
    final ByteBuffer decode(BytesToBytesCodec codec, ByteBuffer encoded, Case c) {
        return codec.decode(Buffers.copy(encoded), EncodedSize.fixed(c.decodedBytes()));
    }

    /** Empty when decode(encode(x)) is x with the decoded size known and unknown; otherwise why not. */
    @Override
    final String roundTrip(Case c) {
        ByteBuffer x = c.array().bytes();
        ByteBuffer encoded = codec(c).encode(x.duplicate());
        if (encoded == null) {
            return "encode returned null";
        }
        String d = Buffers.difference(x, codec(c).decode(Buffers.copy(encoded), EncodedSize.fixed(c.decodedBytes())));
        if (!d.isEmpty()) {
            return "decode(encode(x), fixed(" + c.decodedBytes() + ")) is not x: " + d;
        }
        d = Buffers.difference(x, codec(c).decode(Buffers.copy(encoded), EncodedSize.unbounded()));
        if (!d.isEmpty()) {
            return "decode(encode(x), unbounded()) is not x: " + d;
        }
        return "";
    }

    /**
     * BB01: decoding what the codec encoded gives back the input byte for byte, whether the decoded
     * size is passed as known ({@code EncodedSize.fixed(n)}) or unknown. Also checked here: every
     * configuration creates a bytes→bytes codec, the codec refuses what it cannot encode only with
     * {@code InvalidMetadataException}, and it accepts at least one case.
     *
     * <p>Spec: core.rst "Codecs" (each codec is a bidirectional transform) and "Decoding procedure".
     *
     * <p>If this fails, check: that decode undoes encode exactly (headers, lengths, trailing
     * bytes); that decode reads from the buffer's position to its limit; that an unknown decoded
     * size is handled; that {@code create} accepts every example configuration.
     */
    @Test
    @DisplayName("BB01 decode(encode(x)) is x byte for byte (spec: core.rst 'Codecs', 'Decoding procedure')")
    public void required_BB01_roundTrip() {
        roundTripRule("BB01");
    }

    /**
     * BB02: the codec reads the bytes between position and limit of any buffer a caller may pass,
     * and leaves it unchanged: a window into a larger array, a direct buffer, a read-only buffer, a
     * buffer set to little-endian order. Both encode and decode are given each form.
     *
     * <p>Spec: core.rst "Codecs"; the SPI's {@code Codec} ("buffers passed in are not modified").
     *
     * <p>If this fails, check: uses of {@code array()} without {@code arrayOffset()} and
     * {@code position()}; {@code hasArray()} before {@code array()}; reads that move the caller's
     * position (use {@code duplicate()} or absolute gets); multi-byte reads that depend on the
     * buffer's byte order (set the order on a duplicate).
     */
    @Test
    @DisplayName("BB02 any input buffer works and is left unchanged (spec: core.rst 'Codecs'; SPI Codec)")
    public void required_BB02_anyInputBuffer() {
        anyInputRule("BB02", "any input buffer works and is left unchanged", (k, x, c) -> k.encode(x),
                (k, encoded, c) -> k.decode(encoded, EncodedSize.fixed(c.decodedBytes())));
    }

    /**
     * BB03: the declared encoded size holds: {@code encodedSize(d)} for decoded sizes {@code d}
     * that allow the input ({@code fixed(n)}, {@code bounded(n)}, {@code bounded(2n + 64)},
     * {@code unbounded()}) is exact when {@code Fixed} and an upper bound when {@code Bounded}.
     *
     * <p>Spec: core.rst "Codecs" ({@code compute_encoded_size}).
     *
     * <p>If this fails, check: headers, trailers and framing counted in the bound; the worst case
     * of incompressible input (stored blocks); overflow for large sizes; that a variable size is
     * declared {@code Bounded} or {@code Unbounded}, never {@code Fixed}.
     */
    @Test
    @DisplayName("BB03 the declared encoded size holds (spec: core.rst 'Codecs', compute_encoded_size)")
    public void required_BB03_encodedSizeHonoured() {
        eachCase("BB03", "the declared encoded size holds", c -> {
            long n = c.decodedBytes();
            long actual = encode(c).remaining();
            for (EncodedSize d : List.of(EncodedSize.fixed(n), EncodedSize.bounded(n),
                    EncodedSize.bounded(2 * n + 64), EncodedSize.unbounded())) {
                EncodedSize declared = codec(c).encodedSize(d);
                String why = Contracts.sizeViolation(declared, actual);
                if (!why.isEmpty()) {
                    throw Failures.violation("encodedSize(" + d + ") is " + declared + ", but encode produced "
                            + actual + " bytes: " + why);
                }
            }
        });
    }

    /**
     * BB04: the configuration survives a metadata round trip: {@code name()} is the provider's
     * name, {@code toJson()} holds it and {@code configuration()}, and the codec created from its
     * own configuration writes the same JSON and encodes the same bytes (when encoding is
     * deterministic) that the original decodes, and the other way round.
     *
     * <p>Spec: core.rst "codecs" (array metadata: each codec is an extension object with
     * {@code name} and {@code configuration}).
     *
     * <p>If this fails, check: that {@code configuration()} writes every field that changes the
     * encoding, including defaults; that {@code create} reads what {@code configuration()} writes
     * (names, types, spellings); that numbers keep their value.
     */
    @Test
    @DisplayName("BB04 the configuration survives toJson → create (spec: core.rst 'codecs' metadata)")
    public void required_BB04_configurationRoundTrip() {
        configurationRoundTripRule("BB04");
    }

    /**
     * BB05: encoding is deterministic: the same input encodes to the same bytes, twice with one
     * instance and once more with another instance created from the same configuration.
     *
     * <p>Spec: core.rst "Encoding procedure" ({@code encode} is a function of the decoded value
     * and the codec's parameters); identical chunks must not churn stores and caches.
     *
     * <p>If this fails, check: timestamps or random salts in headers; uninitialised bytes in
     * reused buffers; output that depends on thread or pool state (dictionaries, contexts).
     */
    @Test
    @DisplayName("BB05 encoding is deterministic (spec: core.rst 'Encoding procedure')")
    public void required_BB05_deterministic() {
        deterministicRule("BB05");
    }

    /**
     * BB06: decode enforces the decoded size it is given: {@code fixed(n - 1)},
     * {@code fixed(n + 1)} and {@code bounded(n - 1)} for an encoding of {@code n} bytes throw
     * {@link CorruptDataException}; {@code bounded(n)} decodes.
     *
     * <p>Spec: core.rst "Decoding procedure" ({@code decode(encoded_value,
     * decoded_representation_type)}); the SPI's {@code BytesToBytesCodec.decode}: a decompressor
     * stops as soon as its output exceeds the allowed size (no decompression bombs).
     *
     * <p>If this fails, check: that decode calls {@code BytesToBytesCodec.checkDecodedSize} (or
     * compares sizes itself) before returning; that the output buffer is never allowed to grow
     * past {@code decodedSize.max()}.
     */
    @Test
    @DisplayName("BB06 decode enforces the decoded size (spec: core.rst 'Decoding procedure')")
    public void required_BB06_decodedSizeEnforced() {
        eachCase("BB06", "decode enforces the decoded size", c -> {
            long n = c.decodedBytes();
            ByteBuffer encoded = encode(c);
            List<EncodedSize> wrong = new ArrayList<>(List.of(EncodedSize.fixed(n + 1)));
            if (n > 0) {
                wrong.add(EncodedSize.fixed(n - 1));
                wrong.add(EncodedSize.bounded(n - 1));
            }
            for (EncodedSize size : wrong) {
                expectCorruptData("decode with " + size, () -> {
                    ByteBuffer out = codec(c).decode(Buffers.copy(encoded), size);
                    return "decode with " + size + " returned " + (out == null ? "null" : out.remaining() + " bytes")
                            + " instead of throwing CorruptDataException";
                });
            }
            String d = Buffers.difference(c.array().bytes(),
                    codec(c).decode(Buffers.copy(encoded), EncodedSize.bounded(n)));
            if (!d.isEmpty()) {
                throw Failures.violation("decode with bounded(" + n + ") is not x: " + d);
            }
        });
    }

    /**
     * BB07: truncated input is rejected: decoding any prefix of an encoding (every length for
     * encodings up to 256 bytes, the first and last few lengths and some others for longer ones)
     * with the decoded size known throws a {@link ZarrException}, or returns exactly the original
     * bytes. Never another exception type, never other bytes.
     *
     * <p>Spec: core.rst "Decoding procedure"; DESIGN.md: a truncated chunk is an error, never a
     * wrong answer.
     *
     * <p>If this fails, check: reads past the end of short input
     * ({@code BufferUnderflowException}, {@code IndexOutOfBoundsException}); a native library's
     * error code turned into {@link CorruptDataException}; lengths in headers checked against the
     * input; that the decoded size is enforced.
     */
    @Test
    @DisplayName("BB07 truncated input is rejected with a ZarrException (spec: core.rst 'Decoding procedure')")
    public void required_BB07_truncatedInputRejected() {
        eachCase("BB07", "truncated input is rejected with a ZarrException",
                c -> expectRejectedOrOriginal(c, Damage.truncations(encode(c), c.heavy(), c.seed()), true));
    }

    /** Decoding each damaged input throws a ZarrException or gives x ({@code exact}) or as many bytes as x. */
    private void expectRejectedOrOriginal(Case c, List<Damage.Damaged> inputs, boolean exact) {
        ByteBuffer x = c.array().bytes();
        for (Damage.Damaged damaged : inputs) {
            ByteBuffer out;
            try {
                out = codec(c).decode(damaged.bytes(), EncodedSize.fixed(c.decodedBytes()));
            } catch (ZarrException expected) {
                continue;
            } catch (Throwable t) {
                throw new Failures.Violation("decoding " + damaged.description() + " threw " + Failures.describe(t)
                        + "; damaged input must be rejected with a ZarrException (CorruptDataException)");
            }
            if (out == null) {
                throw Failures.violation("decoding " + damaged.description() + " returned null");
            }
            if (exact) {
                String d = Buffers.difference(x, out);
                if (!d.isEmpty()) {
                    throw Failures.violation("decoding " + damaged.description()
                            + " returned other bytes instead of failing: " + d);
                }
            } else if (out.remaining() != c.decodedBytes()) {
                throw Failures.violation("decoding " + damaged.description() + " returned " + out.remaining()
                        + " bytes, not the " + c.decodedBytes() + " it was told to expect");
            }
        }
    }

    /**
     * BB08: corrupted input fails cleanly: decoding an encoding with random bytes flipped (a
     * fixed seed) and with single bits flipped in the first and last byte throws a
     * {@link ZarrException} or returns exactly the decoded size it was given. Never another
     * exception type. (Without a checksum a codec may decode flipped bits to other bytes; a codec
     * that claims to detect corruption is held to more by {@code optional_BB12}.)
     *
     * <p>Spec: core.rst "Decoding procedure"; DESIGN.md: bad input gets a clear error.
     *
     * <p>If this fails, check: lengths and offsets read from the input used unchecked; native
     * errors not mapped to {@link CorruptDataException}; unchecked exceptions from the JDK
     * ({@code DataFormatException} wrapped in {@code IllegalStateException}, {@code ZipException}).
     */
    @Test
    @DisplayName("BB08 corrupted input fails cleanly (spec: core.rst 'Decoding procedure')")
    public void required_BB08_corruptInputFailsCleanly() {
        eachCase("BB08", "corrupted input fails cleanly",
                c -> expectRejectedOrOriginal(c, Damage.corruptions(encode(c), c.heavy(), c.seed()), false));
    }

    /**
     * BB09: one instance is safe to share: {@value Concurrency#THREADS} threads started together
     * encode and decode different data with the same codec instances, and every result is right.
     *
     * <p>Spec: DESIGN.md "The SPI" (instances are immutable and thread-safe); the SPI's
     * {@code Codec}.
     *
     * <p>If this fails, check: shared mutable fields (scratch buffers, streams, native contexts)
     * without a pool or a {@code ThreadLocal}; lazily initialised state without safe publication;
     * non-thread-safe native calls.
     */
    @Test
    @DisplayName("BB09 one instance is safe to share between threads (DESIGN.md 'The SPI')")
    public void required_BB09_threadSafe() {
        threadSafeRule("BB09");
    }

    /**
     * BB10: for a codec name whose format the kit knows ({@code crc32c} exactly; {@code gzip}
     * through the JDK's gzip streams), the codec agrees with the kit's independent reference: its
     * encoding equals the reference's when the format allows only one, the reference decodes it,
     * and it decodes the reference's encoding. Runs nothing for other names.
     *
     * <p>Spec: codecs-crc32c.rst, codecs-gzip.rst "Format and algorithm".
     *
     * <p>If this fails, check: byte order of checksums and lengths; header fields; that what
     * this codec writes is readable by other implementations and the other way round.
     */
    @TestFactory
    @DisplayName("BB10 agrees with the kit's reference for its name (spec: the codec's own document)")
    public Stream<DynamicTest> required_BB10_matchesReference() {
        Optional<References.BytesToBytes> reference = References.bytesToBytes(provider().name());
        return ifReference("BB10", reference, lightCases(), c -> {
            References.BytesToBytes ref = reference.orElseThrow();
            ObjectNode configuration = c.codec().configuration();
            ByteBuffer x = c.array().bytes();
            ByteBuffer encoded = encode(c);
            if (ref.exact()) {
                String d = Buffers.difference(ref.encode(configuration, x.duplicate()), encoded);
                if (!d.isEmpty()) {
                    throw Failures.violation("encode differs from the reference encoding: " + d);
                }
            }
            ByteBuffer read;
            try {
                read = ref.decode(configuration, encoded);
            } catch (RuntimeException e) {
                throw Failures.violation("the reference cannot decode this codec's encoding: " + Failures.describe(e));
            }
            String d = Buffers.difference(x, read);
            if (!d.isEmpty()) {
                throw Failures.violation("the reference decodes this codec's encoding to other bytes: " + d);
            }
            d = Buffers.difference(x, codec(c).decode(ref.encode(configuration, x.duplicate()),
                    EncodedSize.fixed(c.decodedBytes())));
            if (!d.isEmpty()) {
                throw Failures.violation("decoding the reference's encoding does not give x: " + d);
            }
        });
    }

    /**
     * BB11 (optional, claimed by a present {@code partialDecoder(...)}): the partial decoder of a
     * stored value returns the same bytes as a full decode for whole, open-ended, suffix and
     * random ranges, and reports the decoded size when it gives one.
     *
     * <p>Spec: core.rst "Codecs" ({@code partial_decode}); the SPI's
     * {@code BytesToBytesCodec.partialDecoder}.
     *
     * <p>If this fails, check: range arithmetic (suffix ranges, ranges that end at the end);
     * block boundaries; the size reported by the returned source.
     */
    @TestFactory
    @DisplayName("BB11 partial decode equals full decode (spec: core.rst 'Codecs', partial_decode)")
    public Stream<DynamicTest> optional_BB11_partialDecode() {
        return ifClaimed("BB11", "partial decode equals full decode", "partial decode",
                c -> partialDecoder(c, ByteSource.of(encode(c))).isPresent(), "partialDecoder(...) is empty", c -> {
                    ByteBuffer x = c.array().bytes();
                    int n = x.remaining();
                    ByteSource source = partialDecoder(c, ByteSource.of(encode(c))).orElseThrow();
                    if (source.size().isPresent() && source.size().getAsLong() != n) {
                        throw Failures.violation("the partial decoder reports size " + source.size().getAsLong()
                                + ", expected " + n);
                    }
                    for (ByteRange r : ranges(n, c.heavy() ? 3 : 8, c.seed())) {
                        long[] se = r.resolve(n);
                        ByteBuffer expected = x.duplicate().position((int) se[0]).limit((int) se[1]);
                        ByteBuffer read = source.read(r).orElseThrow(() -> Failures.violation("range " + r
                                + ": the partial decoder answered that the stored value is absent"));
                        String d = Buffers.difference(expected, read);
                        if (!d.isEmpty()) {
                            throw Failures.violation("range " + r + ": " + d);
                        }
                    }
                });
    }

    private Optional<ByteSource> partialDecoder(Case c, ByteSource input) {
        return codec(c).partialDecoder(input, EncodedSize.fixed(c.decodedBytes()));
    }

    /** The whole value, from a third, the second half, empty ones, and {@code random} random ranges. */
    private static List<ByteRange> ranges(int n, int random, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<ByteRange> ranges = new ArrayList<>(List.of(ByteRange.all(), ByteRange.from(n / 3),
                ByteRange.suffix(n / 2), ByteRange.of(0, 0), ByteRange.from(n)));
        for (int i = 0; i < random; i++) {
            int start = r.nextInt(n + 1);
            ranges.add(ByteRange.of(start, r.nextInt(n - start + 1)));
        }
        return ranges;
    }

    /**
     * BB12 (optional, claimed by {@link #detectsCorruption}): corruption is detected: every
     * corrupted encoding of BB08 throws a {@link ZarrException} or decodes to exactly the
     * original (a flip in a field that does not matter).
     *
     * <p>Spec: codecs-crc32c.rst; codecs-gzip.rst (RFC 1952's CRC-32); the codec's own document.
     *
     * <p>If this fails, check: that the checksum covers every byte that changes the decoded
     * value, and is verified on every decode path.
     */
    @TestFactory
    @DisplayName("BB12 corruption is detected (spec: the codec's checksum, e.g. codecs-crc32c.rst)")
    public Stream<DynamicTest> optional_BB12_corruptionDetected() {
        return ifClaimed("BB12", "corruption is detected", "detects corruption", c -> detectsCorruption(codec(c)),
                "detectsCorruption is false",
                c -> expectRejectedOrOriginal(c, Damage.corruptions(encode(c), c.heavy(), c.seed()), true));
    }

    /**
     * BB13: {@code decodeInto} writes what {@code decode} returns into the destination between
     * its position and limit, for a heap buffer at an offset in a larger array and for a direct
     * buffer: no byte outside that window changes, nor the destination's position or limit, and
     * the input is left unchanged. A destination one byte too small or too large is refused with
     * {@link CorruptDataException}.
     *
     * <p>Spec: the SPI's {@code BytesToBytesCodec.decodeInto} (the pipeline decodes into memory it
     * reuses, and into the caller's array).
     *
     * <p>If this fails, check: absolute indexes that forget the destination's position or
     * {@code arrayOffset()}; native calls given a direct buffer's base address where its position
     * was meant; relative puts that move the position; that the size is checked before writing.
     */
    @Test
    @DisplayName("BB13 decodeInto fills exactly the destination (SPI BytesToBytesCodec.decodeInto)")
    public void required_BB13_decodeIntoFillsDestination() {
        eachCase("BB13", "decodeInto fills exactly the destination", c -> {
            ByteBuffer x = c.array().bytes();
            int n = x.remaining();
            ByteBuffer encoded = encode(c);
            Buffers.Snapshot input = Buffers.Snapshot.of(encoded);
            for (Buffers.Variant<ByteBuffer> w : windows(n)) {
                ByteBuffer dst = window(w.value(), n);
                codec(c).decodeInto(encoded, dst);
                expectUnchanged("decodeInto", new Buffers.Variant<>("the encoded input", encoded), input);
                expectWritten("decodeInto into " + w.name(), x, w.value(), dst);
            }
            for (int size : n > 0 ? new int[] {n - 1, n + 1} : new int[] {n + 1}) {
                String call = "decodeInto a destination of " + size + " bytes (decoded size " + n + ")";
                expectCorruptData(call, () -> {
                    codec(c).decodeInto(Buffers.copy(encoded), ByteBuffer.allocate(size));
                    return call + " did not throw CorruptDataException";
                });
            }
        });
    }

    /**
     * BB14: {@code encode(decoded, lender)}, with heap and direct memory lent (larger than asked,
     * full of old bytes), returns an encoding that decodes to the input; it shares no memory with
     * the input (overwriting the input afterwards leaves it unchanged), and the input is left
     * unchanged.
     *
     * <p>Spec: the SPI's {@code BytesToBytesCodec.encode(ByteBuffer, BufferLender)} (a write encodes
     * into memory it reuses).
     *
     * <p>If this fails, check: the lent buffer returned with its own limit instead of the encoded
     * length; lent memory assumed to be zeroed; native calls given a heap buffer, or a direct
     * buffer's base address where its position was meant.
     */
    @Test
    @DisplayName("BB14 encode into lent memory round-trips (SPI BytesToBytesCodec.encode with a BufferLender)")
    public void required_BB14_encodeIntoLentMemory() {
        eachCase("BB14", "encode into lent memory round-trips", c -> {
            ByteBuffer x = c.array().bytes();
            for (boolean direct : new boolean[] {false, true}) {
                String kind = direct ? "direct" : "heap";
                ByteBuffer input = Buffers.copy(x);
                Buffers.Snapshot before = Buffers.Snapshot.of(input);
                ByteBuffer result = codec(c).encode(input, Buffers.lender(direct, SENTINEL));
                expectUnchanged("encode with " + kind + " memory lent", new Buffers.Variant<>("the input", input),
                        before);
                ByteBuffer kept = Buffers.copy(result);
                String d = Buffers.difference(x, codec(c).decode(Buffers.copy(result),
                        EncodedSize.fixed(c.decodedBytes())));
                if (!d.isEmpty()) {
                    throw Failures.violation("encode with " + kind + " memory lent does not decode to x: " + d);
                }
                for (int i = input.position(); i < input.limit(); i++) {
                    input.put(i, (byte) ~input.get(i));
                }
                d = Buffers.difference(kept, result);
                if (!d.isEmpty()) {
                    throw Failures.violation("the result of encode with " + kind
                            + " memory lent changed when its input was overwritten (it shares the input's memory): " + d);
                }
            }
        });
    }

    /**
     * BB15: what {@code decodedSize(encoded)} says of an encoding holds for it: a
     * {@code Fixed} answer is exactly the decoded size, a {@code Bounded} one at least it, for
     * every form of input buffer of BB02, which it leaves unchanged.
     *
     * <p>Spec: the SPI's {@code BytesToBytesCodec.decodedSize(ByteBuffer)} (the pipeline refuses a
     * chunk whose bytes cannot decode to the size its metadata promises, before allocating for it:
     * a wrong answer makes valid chunks unreadable).
     *
     * <p>If this fails, check: the size field read at the input's position (not index 0) and in the
     * format's byte order; every frame or member counted; a bound that forgets the most the format
     * can expand; reads that move the input's position.
     */
    @Test
    @DisplayName("BB15 decodedSize of an encoding holds for it (SPI BytesToBytesCodec.decodedSize)")
    public void required_BB15_decodedSizeHolds() {
        eachCase("BB15", "decodedSize of an encoding holds for it", c -> {
            long n = c.decodedBytes();
            for (Buffers.Variant<ByteBuffer> v : Buffers.variants(encode(c))) {
                Buffers.Snapshot before = Buffers.Snapshot.of(v.value());
                EncodedSize said = codec(c).decodedSize(v.value());
                expectUnchanged("decodedSize", v, before);
                String why = Contracts.sizeViolation(said, n);
                if (!why.isEmpty()) {
                    throw Failures.violation("decodedSize of " + v.name() + " is " + said + ", but it decodes to "
                            + n + " bytes: " + why);
                }
            }
        });
    }

    /**
     * BB16 (optional, claimed by a present {@code partialDecoder(...)}): the partial decoder of a
     * value that is not stored (a {@code ByteSource} whose reads return empty) answers absent:
     * every read of the ranges of BB11 returns empty, and none throws.
     *
     * <p>Spec: the SPI's {@code ByteSource} (an absent value is an answer, not an error: the
     * pipeline reads the fill value).
     *
     * <p>If this fails, check: {@code read(...).orElseThrow()} or {@code get()} on what the input
     * returns; a header or checksum read that treats "absent" as "corrupt".
     */
    @TestFactory
    @DisplayName("BB16 a partial decoder of an absent value answers absent (SPI ByteSource, BytesToBytesCodec.partialDecoder)")
    public Stream<DynamicTest> optional_BB16_partialDecodeOfAbsentValue() {
        return ifClaimed("BB16", "a partial decoder of an absent value answers absent", "partial decode of an absent value",
                c -> partialDecoder(c, ByteSource.of(encode(c))).isPresent(), "partialDecoder(...) is empty", c -> {
                    ByteSource source = partialDecoder(c, Buffers.ABSENT).orElseThrow(() -> Failures.violation(
                            "partialDecoder(...) is empty over an absent value but present over a stored one;"
                                    + " creating it must read nothing"));
                    for (ByteRange r : ranges((int) c.decodedBytes(), 2, c.seed())) {
                        ArrayRegions.expectAbsent("read(" + r + ")", () -> source.read(r));
                    }
                });
    }

    /**
     * BB17 (optional, claimed when {@code decodePrefixInto} returns true for half of a value, from
     * and into direct buffers): for prefixes of 0, 1, a third, all but one and all of the decoded
     * bytes, from a heap and a direct encoding, into a heap window at an array offset and a direct
     * window, every call that returns true leaves exactly x's first bytes in the window, writes
     * nothing outside it, moves neither its position nor its limit, and leaves the input unchanged.
     *
     * <p>Spec: the SPI's {@code BytesToBytesCodec.decodePrefixInto} (a read that needs a chunk's
     * first bytes stops decoding there).
     *
     * <p>If this fails, check: a stream decoder that stops at a block boundary short of the
     * prefix, or writes a whole block past it; a context reused without being reset after a stop
     * part-way through a value; absolute indexes that forget the destination's position.
     */
    @TestFactory
    @DisplayName("BB17 decodePrefixInto gives the decoded value's first bytes (SPI BytesToBytesCodec.decodePrefixInto)")
    public Stream<DynamicTest> optional_BB17_decodePrefixInto() {
        return ifClaimed("BB17", "decodePrefixInto gives the decoded value's first bytes", "prefix decode",
                c -> {
                    int n = (int) c.decodedBytes();
                    return codec(c).decodePrefixInto(direct(encode(c)), ByteBuffer.allocateDirect(n / 2), n);
                }, "decodePrefixInto(...) returns false", c -> {
                    ByteBuffer x = c.array().bytes();
                    int n = x.remaining();
                    ByteBuffer heapEncoded = encode(c);
                    for (ByteBuffer encoded : List.of(heapEncoded, direct(heapEncoded))) {
                        Buffers.Snapshot input = Buffers.Snapshot.of(encoded);
                        for (int k : java.util.stream.IntStream.of(0, 1, n / 3, n - 1, n).filter(k -> k >= 0 && k <= n)
                                .distinct().toArray()) {
                            for (Buffers.Variant<ByteBuffer> w : windows(k)) {
                                ByteBuffer dst = window(w.value(), k);
                                String call = "decodePrefixInto(" + (encoded.isDirect() ? "direct" : "heap")
                                        + " encoding, " + w.name() + " of " + k + " bytes, " + n + ")";
                                if (!codec(c).decodePrefixInto(encoded, dst, n)) {
                                    continue;
                                }
                                expectUnchanged(call, new Buffers.Variant<>("the encoded input", encoded), input);
                                expectWritten(call, Buffers.prefix(x, k), w.value(), dst);
                            }
                        }
                    }
                });
    }

    /** Where a window of {@code n} bytes starts in the buffers of {@link #windows}. */
    private static final int BEFORE = 5;

    /**
     * Buffers of {@code n} bytes with {@value #BEFORE} before and 3 after, full of
     * {@link #SENTINEL}: one heap, at array offset 1, one direct.
     */
    private static List<Buffers.Variant<ByteBuffer>> windows(int n) {
        int total = 1 + BEFORE + n + 3;
        List<Buffers.Variant<ByteBuffer>> windows = List.of(
                new Buffers.Variant<>("a heap window at array offset 1", ByteBuffer.wrap(new byte[total]).slice(1, total - 1)),
                new Buffers.Variant<>("a direct window", ByteBuffer.allocateDirect(total - 1)));
        for (Buffers.Variant<ByteBuffer> w : windows) {
            for (int i = 0; i < w.value().capacity(); i++) {
                w.value().put(i, SENTINEL);
            }
        }
        return windows;
    }

    /** The window of {@code n} bytes of a buffer of {@link #windows}. */
    private static ByteBuffer window(ByteBuffer whole, int n) {
        return whole.duplicate().position(BEFORE).limit(BEFORE + n);
    }

    /**
     * Throws unless {@code call} wrote exactly {@code expected} into the window {@code dst} of
     * {@code whole}, left the window's position and limit, and wrote nothing around it.
     */
    private static void expectWritten(String call, ByteBuffer expected, ByteBuffer whole, ByteBuffer dst) {
        int n = expected.remaining();
        if (dst.position() != BEFORE || dst.limit() != BEFORE + n) {
            throw Failures.violation(call + " moved its position/limit from " + BEFORE + "/" + (BEFORE + n) + " to "
                    + dst.position() + "/" + dst.limit());
        }
        String d = Buffers.difference(expected, window(whole, n));
        if (!d.isEmpty()) {
            throw Failures.violation(call + " did not write the expected " + n + " bytes: " + d);
        }
        for (int i = 0; i < whole.capacity(); i++) {
            if ((i < BEFORE || i >= BEFORE + n) && whole.get(i) != SENTINEL) {
                throw Failures.violation(call + " of " + n + " bytes at " + BEFORE + " wrote byte " + i
                        + ", outside the destination's position to limit");
            }
        }
    }

    private static ByteBuffer direct(ByteBuffer b) {
        return ByteBuffer.allocateDirect(b.remaining()).put(b.duplicate()).flip();
    }

    private static final byte SENTINEL = (byte) 0xA5;
}
