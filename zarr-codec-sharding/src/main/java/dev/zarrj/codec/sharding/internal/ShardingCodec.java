package dev.zarrj.codec.sharding.internal;

import dev.zarrj.api.Region;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChecksumMismatchException;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.CorruptDataException;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.TaskRunner;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.BytesToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.codec.sharding.IndexLocation;
import dev.zarrj.codec.sharding.ShardingConfiguration;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The {@code sharding_indexed} array→bytes codec: a chunk (the shard) is split into inner chunks,
 * each encoded on its own with the inner codecs, stored one after another in one value together
 * with an index of where each one is.
 *
 * <p>Specification: <a href="https://zarr-specs.readthedocs.io/en/latest/v3/codecs/sharding-indexed/">
 * codecs/sharding-indexed</a>. Names accepted: {@code sharding_indexed}; no aliases.
 *
 * <p>Configuration example ({@code chunk_shape}, {@code codecs} and {@code index_codecs} are
 * required; {@code index_location} defaults to {@code "end"} and is always written back):
 *
 * <pre>{@code
 * {"name": "sharding_indexed", "configuration": {
 *     "chunk_shape": [32, 32],
 *     "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "gzip", "configuration": {"level": 1}}],
 *     "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
 *     "index_location": "end"}}
 * }</pre>
 *
 * <p>Layout written: the index first or last as configured, inner chunks in C order without gaps,
 * inner chunks that hold only the fill value left out (index entry 2^64 − 1 twice). Any layout the
 * spec allows is read, in any order, with gaps; entries are bounds-checked and overlaps refused.
 *
 * <p>Partial decoding: supported. A region costs one ranged request for the index (a suffix range
 * for {@code "end"}), then one {@link ByteSource#readAll} of the inner chunks it touches, with
 * ranges closer than {@value ShardPartialDecoder#MAX_GAP} bytes merged, so a single inner chunk or
 * a run of neighbouring ones costs two requests. An inner chunk that is itself a shard and is
 * touched in part is read partially through {@link ByteSource#slice}. Partial encoding: supported
 * ({@link #encodePartial} re-encodes only the inner chunks a region touches and copies the others'
 * bytes). Inner chunks are decoded and encoded in parallel on the {@link ProviderContext#tasks()}
 * of the zarrj instance that created the codec, within its thread budget.
 *
 * <p>Encoded size: bounded when the inner codecs' size is known (all inner chunks present plus the
 * index), otherwise unknown. Immutable and thread-safe.
 */
public final class ShardingCodec implements ArrayToBytesCodec {
    /** The registered name. */
    public static final String NAME = ShardingConfiguration.NAME;

    private final long[] innerShape;
    private final CodecChain codecs;
    private final CodecChain indexCodecs;
    private final IndexLocation indexLocation;
    private final boolean locationGiven;
    private final String pointer;
    private final ProviderContext context;

    /**
     * @param innerShape    the inner chunk shape
     * @param codecs        the inner chunks' codecs
     * @param indexCodecs   the index's codecs
     * @param indexLocation where the index is stored
     * @param locationGiven whether the metadata gave {@code index_location} (it is recorded in new
     *                      metadata by {@link #resolveDefaults} when not)
     * @param pointer       the JSON pointer of the configuration object, for messages
     * @param context       where chains come from when defaults are resolved, and where inner
     *                      chunks run in parallel
     */
    ShardingCodec(long[] innerShape, CodecChain codecs, CodecChain indexCodecs, IndexLocation indexLocation,
                  boolean locationGiven, String pointer, ProviderContext context) {
        this.innerShape = innerShape.clone();
        this.codecs = Objects.requireNonNull(codecs, "codecs");
        this.indexCodecs = Objects.requireNonNull(indexCodecs, "indexCodecs");
        this.indexLocation = Objects.requireNonNull(indexLocation, "indexLocation");
        this.locationGiven = locationGiven;
        this.pointer = pointer;
        this.context = Objects.requireNonNull(context, "context");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode configuration() {
        return shardingConfiguration().configurationJson();
    }

    /** The typed configuration. */
    public ShardingConfiguration shardingConfiguration() {
        return new ShardingConfiguration(innerShape, codecs.toJson(), indexCodecs.toJson(), indexLocation);
    }

    long[] innerChunkShape() {
        return innerShape.clone();
    }

    CodecChain innerCodecs() {
        return codecs;
    }

    CodecChain indexCodecs() {
        return indexCodecs;
    }

    IndexLocation indexLocation() {
        return indexLocation;
    }

    /** The JSON pointer of one field of the configuration. */
    String pointer(String field) {
        return pointer + "/" + field;
    }

    /** The shard's layout; see {@link ShardLayout#of}. */
    ShardLayout layout(ChunkSpec shard) {
        return ShardLayout.of(this, shard);
    }

    /**
     * Checks the inner chunk shape against the shard shape, both chains against the
     * representations they will see, and that the index has a fixed encoded size.
     */
    @Override
    public void checkSupported(ChunkSpec decoded) {
        ShardLayout layout = layout(decoded);
        codecs.validate(layout.innerSpec());
        indexCodecs.validate(layout.indexSpec());
    }

    /**
     * Records {@code index_location} when the metadata left it out, and resolves the defaults of the
     * inner and index codecs (for example {@code bytes}' endian).
     */
    @Override
    public Codec resolveDefaults(ChunkSpec decoded) {
        ShardLayout layout;
        try {
            layout = layout(decoded);
        } catch (ZarrException e) {
            return this;
        }
        Optional<JsonNode> inner = resolvedJson(codecs, layout.innerSpec());
        Optional<JsonNode> index = resolvedJson(indexCodecs, layout.indexSpec());
        if (inner.isEmpty() && index.isEmpty() && locationGiven) {
            return this;
        }
        return new ShardingCodec(innerShape,
                inner.isPresent() ? context.codecChain(inner.get(), pointer("codecs")) : codecs,
                index.isPresent() ? context.codecChain(index.get(), pointer("index_codecs")) : indexCodecs,
                indexLocation, true, pointer, context);
    }

    /** The chain's JSON with each codec's defaults resolved, or empty when nothing changes. */
    private static Optional<JsonNode> resolvedJson(CodecChain chain, ChunkSpec spec) {
        JsonNode json = chain.toJson();
        if (json.size() != chain.codecs().size()) {
            return Optional.empty(); // codecs skipped as not understood: positions do not line up
        }
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        boolean changed = false;
        ChunkSpec s = spec;
        for (int i = 0; i < json.size(); i++) {
            Codec c = chain.codecs().get(i);
            Codec r = c.resolveDefaults(s);
            if (r != c) {
                changed = true;
                out.add(r.toJson());
            } else {
                out.add(json.get(i));
            }
            if (c instanceof ArrayToArrayCodec a) {
                s = a.encodedSpec(s);
            }
        }
        return changed ? Optional.of(out) : Optional.empty();
    }

    /**
     * At most every inner chunk at its largest plus the index when the inner size is known; empty
     * inner chunks are left out, so it is never fixed.
     */
    @Override
    public EncodedSize encodedSize(ChunkSpec decoded) {
        ShardLayout layout = layout(decoded);
        EncodedSize inner = codecs.encodedSize(layout.innerSpec());
        if (inner instanceof EncodedSize.Unbounded) {
            return EncodedSize.unbounded();
        }
        try {
            return EncodedSize.bounded(Math.addExact(Math.multiplyExact(inner.max(), (long) layout.count()),
                    layout.indexSize()));
        } catch (ArithmeticException e) {
            return EncodedSize.unbounded();
        }
    }

    @Override
    public ByteBuffer encode(NdArray array, ChunkSpec decoded) {
        ShardLayout layout = layout(decoded);
        if (!Arrays.equals(array.shape(), layout.shardShape())) {
            throw new IllegalArgumentException(NAME + ": an array of shape " + Arrays.toString(array.shape())
                    + " does not match " + decoded);
        }
        return ShardWriter.encode(this, layout, array, new long[layout.rank()], null);
    }

    /**
     * Gathers each inner chunk straight from {@code source}, so the shard is never copied whole,
     * into memory from {@code allocate}, where the inner chunks and the shard are also encoded.
     */
    @Override
    public boolean supportsRegionEncode() {
        return true;
    }

    @Override
    public ByteBuffer encodeRegion(NdArray source, long[] sourceOffset, ChunkSpec decoded,
                                   IntFunction<ByteBuffer> allocate) {
        ShardLayout layout = layout(decoded);
        long[] shape = layout.shardShape();
        boolean inside = source.rank() == shape.length && sourceOffset.length == shape.length
                && source.dataType().size() == decoded.dataType().size();
        for (int d = 0; inside && d < shape.length; d++) {
            inside = sourceOffset[d] >= 0 && sourceOffset[d] <= source.shape(d) - shape[d];
        }
        if (!inside) {
            throw new IllegalArgumentException(NAME + ": the shard " + decoded + " at " + Arrays.toString(sourceOffset)
                    + " does not lie inside " + source);
        }
        return ShardWriter.encode(this, layout, source, sourceOffset, Objects.requireNonNull(allocate, "allocate"));
    }

    /** Decodes a whole shard: its index, then every present inner chunk in parallel. */
    @Override
    public NdArray decode(ByteBuffer encoded, ChunkSpec decoded) {
        ShardLayout layout = layout(decoded);
        ByteBuffer shard = encoded.slice();
        ShardIndex index = readIndex(shard, layout);
        NdArray out = NdArray.filled(decoded.dataType(), decoded.fillValue(), layout.shardShape());
        int[] present = present(index);
        long[] zero = new long[layout.rank()];
        long[] inner = layout.innerShape();
        tasks().forEach(present.length, k -> {
            int i = present[k];
            decodeInnerInto(innerBytes(shard, index, i), layout, index, i, zero, out, layout.origin(i), inner);
        });
        return out;
    }

    /**
     * Decodes each inner chunk the region touches straight into the destination, in parallel;
     * the parts of absent inner chunks get the fill value.
     */
    @Override
    public void decodeInto(ByteBuffer encoded, ChunkSpec decoded, long[] chunkOffset, NdArray destination,
                           long[] destinationOffset, long[] region) {
        ShardLayout layout = layout(decoded);
        layout.checkRegion(chunkOffset, region);
        ByteBuffer shard = encoded.slice();
        ShardIndex index = readIndex(shard, layout);
        int[] touched = layout.touched(chunkOffset, region);
        tasks().forEach(touched.length, k -> {
            int i = touched[k];
            long[][] o = layout.overlap(i, chunkOffset, region);
            long[] at = o[1];
            for (int d = 0; d < at.length; d++) {
                at[d] += destinationOffset[d];
            }
            if (index.isEmpty(i)) {
                destination.fill(decoded.fillValue(), Region.of(at, o[2]));
            } else {
                decodeInnerInto(innerBytes(shard, index, i), layout, index, i, o[0], destination, at, o[2]);
            }
        });
    }

    @Override
    public boolean supportsPartialDecode() {
        return true;
    }

    @Override
    public ArrayPartialDecoder partialDecoder(ByteSource input, ChunkSpec decoded) {
        return new ShardPartialDecoder(this, layout(decoded), input);
    }

    @Override
    public boolean supportsPartialEncode() {
        return true;
    }

    @Override
    public Optional<ByteBuffer> encodePartial(Optional<ByteBuffer> existing, NdArray region, long[] offset,
                                              ChunkSpec decoded) {
        return ShardWriter.encodePartial(this, layout(decoded), existing, region, offset);
    }

    // ---- shared by the reader and the writer ----

    /**
     * Reads and checks the index of a whole shard held in memory (position 0 to limit).
     *
     * @throws CorruptDataException when the shard is shorter than its index, the index cannot be
     *                              decoded, or an entry is invalid
     */
    ShardIndex readIndex(ByteBuffer shard, ShardLayout layout) {
        long size = shard.remaining();
        long indexSize = layout.indexSize();
        if (size < indexSize) {
            throw new CorruptDataException("the shard is shorter than its " + indexSize + "-byte index (" + size
                    + " bytes; truncated shard)");
        }
        int at = (int) (layout.location() == IndexLocation.START ? 0 : size - indexSize);
        ShardIndex index = ShardIndex.decode(shard.slice(at, (int) indexSize), layout, indexCodecs);
        index.checkAll(layout, layout.dataStart(), layout.dataEnd(size));
        return index;
    }

    /** The inner chunks that are present, in C order. */
    static int[] present(ShardIndex index) {
        int n = 0;
        int[] out = new int[index.count()];
        for (int i = 0; i < out.length; i++) {
            if (!index.isEmpty(i)) {
                out[n++] = i;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** The encoded bytes of a present inner chunk whose entry has been checked against the shard. */
    static ByteBuffer innerBytes(ByteBuffer shard, ShardIndex index, int i) {
        return shard.slice((int) index.offset(i), (int) index.nbytes(i));
    }

    /** Where the inner chunks of one shard run in parallel. */
    TaskRunner tasks() {
        return context.tasks();
    }

    /** Whether an inner chunk is itself read in part when a region covers only part of it. */
    boolean innerReadsPartially() {
        for (Codec c : codecs.codecs()) {
            boolean partial = c instanceof ShardingCodec
                    || c instanceof BytesToBytesCodec b && b.supportsPartialDecode();
            if (!partial) {
                return false;
            }
        }
        return true;
    }

    /**
     * Decodes one inner chunk.
     *
     * @throws CorruptDataException naming the inner chunk and where it lies in the shard
     */
    NdArray decodeInner(ByteBuffer bytes, ShardLayout layout, ShardIndex index, int i) {
        NdArray chunk;
        try {
            chunk = codecs.decode(bytes, layout.innerSpec());
        } catch (CorruptDataException | IllegalArgumentException | IndexOutOfBoundsException | ArithmeticException e) {
            throw inInnerChunk(layout, index, i, e);
        }
        if (!Arrays.equals(chunk.shape(), layout.innerShape())
                || chunk.dataType().size() != layout.innerSpec().dataType().size()) {
            throw new CorruptDataException(where(layout, index, i) + ": decoded " + chunk + ", expected "
                    + layout.innerSpec());
        }
        return chunk;
    }

    /**
     * Decodes the part {@code [inChunk, inChunk + extent)} of one inner chunk into
     * {@code destination} at {@code at}.
     *
     * @throws CorruptDataException naming the inner chunk and where it lies in the shard
     */
    void decodeInnerInto(ByteBuffer bytes, ShardLayout layout, ShardIndex index, int i, long[] inChunk,
                         NdArray destination, long[] at, long[] extent) {
        try {
            codecs.decodeInto(bytes, layout.innerSpec(), inChunk, destination, at, extent);
        } catch (CorruptDataException | IllegalArgumentException | IndexOutOfBoundsException | ArithmeticException e) {
            throw inInnerChunk(layout, index, i, e);
        }
    }

    /** Encodes one inner chunk, into memory from {@code allocate} when it is not null. */
    ByteBuffer encodeInner(NdArray chunk, ShardLayout layout, IntFunction<ByteBuffer> allocate) {
        return allocate == null ? codecs.encode(chunk, layout.innerSpec())
                : codecs.encode(chunk, layout.innerSpec(), allocate);
    }

    /** Whether the inner chain ends in a bytes→bytes codec, whose output never shares its input's memory. */
    boolean innerEndsInBytesToBytes() {
        List<Codec> c = codecs.codecs();
        return !c.isEmpty() && c.get(c.size() - 1) instanceof BytesToBytesCodec;
    }

    /** The error for an inner chunk, naming it and its bytes; a checksum mismatch stays one. */
    static CorruptDataException inInnerChunk(ShardLayout layout, ShardIndex index, int i, RuntimeException e) {
        String detail = e instanceof ZarrException z ? z.detail() : e.toString();
        String message = where(layout, index, i) + ": " + detail;
        if (e instanceof ChecksumMismatchException) {
            return new ChecksumMismatchException(message);
        }
        return new CorruptDataException(message, e);
    }

    private static String where(ShardLayout layout, ShardIndex index, int i) {
        return layout.describe(i) + " (bytes [" + index.offset(i) + ", " + (index.offset(i) + index.nbytes(i))
                + ") of the shard)";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ShardingCodec c && shardingConfiguration().equals(c.shardingConfiguration());
    }

    @Override
    public int hashCode() {
        return shardingConfiguration().hashCode();
    }

    @Override
    public String toString() {
        return "ShardingCodec" + configuration();
    }
}
