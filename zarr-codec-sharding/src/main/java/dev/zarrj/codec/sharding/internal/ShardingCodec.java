package dev.zarrj.codec.sharding.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ByteSource;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.EncodedSize;
import dev.zarrj.api.NdArray;
import dev.zarrj.api.ProviderContext;
import dev.zarrj.api.Region;
import dev.zarrj.api.TaskRunner;
import dev.zarrj.api.ZarrException;
import dev.zarrj.api.codec.ArrayPartialDecoder;
import dev.zarrj.api.codec.ArrayPartialEncoder;
import dev.zarrj.api.codec.ArrayRegionEncoder;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.BufferLender;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecChain;
import dev.zarrj.codec.sharding.IndexLocation;
import dev.zarrj.codec.sharding.ShardingConfiguration;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

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
 * for {@code "end"}), then one {@link ByteSource#readAllLent} of the inner chunks it touches, whose
 * ranges the source merges where they are close, so a single inner chunk or a run of neighbouring
 * ones costs two requests. A large inner chunk touched in part whose codecs decode
 * partially (a nested shard, with or without a {@code transpose} in front) is read partially through
 * {@link ByteSource#slice}; see {@link ShardReader}. Region encoding: supported (each inner chunk
 * is gathered straight from the caller's array). Partial encoding: supported (only the inner
 * chunks a block touches are re-encoded; the others' bytes are copied). Inner chunks are decoded
 * and encoded in parallel on the {@link ProviderContext#tasks()} of the zarrj instance that
 * created the codec, within its thread budget.
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
        codecs.checkSupported(layout.innerSpec());
        indexCodecs.checkSupported(layout.indexSpec());
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
        return encode(array, decoded, BufferLender.allocating());
    }

    /** Encodes the inner chunks, and assembles the shard, in memory from {@code lender}. */
    @Override
    public ByteBuffer encode(NdArray array, ChunkSpec decoded, BufferLender lender) {
        ShardLayout layout = layout(decoded);
        if (!Arrays.equals(array.shape(), layout.shardShape())) {
            throw new IllegalArgumentException(NAME + ": an array of shape " + Arrays.toString(array.shape())
                    + " does not match " + decoded);
        }
        return ShardWriter.encode(this, layout, array, new long[layout.rank()], Objects.requireNonNull(lender, "lender"));
    }

    /**
     * Gathers each inner chunk straight from the source, so the shard is never copied whole, into
     * memory from the lender, where the inner chunks and the shard are also encoded.
     */
    @Override
    public Optional<ArrayRegionEncoder> regionEncoder(ChunkSpec decoded) {
        ShardLayout layout = layout(decoded);
        long[] shape = layout.shardShape();
        return Optional.of((source, region, lender) -> {
            if (!Arrays.equals(region.shape(), shape) || !region.isWithin(source.shape())
                    || source.dataType().size() != decoded.dataType().size()) {
                throw new IllegalArgumentException(NAME + ": the shard " + decoded + " at " + region
                        + " does not lie inside " + source);
            }
            return ShardWriter.encode(this, layout, source, region.offset(), Objects.requireNonNull(lender, "lender"));
        });
    }

    /** Decodes a whole shard: its index, then every present inner chunk in parallel. */
    @Override
    public NdArray decode(ByteBuffer encoded, ChunkSpec decoded) {
        ShardLayout layout = layout(decoded);
        NdArray out = NdArray.filled(decoded.dataType(), decoded.fillValue(), layout.shardShape());
        ShardReader.inMemory(this, layout, encoded).decodeInto(Region.whole(layout.shardShape()), out,
                new long[layout.rank()], true);
        return out;
    }

    /**
     * Decodes each inner chunk the region touches straight into the destination, in parallel;
     * the parts of absent inner chunks get the fill value.
     */
    @Override
    public void decodeInto(ByteBuffer encoded, ChunkSpec decoded, Region region, NdArray destination,
                           long[] destinationOffset) {
        ShardLayout layout = layout(decoded);
        layout.checkRegion(region);
        ShardReader.inMemory(this, layout, encoded).decodeInto(region, destination, destinationOffset, false);
    }

    /** Reads the index, then only the inner chunks each region touches; see {@link ShardReader}. */
    @Override
    public Optional<ArrayPartialDecoder> partialDecoder(ByteSource input, ChunkSpec decoded) {
        return Optional.of(new ShardPartialDecoder(this, layout(decoded), input));
    }

    /** Re-encodes only the inner chunks a block touches and copies the others' bytes; see {@link ShardWriter}. */
    @Override
    public Optional<ArrayPartialEncoder> partialEncoder(ChunkSpec decoded) {
        ShardLayout layout = layout(decoded);
        return Optional.of((existing, values, at) -> ShardWriter.encodePartial(this, layout, existing, values, at));
    }

    /** Where the inner chunks of one shard run in parallel. */
    TaskRunner tasks() {
        return context.tasks();
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
