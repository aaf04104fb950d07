package dev.zarrj.core.internal.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.Region;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayPartialEncoder;
import dev.zarrj.api.codec.ArrayRegionEncoder;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.BufferLender;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.core.internal.codec.bytes.BytesCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The codec pipeline of core.rst: array→array codecs, then the array→bytes codec, then
 * bytes→bytes codecs on encode, and the reverse on decode, with each codec's decoded
 * representation computed from the previous one's encoded representation.
 *
 * <p>Each capability of the chain is what its codecs allow together: partial decoding when every
 * codec has a partial decoder (array→array ones included), region and partial encoding when the
 * array→bytes codec has them and no other codec stands in the way. Codecs skipped because of
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
    public void checkSupported(ChunkSpec decoded) {
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
    public ByteBuffer encode(NdArray chunk, ChunkSpec decoded, BufferLender lender) {
        ChunkSpec[] specs = specs(decoded);
        return encodeBytes(arrayToBytes.encode(encodeArrays(chunk, specs), specs[specs.length - 1], lender), lender);
    }

    /** The chunk through the array→array codecs, {@code specs[i]} being what codec {@code i} receives. */
    private NdArray encodeArrays(NdArray chunk, ChunkSpec[] specs) {
        NdArray a = chunk;
        for (int i = 0; i < arrayToArray.size(); i++) {
            a = arrayToArray.get(i).encode(a, specs[i]);
        }
        return a;
    }

    /** Present when there are no array→array codecs to run first and the array→bytes codec gathers regions. */
    @Override
    public Optional<ArrayRegionEncoder> regionEncoder(ChunkSpec decoded) {
        if (!arrayToArray.isEmpty()) {
            return Optional.empty();
        }
        return arrayToBytes.regionEncoder(decoded)
                .map(inner -> (source, region, lender) -> encodeBytes(inner.encode(source, region, lender), lender));
    }

    private ByteBuffer encodeBytes(ByteBuffer b, BufferLender lender) {
        for (BytesToBytesCodec c : bytesToBytes) {
            b = c.encode(b, lender);
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
     * destination, straight into the destination's memory. Into the reused buffer, a region that
     * ends before the chunk does is decoded only up to its last element where the codec can stop
     * early ({@link BytesToBytesCodec#decodePrefixInto}).
     */
    @Override
    public void decodeInto(ByteBuffer encoded, ChunkSpec decoded, Region region, NdArray destination,
                           long[] destinationOffset) {
        if (!arrayToArray.isEmpty()) {
            CodecChain.super.decodeInto(encoded, decoded, region, destination, destinationOffset);
            return;
        }
        if (bytesToBytes.isEmpty()) {
            arrayToBytes.decodeInto(encoded, decoded, region, destination, destinationOffset);
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
            arrayToBytes.decodeInto(first.decode(b, sizes[0]), decoded, region, destination, destinationOffset);
            return;
        }
        int size = (int) fixed.bytes();
        ByteBuffer target = directTarget(decoded, region, destination, destinationOffset, size);
        if (target != null) {
            checkClaimedSize(first, b, sizes[0]);
            first.decodeInto(b, target);
            return;
        }
        ByteBuffer encodedFirst = b;
        // Reused scratch memory costs no check; new memory is not allocated for bytes that cannot fill it.
        ByteBuffer scratch = ChunkBuffers.take(size, () -> checkClaimedSize(first, encodedFirst, sizes[0]));
        try {
            int prefix = neededPrefix(decoded, region, size);
            if (prefix >= size || !first.decodePrefixInto(b, scratch.slice(0, prefix), size)) {
                first.decodeInto(b, scratch);
            }
            arrayToBytes.decodeInto(scratch, decoded, region, destination, destinationOffset);
        } finally {
            ChunkBuffers.give(scratch);
        }
    }

    /**
     * How many of the decoded chunk's first bytes hold {@code region}: up to its last element when
     * the chunk is stored as its elements lie in memory (C order), else all {@code size}.
     */
    private int neededPrefix(ChunkSpec decoded, Region region, int size) {
        if (region.isEmpty() || !arrayToBytes.encodesAsInMemory(decoded)) {
            return size;
        }
        long[] shape = decoded.shape();
        long last = 0;
        for (int d = 0; d < shape.length; d++) {
            last = last * shape[d] + region.offset(d) + region.shape(d) - 1;
        }
        return (int) Math.min(size, (last + 1) * decoded.dataType().size());
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
     * The destination's bytes where the whole chunk goes, when the array→bytes codec stores the
     * elements as they lie in memory and those bytes are one contiguous run; else null.
     */
    private ByteBuffer directTarget(ChunkSpec decoded, Region region, NdArray destination, long[] destinationOffset,
                                    int size) {
        if (destination.holdsObjects() || destination.dataType().size() != decoded.dataType().size()
                || destination.rank() != region.rank()
                || !region.isWhole(decoded.shape()) || !arrayToBytes.encodesAsInMemory(decoded)) {
            return null;
        }
        long start = ContiguousRegion.start(destination.shape(), destinationOffset, region.shape());
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

    /**
     * Whether {@link #decodeInto} of a whole chunk into a contiguous native-order array writes
     * the decoded bytes straight into that array: the elements are stored as they lie in memory
     * behind one or more bytes→bytes codecs, with no array→array codec.
     */
    public boolean decompressesInPlace(ChunkSpec decoded) {
        return arrayToArray.isEmpty() && !bytesToBytes.isEmpty() && arrayToBytes.encodesAsInMemory(decoded);
    }

    /**
     * Whether {@link #decodeInto} only copies the stored bytes, in Java: zarrj's own {@code bytes}
     * codec alone, in native order. Only then may the stored bytes lie in memory that can fault
     * (a mapped file another process truncates): the JDK reports a fault in a copy as an
     * {@link InternalError}, where native code (a decompressor, another plugin's codec) would
     * end the process.
     */
    public boolean decodesByCopying(ChunkSpec decoded) {
        return encodesAsInMemory(decoded) && arrayToBytes instanceof BytesCodec;
    }

    /** True when the chain is the array→bytes codec alone and it says so. */
    @Override
    public boolean encodesAsInMemory(ChunkSpec decoded) {
        return arrayToArray.isEmpty() && bytesToBytes.isEmpty() && arrayToBytes.encodesAsInMemory(decoded);
    }

    /** Present when the chain is the array→bytes codec alone and it has one. */
    @Override
    public Optional<ArrayPartialEncoder> partialEncoder(ChunkSpec decoded) {
        if (!arrayToArray.isEmpty() || !bytesToBytes.isEmpty()) {
            return Optional.empty();
        }
        return arrayToBytes.partialEncoder(decoded);
    }

    /**
     * Present when every codec has a partial decoder: the bytes→bytes codecs' sources stacked from
     * the stored value up, the array→bytes codec's decoder over them, and each array→array codec's
     * decoder over the one after it.
     */
    @Override
    public Optional<ArrayPartialDecoder> partialDecoder(ByteSource input, ChunkSpec decoded) {
        ChunkSpec[] specs = specs(decoded);
        EncodedSize[] sizes = sizes(specs[specs.length - 1]);
        ByteSource source = input;
        for (int i = bytesToBytes.size() - 1; i >= 0; i--) {
            Optional<ByteSource> s = bytesToBytes.get(i).partialDecoder(source, sizes[i]);
            if (s.isEmpty()) {
                return Optional.empty();
            }
            source = s.get();
        }
        Optional<ArrayPartialDecoder> d = arrayToBytes.partialDecoder(source, specs[specs.length - 1]);
        for (int i = arrayToArray.size() - 1; i >= 0 && d.isPresent(); i--) {
            d = arrayToArray.get(i).partialDecoder(d.get(), specs[i]);
        }
        return d;
    }
}
