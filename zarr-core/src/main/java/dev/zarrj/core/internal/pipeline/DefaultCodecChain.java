package dev.zarrj.core.internal.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.core.internal.codec.bytes.BytesCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The codec pipeline of core.rst: array→array codecs, then the array→bytes codec, then
 * bytes→bytes codecs on encode, and the reverse on decode, with each codec's decoded
 * representation computed from the previous one's encoded representation.
 *
 * <p>Partial decoding passes through when there are no array→array codecs and every bytes→bytes
 * codec supports it; otherwise it falls back to a full decode. Codecs skipped because of
 * {@code "must_understand": false} are kept in {@link #toJson()} and left out of the pipeline.
 */
public final class DefaultCodecChain implements CodecChain {
    /**
     * Decoded sizes from which the pipeline asks the stored bytes before allocating for them:
     * below, a needless allocation costs little, and asking would cost up to 2 % of decoding a
     * small, very compressible chunk.
     */
    static final long CHECK_CLAIMS_FROM = 1 << 20;

    private final List<Codec> codecs;
    private final List<ArrayToArrayCodec> arrayToArray = new ArrayList<>();
    private final ArrayToBytesCodec arrayToBytes;
    private final List<BytesToBytesCodec> bytesToBytes = new ArrayList<>();
    private final JsonNode json;
    private final List<String> skipped;

    /**
     * @param codecs   the understood codecs, in order
     * @param pointers the JSON pointer of each, for messages
     * @param json     the metadata array, including skipped codecs
     * @param skipped  names of codecs skipped because of {@code "must_understand": false}
     * @param pointer  the JSON pointer of the array
     * @throws InvalidMetadataException when the kinds are not array→array*, one array→bytes, bytes→bytes*
     */
    public DefaultCodecChain(List<Codec> codecs, List<String> pointers, JsonNode json, List<String> skipped,
                             String pointer) {
        this.codecs = List.copyOf(codecs);
        this.json = json;
        this.skipped = List.copyOf(skipped);
        ArrayToBytesCodec a2b = null;
        String a2bPointer = null;
        for (int i = 0; i < codecs.size(); i++) {
            Codec c = codecs.get(i);
            String p = pointers.get(i);
            if (c instanceof ArrayToArrayCodec a) {
                if (a2b != null) {
                    throw new InvalidMetadataException(p, "the array→array codec '" + c.name()
                            + "' comes after the array→bytes codec '" + a2b.name() + "' at " + a2bPointer
                            + "; codecs must be array→array*, exactly one array→bytes, bytes→bytes*");
                }
                arrayToArray.add(a);
            } else if (c instanceof ArrayToBytesCodec a) {
                if (a2b != null) {
                    throw new InvalidMetadataException(p, "a second array→bytes codec '" + c.name() + "' (the first is '"
                            + a2b.name() + "' at " + a2bPointer + "); codecs must have exactly one array→bytes codec");
                }
                a2b = a;
                a2bPointer = p;
            } else {
                BytesToBytesCodec b = (BytesToBytesCodec) c;
                if (a2b == null) {
                    throw new InvalidMetadataException(p, "the bytes→bytes codec '" + c.name()
                            + "' comes before any array→bytes codec; codecs must be array→array*, exactly one "
                            + "array→bytes (for example \"bytes\"), bytes→bytes*");
                }
                bytesToBytes.add(b);
            }
        }
        if (a2b == null) {
            throw new InvalidMetadataException(pointer, "codecs has no array→bytes codec; exactly one is required "
                    + "(for example {\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}})");
        }
        this.arrayToBytes = a2b;
    }

    @Override
    public List<Codec> codecs() {
        return codecs;
    }

    /** Names of codecs that were skipped because of {@code "must_understand": false}. */
    public List<String> skipped() {
        return skipped;
    }

    /** The array→bytes codec. */
    public ArrayToBytesCodec arrayToBytes() {
        return arrayToBytes;
    }

    @Override
    public JsonNode toJson() {
        return json.deepCopy();
    }

    /** The decoded representation each array→array codec sees, followed by the array→bytes codec's. */
    private ChunkSpec[] specs(ChunkSpec decoded) {
        ChunkSpec[] specs = new ChunkSpec[arrayToArray.size() + 1];
        specs[0] = decoded;
        for (int i = 0; i < arrayToArray.size(); i++) {
            specs[i + 1] = arrayToArray.get(i).encodedSpec(specs[i]);
        }
        return specs;
    }

    /** The decoded size each bytes→bytes codec sees. */
    private EncodedSize[] sizes(ChunkSpec arrayToBytesSpec) {
        EncodedSize[] sizes = new EncodedSize[bytesToBytes.size() + 1];
        sizes[0] = arrayToBytes.encodedSize(arrayToBytesSpec);
        for (int i = 0; i < bytesToBytes.size(); i++) {
            sizes[i + 1] = bytesToBytes.get(i).encodedSize(sizes[i]);
        }
        return sizes;
    }

    @Override
    public void validate(ChunkSpec decoded) {
        ChunkSpec[] specs = specs(decoded);
        arrayToBytes.checkSupported(specs[specs.length - 1]);
        sizes(specs[specs.length - 1]);
    }

    @Override
    public EncodedSize encodedSize(ChunkSpec decoded) {
        ChunkSpec[] specs = specs(decoded);
        EncodedSize[] sizes = sizes(specs[specs.length - 1]);
        return sizes[sizes.length - 1];
    }

    @Override
    public ByteBuffer encode(NdArray chunk, ChunkSpec decoded) {
        ChunkSpec[] specs = specs(decoded);
        ByteBuffer b = arrayToBytes.encode(encodeArrays(chunk, specs), specs[specs.length - 1]);
        for (BytesToBytesCodec c : bytesToBytes) {
            b = c.encode(b);
        }
        return b;
    }

    @Override
    public ByteBuffer encode(NdArray chunk, ChunkSpec decoded, IntFunction<ByteBuffer> allocate) {
        ChunkSpec[] specs = specs(decoded);
        ChunkSpec last = specs[specs.length - 1];
        NdArray a = encodeArrays(chunk, specs);
        return encodeBytes(arrayToBytes.encodeRegion(a, new long[last.rank()], last, allocate), allocate);
    }

    /** The chunk through the array→array codecs, {@code specs[i]} being what codec {@code i} receives. */
    private NdArray encodeArrays(NdArray chunk, ChunkSpec[] specs) {
        NdArray a = chunk;
        for (int i = 0; i < arrayToArray.size(); i++) {
            a = arrayToArray.get(i).encode(a, specs[i]);
        }
        return a;
    }

    /** Whether {@link #encodeRegion} encodes straight out of a larger array (no array→array codecs to run first). */
    public boolean supportsRegionEncode() {
        return arrayToArray.isEmpty() && arrayToBytes.supportsRegionEncode();
    }

    /**
     * {@link #encode(NdArray, ChunkSpec, IntFunction)} of the region of {@code source} at
     * {@code sourceOffset}, without copying the region first when {@link #supportsRegionEncode}.
     */
    public ByteBuffer encodeRegion(NdArray source, long[] sourceOffset, ChunkSpec decoded,
                                   IntFunction<ByteBuffer> allocate) {
        if (!supportsRegionEncode()) {
            return encode(source.region(sourceOffset, decoded.shape()), decoded, allocate);
        }
        return encodeBytes(arrayToBytes.encodeRegion(source, sourceOffset, decoded, allocate), allocate);
    }

    private ByteBuffer encodeBytes(ByteBuffer b, IntFunction<ByteBuffer> allocate) {
        for (BytesToBytesCodec c : bytesToBytes) {
            b = c.encode(b, allocate);
        }
        return b;
    }

    @Override
    public NdArray decode(ByteBuffer encoded, ChunkSpec decoded) {
        ChunkSpec[] specs = specs(decoded);
        EncodedSize[] sizes = sizes(specs[specs.length - 1]);
        ByteBuffer b = encoded;
        for (int i = bytesToBytes.size() - 1; i >= 0; i--) {
            checkClaimedSize(bytesToBytes.get(i), b, sizes[i]);
            b = bytesToBytes.get(i).decode(b, sizes[i]);
        }
        NdArray a = arrayToBytes.decode(b, specs[specs.length - 1]);
        for (int i = arrayToArray.size() - 1; i >= 0; i--) {
            a = arrayToArray.get(i).decode(a, specs[i]);
        }
        return a;
    }

    /**
     * Decodes through the bytes→bytes codecs, then lets the array→bytes codec copy the region
     * out. The first bytes→bytes codec (the one that produces the array→bytes codec's input, a
     * size known in advance) decodes into a reused buffer ({@link ChunkBuffers}), or, when the
     * chunk is stored as plain native-order elements and lands whole in one contiguous run of the
     * destination, straight into the destination's memory.
     */
    @Override
    public void decodeInto(ByteBuffer encoded, ChunkSpec decoded, long[] chunkOffset, NdArray destination,
                           long[] destinationOffset, long[] region) {
        if (!arrayToArray.isEmpty()) {
            CodecChain.super.decodeInto(encoded, decoded, chunkOffset, destination, destinationOffset, region);
            return;
        }
        if (bytesToBytes.isEmpty()) {
            arrayToBytes.decodeInto(encoded, decoded, chunkOffset, destination, destinationOffset, region);
            return;
        }
        EncodedSize[] sizes = sizes(decoded);
        ByteBuffer b = encoded;
        for (int i = bytesToBytes.size() - 1; i >= 1; i--) {
            checkClaimedSize(bytesToBytes.get(i), b, sizes[i]);
            b = bytesToBytes.get(i).decode(b, sizes[i]);
        }
        BytesToBytesCodec first = bytesToBytes.get(0);
        if (!(sizes[0] instanceof EncodedSize.Fixed fixed) || fixed.bytes() > Integer.MAX_VALUE - 16) {
            checkClaimedSize(first, b, sizes[0]);
            arrayToBytes.decodeInto(first.decode(b, sizes[0]), decoded, chunkOffset, destination, destinationOffset,
                    region);
            return;
        }
        int size = (int) fixed.bytes();
        ByteBuffer target = directTarget(decoded, chunkOffset, destination, destinationOffset, region, size);
        if (target != null) {
            first.decodeInto(b, target);
            return;
        }
        ByteBuffer encodedFirst = b;
        // Reused scratch memory costs no check; new memory is not allocated for bytes that cannot fill it.
        ByteBuffer scratch = ChunkBuffers.take(size, () -> checkClaimedSize(first, encodedFirst, sizes[0]));
        try {
            first.decodeInto(b, scratch);
            arrayToBytes.decodeInto(scratch, decoded, chunkOffset, destination, destinationOffset, region);
        } finally {
            ChunkBuffers.give(scratch);
        }
    }

    /**
     * Fails unless what {@code encoded} says of its decoded size
     * ({@link BytesToBytesCodec#decodedSize(ByteBuffer)}) allows {@code expected}: asked before
     * memory is allocated for the decoded bytes, so that metadata promising a large chunk over a
     * few stored bytes costs no allocation. Below {@link #CHECK_CLAIMS_FROM} bytes an allocation
     * costs less than asking, and the codec checks the size as it decodes anyway.
     *
     * @throws CorruptDataException naming the codec and both sizes
     */
    static void checkClaimedSize(BytesToBytesCodec codec, ByteBuffer encoded, EncodedSize expected) {
        if (expected.max() < CHECK_CLAIMS_FROM) {
            return;
        }
        EncodedSize said = codec.decodedSize(encoded);
        if (said instanceof EncodedSize.Fixed f) {
            if (expected instanceof EncodedSize.Fixed e ? f.bytes() != e.bytes() : f.bytes() > expected.max()) {
                throw new CorruptDataException(codec.name() + ": the " + encoded.remaining() + " encoded bytes say they"
                        + " decode to " + f.bytes() + " bytes, but " + describe(expected) + "; nothing was decoded");
            }
        } else if (said instanceof EncodedSize.Bounded bound && expected instanceof EncodedSize.Fixed e
                && bound.maxBytes() < e.bytes()) {
            throw new CorruptDataException(codec.name() + ": the " + encoded.remaining() + " encoded bytes can decode"
                    + " to at most " + bound.maxBytes() + " bytes, but " + describe(expected)
                    + "; nothing was decoded");
        }
    }

    private static String describe(EncodedSize expected) {
        return expected instanceof EncodedSize.Fixed e ? "the array's metadata makes them " + e.bytes() + " bytes"
                : "at most " + expected.max() + " bytes are allowed";
    }

    /**
     * The destination's bytes where the whole chunk goes, when the array→bytes codec stores
     * native-order elements as they are and those bytes are one contiguous run; else null.
     */
    private ByteBuffer directTarget(ChunkSpec decoded, long[] chunkOffset, NdArray destination,
                                    long[] destinationOffset, long[] region, int size) {
        if (!(arrayToBytes instanceof BytesCodec bytes) || bytes.swaps(decoded.dataType())
                || destination.dataType().size() != decoded.dataType().size()
                || destination.rank() != region.length || !Arrays.equals(region, decoded.shape())) {
            return null;
        }
        for (long o : chunkOffset) {
            if (o != 0) {
                return null;
            }
        }
        long start = ContiguousRegion.start(destination.shape(), destinationOffset, region);
        if (start < 0) {
            return null;
        }
        long at = start * decoded.dataType().size();
        ByteBuffer all = destination.bytes();
        if (at < 0 || at + size > all.limit()) {
            return null;
        }
        return all.slice((int) at, size);
    }

    /**
     * Whether decoding transforms the stored bytes through a bytes→bytes codec (compression, a
     * checksum), so that the decoded chunk is normally new memory rather than a view of them.
     */
    public boolean hasBytesToBytes() {
        return !bytesToBytes.isEmpty();
    }

    /** Whether a partial write can go through {@link ArrayToBytesCodec#encodePartial} alone. */
    public boolean supportsPartialEncode() {
        return arrayToArray.isEmpty() && bytesToBytes.isEmpty() && arrayToBytes.supportsPartialEncode();
    }

    /** Whether {@link #partialDecoder} reads less than the whole value. */
    public boolean supportsPartialDecode() {
        if (!arrayToArray.isEmpty() || !arrayToBytes.supportsPartialDecode()) {
            return false;
        }
        for (BytesToBytesCodec c : bytesToBytes) {
            if (!c.supportsPartialDecode()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public ArrayPartialDecoder partialDecoder(ByteSource input, ChunkSpec decoded) {
        if (!supportsPartialDecode()) {
            return ArrayPartialDecoder.fullDecode(input, decoded, this::decode);
        }
        EncodedSize[] sizes = sizes(decoded);
        ByteSource source = input;
        for (int i = bytesToBytes.size() - 1; i >= 0; i--) {
            source = bytesToBytes.get(i).partialDecoder(source, sizes[i]);
        }
        return arrayToBytes.partialDecoder(source, decoded);
    }
}
