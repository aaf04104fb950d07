package dev.zarrj.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.codec.ArrayToArrayCodec;
import dev.zarrj.api.codec.ArrayToBytesCodec;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.codec.CodecConfiguration;
import dev.zarrj.api.codec.CodecProvider;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.format.MetadataFormat;
import dev.zarrj.api.store.Store;
import dev.zarrj.core.internal.format.ZarrV3Format;
import dev.zarrj.core.internal.hierarchy.ConsolidatedView;
import dev.zarrj.core.internal.hierarchy.NodePath;
import dev.zarrj.core.internal.metadata.ArrayMetadata;
import dev.zarrj.core.internal.metadata.Json;
import dev.zarrj.core.internal.pipeline.DefaultCodecChain;
import dev.zarrj.core.registry.ExtensionPoint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apiguardian.api.API;

/**
 * Builds a new array's metadata and creates the array. Defaults: chunks the size of the array,
 * the {@code default} key encoding with {@code /}, the {@code bytes} codec (little endian), the
 * data type's default fill value (recorded in the metadata, as the spec requires).
 *
 * <pre>{@code
 * ZarrArray a = zarr.array(DataTypes.INT16, 100, 100)
 *         .chunks(10, 10)
 *         .codec(GzipConfiguration.level(5))       // zarr-codec-gzip; placed after "bytes"
 *         .fillValue(-1)
 *         .dimensionNames("y", "x")
 *         .create(store, "/group/array");
 * }</pre>
 *
 * <h2>Codecs</h2>
 *
 * Codecs are given as typed {@link CodecConfiguration}s: {@link BytesConfiguration},
 * {@link TransposeConfiguration} and {@link Crc32cConfiguration} here, {@code GzipConfiguration},
 * {@code ZstdConfiguration}, {@code BloscConfiguration} and {@code ShardingConfiguration} in the
 * codec modules, and {@link CodecConfiguration#of(String, Map)} for a codec without one.
 * {@link #codec(CodecConfiguration)} adds one codec in its place in the default chain (array→array
 * codecs before the array→bytes codec, bytes→bytes codecs after it, in the order added);
 * {@link #codecs(CodecConfiguration...)} gives the whole chain in order. The JSON forms
 * ({@link #codecs(String)}, {@link #codecs(JsonNode)}, {@link #codec(String, Map)}) do the same.
 *
 * <h2>Shards</h2>
 *
 * {@link #shards(long...)} stores the array in shards, each holding many chunks, as zarr-python's
 * {@code create_array(shards=..., chunks=...)} does: {@code chunks} is the unit of reading and
 * writing, {@code shards} the unit of storage (one stored object each). The codecs given are those
 * of the chunks inside the shards.
 *
 * <pre>{@code
 * zarr.array(DataTypes.UINT16, 1024, 1024, 1024)
 *         .chunks(64, 64, 64)                      // read and written one by one
 *         .shards(256, 256, 256)                   // 64 chunks in each stored object
 *         .codec(ZstdConfiguration.level(1))
 *         .create(store, "/volume");
 * }</pre>
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public final class ArrayBuilder {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final Zarr zarr;
    private final DataType dataType;
    private final long[] shape;
    private long[] chunks;
    private JsonNode chunkGrid;
    private JsonNode keyEncoding;
    private ArrayNode codecs;
    private final List<ObjectNode> added = new ArrayList<>();
    private long[] shards;
    private JsonNode fillValue;
    private ObjectNode attributes;
    private List<String> dimensionNames;
    private ArrayNode storageTransformers;
    private boolean overwrite;
    private Integer zarrFormat;

    ArrayBuilder(Zarr zarr, DataType dataType, long[] shape) {
        this.zarr = zarr;
        this.dataType = dataType;
        this.shape = shape.clone();
        for (long d : shape) {
            if (d < 0) {
                throw new IllegalArgumentException("negative dimension in shape " + Arrays.toString(shape));
            }
        }
    }

    /**
     * Regular chunks of this shape: the unit of reading, writing and encoding. With
     * {@link #shards}, the chunks inside each shard.
     */
    public ArrayBuilder chunks(long... chunkShape) {
        this.chunks = chunkShape.clone();
        this.chunkGrid = null;
        return this;
    }

    /** Any chunk grid, as its metadata JSON (for grids from plugins). */
    public ArrayBuilder chunkGrid(JsonNode chunkGrid) {
        this.chunkGrid = chunkGrid.deepCopy();
        return this;
    }

    /** The key encoding: {@code "default"} or {@code "v2"} with separator {@code "/"} or {@code "."}. */
    public ArrayBuilder keyEncoding(String name, String separator) {
        ObjectNode n = F.objectNode().put("name", name);
        n.putObject("configuration").put("separator", separator);
        this.keyEncoding = n;
        return this;
    }

    /**
     * Stores the array in shards of this shape, each split into chunks of the shape given by
     * {@link #chunks} (by default one chunk per shard). Each shard is one stored object, encoded by
     * the {@code sharding_indexed} codec (zarr-codec-sharding): its chunks with the codecs given to
     * this builder (by default {@code bytes}), its index with {@code bytes} (little endian) and
     * {@code crc32c} at the end of the shard. The array's chunk grid is then the grid of shards.
     * For other index settings, give a {@code ShardingConfiguration} to {@link #codec} and the
     * shard shape to {@link #chunks} instead.
     *
     * <p>Reading or writing one chunk touches only its bytes in the shard (and the shard's index),
     * so chunks can be small while stored objects stay few and large.
     *
     * @param shardShape the shape of each shard, a multiple of the chunk shape in every dimension
     *                   (checked when the array is created)
     */
    public ArrayBuilder shards(long... shardShape) {
        this.shards = shardShape.clone();
        return this;
    }

    /**
     * The whole codec chain, in order: array→array codecs, one array→bytes codec, bytes→bytes
     * codecs. With {@link #shards}, the chain of the chunks inside each shard.
     *
     * <pre>{@code
     * .codecs(TransposeConfiguration.of(1, 0), BytesConfiguration.BIG_ENDIAN, Crc32cConfiguration.of())
     * }</pre>
     */
    public ArrayBuilder codecs(CodecConfiguration... codecs) {
        ArrayNode chain = F.arrayNode();
        for (CodecConfiguration c : codecs) {
            chain.add(Objects.requireNonNull(c, "codec").toJson());
        }
        this.codecs = chain;
        return this;
    }

    /**
     * Adds a codec to the default chain in its place: array→array codecs (such as
     * {@code transpose}) before the array→bytes codec, bytes→bytes codecs (such as {@code gzip})
     * after it, each kind in the order added; an array→bytes codec (such as {@code bytes} with
     * another byte order) replaces the default {@code bytes}. With {@link #shards}, a codec of the
     * chunks inside each shard.
     */
    public ArrayBuilder codec(CodecConfiguration codec) {
        added.add(Objects.requireNonNull(codec, "codec").toJson());
        return this;
    }

    /**
     * The whole codec chain as a JSON array (for metadata read from elsewhere); see
     * {@link #codecs(CodecConfiguration...)}.
     */
    public ArrayBuilder codecs(JsonNode codecs) {
        if (!codecs.isArray()) {
            throw new IllegalArgumentException("codecs must be a JSON array, got " + codecs);
        }
        this.codecs = (ArrayNode) codecs.deepCopy();
        return this;
    }

    /**
     * The whole codec chain as JSON text, for codecs known only by their metadata; see
     * {@link #codecs(CodecConfiguration...)}.
     */
    public ArrayBuilder codecs(String json) {
        try {
            return codecs(Json.MAPPER.readTree(json));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("codecs is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Adds a codec by name, with a configuration of JSON-compatible values (null for none), in its
     * place as {@link #codec(CodecConfiguration)} does.
     */
    public ArrayBuilder codec(String name, Map<String, ?> configuration) {
        ObjectNode c = F.objectNode().put("name", name);
        if (configuration != null && !configuration.isEmpty()) {
            c.set("configuration", Json.MAPPER.valueToTree(configuration));
        }
        added.add(c);
        return this;
    }

    /**
     * The chain made of the default bytes codec and the codecs added one by one, each in its place.
     * A codec that is not installed goes after the others; creating the array then fails naming it.
     */
    private ArrayNode chainOfAdded() {
        ArrayNode before = F.arrayNode();
        ArrayNode after = F.arrayNode();
        ObjectNode arrayToBytes = null;
        for (ObjectNode c : added) {
            String name = c.get("name").asText();
            Codec codec = zarr.registry().find(ExtensionPoint.CODEC, name, CodecProvider.class)
                    .map(p -> p.create(dev.zarrj.api.ExtensionConfig.of(name, c.get("configuration"),
                            "/codecs/configuration"), zarr.resolver()))
                    .orElse(null);
            if (codec instanceof ArrayToArrayCodec) {
                before.add(c);
            } else if (codec instanceof ArrayToBytesCodec) {
                if (arrayToBytes != null) {
                    throw new InvalidMetadataException("/codecs", "two array→bytes codecs were added, '"
                            + arrayToBytes.get("name").asText() + "' and '" + name + "'; a chain has exactly one");
                }
                arrayToBytes = c;
            } else {
                after.add(c);
            }
        }
        ArrayNode chain = F.arrayNode();
        chain.addAll(before);
        chain.add(arrayToBytes != null ? arrayToBytes : defaultBytesCodec());
        chain.addAll(after);
        return chain;
    }

    /** Appends a codec without configuration. */
    public ArrayBuilder codec(String name) {
        return codec(name, null);
    }

    /** The fill value in its metadata JSON form. */
    public ArrayBuilder fillValue(JsonNode value) {
        this.fillValue = value.deepCopy();
        return this;
    }

    /**
     * The fill value from a Java value: a {@link Number} (a non-finite {@code double} or
     * {@code float} becomes the spec's {@code "NaN"}, {@code "Infinity"} or {@code "-Infinity"}),
     * {@link Boolean}, a {@link String} ({@code "NaN"}, {@code "0x..."}, a string type's text), or a
     * {@link FillValue}.
     */
    public ArrayBuilder fillValue(Object value) {
        if (value instanceof FillValue f) {
            this.fillValue = dataType.fillValueToJson(f);
        } else if ((value instanceof Double || value instanceof Float) && !Double.isFinite(((Number) value).doubleValue())) {
            double d = ((Number) value).doubleValue();
            this.fillValue = F.textNode(Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
        } else if (value instanceof JsonNode j) {
            this.fillValue = j.deepCopy();
        } else {
            this.fillValue = Json.MAPPER.valueToTree(value);
        }
        return this;
    }

    /** The attributes. */
    public ArrayBuilder attributes(ObjectNode attributes) {
        this.attributes = attributes.deepCopy();
        return this;
    }

    /** The attributes, from a map of JSON-compatible values. */
    public ArrayBuilder attributes(Map<String, ?> attributes) {
        this.attributes = Json.MAPPER.valueToTree(attributes);
        return this;
    }

    /** One name per dimension (null for unnamed). */
    public ArrayBuilder dimensionNames(String... names) {
        this.dimensionNames = Arrays.asList(names.clone());
        return this;
    }

    /** The storage transformers as a JSON array. */
    public ArrayBuilder storageTransformers(JsonNode transformers) {
        this.storageTransformers = (ArrayNode) transformers.deepCopy();
        return this;
    }

    /**
     * Stores the array in the metadata format of this {@code zarr_format}: 3 (the default, or the
     * format of the group given to {@link #create(ZarrGroup, String)}), or 2 for Zarr v2's
     * {@code .zarray}/{@code .zattrs} (needs zarr-format-v2). For a format other than 3 the chunk
     * key encoding defaults to {@code v2} with separator {@code "."}; creating fails with an
     * {@link dev.zarrj.api.UnsupportedFormatException} naming what the format cannot express
     * (Zarr v2 has no sharding, no codecs after the compressor's place, ...).
     */
    @org.apiguardian.api.API(status = org.apiguardian.api.API.Status.EXPERIMENTAL, since = "0.1")
    public ArrayBuilder zarrFormat(int zarrFormat) {
        zarr.formats().of(zarrFormat); // refuses a format that is not installed now rather than at create
        this.zarrFormat = zarrFormat;
        return this;
    }

    /** Replace an existing array or group at the path (and erase its data) instead of failing. */
    public ArrayBuilder overwrite(boolean overwrite) {
        this.overwrite = overwrite;
        return this;
    }

    /**
     * The array→bytes codec used when none is given: the one the data type names
     * ({@code vlen-utf8} for {@code string}...), else {@code bytes}.
     */
    private ObjectNode defaultBytesCodec() {
        Optional<ObjectNode> own = dataType.arrayToBytesCodec();
        if (own.isPresent()) {
            return own.get().deepCopy();
        }
        ObjectNode c = F.objectNode().put("name", "bytes");
        if (dataType.byteOrderUnit() > 1) {
            c.putObject("configuration").put("endian", "little");
        }
        return c;
    }

    /**
     * The metadata document this builder describes, validated, with codec defaults resolved.
     *
     * @throws InvalidMetadataException when it is not valid
     */
    public ObjectNode toMetadata() {
        return toMetadata(zarrFormat != null ? zarr.formats().of(zarrFormat) : ZarrV3Format.INSTANCE);
    }

    private ObjectNode toMetadata(MetadataFormat format) {
        ObjectNode doc = F.objectNode();
        doc.put("zarr_format", 3);
        doc.put("node_type", "array");
        ArrayNode s = doc.putArray("shape");
        for (long d : shape) {
            s.add(d);
        }
        doc.set("data_type", dataType.toJson());
        if (shards != null && chunkGrid != null) {
            throw new IllegalArgumentException("shards(...) makes a regular grid of shards; it cannot be combined with"
                    + " chunkGrid(...)");
        }
        if (chunkGrid != null) {
            doc.set("chunk_grid", chunkGrid);
        } else {
            ObjectNode g = doc.putObject("chunk_grid").put("name", "regular");
            ArrayNode cs = g.putObject("configuration").putArray("chunk_shape");
            long[] c = shards != null ? shards : chunks != null ? chunks : defaultChunks();
            for (long d : c) {
                cs.add(d);
            }
        }
        if (keyEncoding != null) {
            doc.set("chunk_key_encoding", keyEncoding);
        } else if (format == ZarrV3Format.INSTANCE) {
            doc.putObject("chunk_key_encoding").put("name", "default").putObject("configuration").put("separator", "/");
        } else {
            // Formats before v3 name chunks by their coordinates joined with '.'.
            doc.putObject("chunk_key_encoding").put("name", "v2").putObject("configuration").put("separator", ".");
        }
        doc.set("fill_value", fillValue != null ? fillValue : dataType.fillValueToJson(dataType.defaultFillValue()));
        if (codecs != null && !added.isEmpty()) {
            throw new IllegalArgumentException("give the whole chain with codecs(...) or add codecs one by one, not both");
        }
        ArrayNode c = codecs != null ? codecs.deepCopy() : chainOfAdded();
        doc.set("codecs", shards != null ? shardingChain(c) : c);
        if (attributes != null) {
            doc.set("attributes", attributes);
        }
        if (dimensionNames != null) {
            ArrayNode dn = doc.putArray("dimension_names");
            dimensionNames.forEach(dn::add);
        }
        if (storageTransformers != null) {
            doc.set("storage_transformers", storageTransformers);
        }
        ArrayMetadata meta = ArrayMetadata.parse(doc, zarr.resolver());
        ObjectNode canonical = meta.document().deepCopy(); // legacy forms given to the builder are not written
        resolveCodecDefaults(canonical, meta);
        return canonical;
    }

    /**
     * Writes every codec in its canonical form, with the defaults that depend on the data type
     * filled in (for example blosc's typesize), so that new metadata records every setting.
     */
    private void resolveCodecDefaults(ObjectNode doc, ArrayMetadata meta) {
        DefaultCodecChain chain = meta.codecs();
        if (!chain.skipped().isEmpty()) {
            return;
        }
        ChunkSpec spec = meta.chunkSpec(new long[meta.rank()]);
        ArrayNode out = F.arrayNode();
        for (Codec c : chain.codecs()) {
            out.add(c.resolveDefaults(spec).toJson());
            if (c instanceof dev.zarrj.api.codec.ArrayToArrayCodec a) {
                spec = a.encodedSpec(spec);
            }
        }
        doc.set("codecs", out);
    }

    /** The chain of one {@code sharding_indexed} codec whose chunks run {@code inner}. */
    private ArrayNode shardingChain(ArrayNode inner) {
        long[] innerShape = chunks != null ? chunks : shards;
        checkShards(innerShape);
        ObjectNode sharding = F.objectNode().put("name", "sharding_indexed");
        ObjectNode conf = sharding.putObject("configuration");
        ArrayNode cs = conf.putArray("chunk_shape");
        for (long d : innerShape) {
            cs.add(d);
        }
        conf.set("codecs", inner);
        ArrayNode index = conf.putArray("index_codecs");
        index.add(BytesConfiguration.LITTLE_ENDIAN.toJson());
        index.add(Crc32cConfiguration.of().toJson());
        conf.put("index_location", "end");
        return F.arrayNode().add(sharding);
    }

    private void checkShards(long[] innerShape) {
        String pointer = "/chunk_grid/configuration/chunk_shape";
        if (shards.length != shape.length) {
            throw new InvalidMetadataException(pointer, "the shard shape " + Arrays.toString(shards) + " has "
                    + shards.length + " dimensions, the array " + Arrays.toString(shape) + " has " + shape.length);
        }
        if (innerShape.length != shards.length) {
            throw new InvalidMetadataException(pointer, "the chunk shape " + Arrays.toString(innerShape) + " has "
                    + innerShape.length + " dimensions, the shard shape " + Arrays.toString(shards) + " has "
                    + shards.length);
        }
        for (int d = 0; d < shards.length; d++) {
            if (shards[d] < 1 || innerShape[d] < 1) {
                throw new InvalidMetadataException(pointer + "/" + d, "shard and chunk lengths must be positive, found"
                        + " shards " + Arrays.toString(shards) + " and chunks " + Arrays.toString(innerShape));
            }
            if (shards[d] % innerShape[d] != 0) {
                throw new InvalidMetadataException(pointer + "/" + d, "the shard shape " + Arrays.toString(shards)
                        + " is not a multiple of the chunk shape " + Arrays.toString(innerShape) + " (dimension " + d
                        + ": " + shards[d] + " is not a multiple of " + innerShape[d] + "); each shard holds whole"
                        + " chunks");
            }
        }
    }

    private long[] defaultChunks() {
        long[] c = new long[shape.length];
        for (int d = 0; d < c.length; d++) {
            c[d] = Math.max(1, shape[d]);
        }
        return c;
    }

    /**
     * Creates the array at a path of a store (and any missing ancestor groups).
     *
     * <p>Without {@link #overwrite}, on a store that offers conditional writes
     * ({@link Store#conditionalWrites()}), the metadata is written only if absent, so that of
     * several processes creating one array at once exactly one succeeds.
     *
     * @throws InvalidMetadataException when the metadata is invalid, or a node exists there and
     *                                  {@link #overwrite} is not set
     */
    public ZarrArray create(Store store, String path) {
        return create(store, path, StoreOwner.NONE);
    }

    /**
     * Creates the array at a path (and any missing ancestor groups) in the store at a location, as
     * {@link Zarr#openStore(String)} names it. The array owns the store: close the array to close
     * it, best with try-with-resources; a zip archive is written then, and only then.
     *
     * <pre>{@code
     * try (ZarrArray a = zarr.array(DataTypes.FLOAT32, 100, 100).create("data/set.zip", "/a")) {
     *     a.write(new long[] {0, 0}, new long[] {100, 100}, values);
     * }
     * }</pre>
     *
     * @throws dev.zarrj.api.StoreException when the store cannot be opened
     * @throws InvalidMetadataException      as {@link #create(Store, String)} (the store is closed again)
     */
    public ZarrArray create(String location, String path) {
        return zarr.withOwnedStore(location, false, (store, owner) -> create(store, path, owner));
    }

    /**
     * {@link #create(Store, String)} on the {@link Zarr}'s executor: the settings are taken now
     * (changing this builder afterwards does not affect it), the metadata written there. The
     * future completes with the array, or exceptionally with the exception {@code create} throws
     * (not wrapped). Cancelling it does not undo a creation already under way.
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public CompletableFuture<ZarrArray> createAsync(Store store, String path) {
        MetadataFormat format;
        ObjectNode doc;
        try {
            format = zarrFormat != null ? zarr.formats().of(zarrFormat) : ZarrV3Format.INSTANCE;
            doc = toMetadata(format);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        boolean replace = overwrite;
        return zarr.async(() -> zarr.createArray(store, NodePath.normalize(path), doc, replace, format,
                StoreOwner.NONE, null));
    }

    private ZarrArray create(Store store, String path, StoreOwner owner) {
        return create(store, path, owner, null);
    }

    private ZarrArray create(Store store, String path, StoreOwner owner, ConsolidatedView view) {
        return create(store, path, owner, view, null);
    }

    /** Creates the array; {@code inherited}, when not null, is the format of the group it is created in. */
    private ZarrArray create(Store store, String path, StoreOwner owner, ConsolidatedView view,
                             MetadataFormat inherited) {
        MetadataFormat format = zarrFormat != null ? zarr.formats().of(zarrFormat)
                : inherited != null ? inherited : ZarrV3Format.INSTANCE;
        return zarr.createArray(store, NodePath.normalize(path), toMetadata(format), overwrite, format, owner, view);
    }

    /** Creates the array as a child of a group; it shares the group's store and does not own it. */
    public ZarrArray create(ZarrGroup parent, String name) {
        return create(parent.store(), NodePath.child(NodePath.normalize(parent.path()), name), StoreOwner.NONE,
                parent.view(), parent.format());
    }
}
