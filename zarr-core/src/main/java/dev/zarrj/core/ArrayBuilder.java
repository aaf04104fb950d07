package dev.zarrj.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.ChunkSpec;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.codec.Codec;
import dev.zarrj.api.datatype.DataType;
import dev.zarrj.api.datatype.FillValue;
import dev.zarrj.api.store.Store;
import dev.zarrj.api.store.StoreKey;
import dev.zarrj.core.internal.hierarchy.NodePath;
import dev.zarrj.core.internal.metadata.ArrayMetadata;
import dev.zarrj.core.internal.metadata.Json;
import dev.zarrj.core.internal.pipeline.DefaultCodecChain;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Builds a new array's metadata and creates the array. Defaults: chunks the size of the array,
 * the {@code default} key encoding with {@code /}, the {@code bytes} codec (little endian), the
 * data type's default fill value (recorded in the metadata, as the spec requires).
 *
 * <pre>{@code
 * ZarrArray a = zarr.array(DataTypes.INT16, 100, 100)
 *         .chunks(10, 10)
 *         .codec("gzip", Map.of("level", 5))
 *         .fillValue(-1)
 *         .dimensionNames("y", "x")
 *         .create(store, "/group/array");
 * }</pre>
 */
public final class ArrayBuilder {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final Zarr zarr;
    private final DataType dataType;
    private final long[] shape;
    private long[] chunks;
    private JsonNode chunkGrid;
    private JsonNode keyEncoding;
    private ArrayNode codecs;
    private final java.util.List<ObjectNode> added = new java.util.ArrayList<>();
    private JsonNode fillValue;
    private ObjectNode attributes;
    private List<String> dimensionNames;
    private ArrayNode storageTransformers;
    private boolean overwrite;

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

    /** Regular chunks of this shape. */
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

    /** The whole codec chain as a JSON array. */
    public ArrayBuilder codecs(JsonNode codecs) {
        if (!codecs.isArray()) {
            throw new IllegalArgumentException("codecs must be a JSON array, got " + codecs);
        }
        this.codecs = (ArrayNode) codecs.deepCopy();
        return this;
    }

    /** The whole codec chain as JSON text. */
    public ArrayBuilder codecs(String json) {
        try {
            return codecs(Json.MAPPER.readTree(json));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("codecs is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Adds a codec to the default chain: array→array codecs (such as {@code transpose}) go before
     * the array→bytes codec, bytes→bytes codecs (such as {@code gzip}) after it, and an
     * array→bytes codec (such as {@code sharding_indexed}) replaces the default {@code bytes}.
     * Use {@link #codecs(JsonNode)} to give the whole chain instead.
     */
    public ArrayBuilder codec(String name, Map<String, ?> configuration) {
        ObjectNode c = F.objectNode().put("name", name);
        if (configuration != null && !configuration.isEmpty()) {
            c.set("configuration", Json.MAPPER.valueToTree(configuration));
        }
        added.add(c);
        return this;
    }

    /** The chain made of the default bytes codec and the codecs added one by one, each in its place. */
    private ArrayNode chainOfAdded() {
        ArrayNode before = F.arrayNode();
        ArrayNode after = F.arrayNode();
        ObjectNode arrayToBytes = null;
        for (ObjectNode c : added) {
            dev.zarrj.api.codec.Codec codec = zarr.registry()
                    .find(dev.zarrj.core.registry.ExtensionPoint.CODEC, c.get("name").asText(),
                            dev.zarrj.api.codec.CodecProvider.class)
                    .map(p -> p.create(dev.zarrj.api.ExtensionConfig.of(c.get("name").asText(), c.get("configuration"),
                            "/codecs/configuration"), zarr.resolver()))
                    .orElse(null);
            if (codec instanceof dev.zarrj.api.codec.ArrayToArrayCodec) {
                before.add(c);
            } else if (codec instanceof dev.zarrj.api.codec.ArrayToBytesCodec) {
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
     * The fill value from a Java value: a {@link Number}, {@link Boolean}, a {@link String}
     * ({@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}, {@code "0x..."}), or a {@link FillValue}.
     */
    public ArrayBuilder fillValue(Object value) {
        if (value instanceof FillValue f) {
            this.fillValue = dataType.fillValueToJson(f);
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

    /** Replace an existing array or group at the path (and erase its data) instead of failing. */
    public ArrayBuilder overwrite(boolean overwrite) {
        this.overwrite = overwrite;
        return this;
    }

    private ObjectNode defaultBytesCodec() {
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
        ObjectNode doc = F.objectNode();
        doc.put("zarr_format", 3);
        doc.put("node_type", "array");
        ArrayNode s = doc.putArray("shape");
        for (long d : shape) {
            s.add(d);
        }
        doc.set("data_type", dataType.toJson());
        if (chunkGrid != null) {
            doc.set("chunk_grid", chunkGrid);
        } else {
            ObjectNode g = doc.putObject("chunk_grid").put("name", "regular");
            ArrayNode cs = g.putObject("configuration").putArray("chunk_shape");
            long[] c = chunks != null ? chunks : defaultChunks();
            for (long d : c) {
                cs.add(d);
            }
        }
        if (keyEncoding != null) {
            doc.set("chunk_key_encoding", keyEncoding);
        } else {
            doc.putObject("chunk_key_encoding").put("name", "default").putObject("configuration").put("separator", "/");
        }
        doc.set("fill_value", fillValue != null ? fillValue : dataType.fillValueToJson(dataType.defaultFillValue()));
        if (codecs != null && !added.isEmpty()) {
            throw new IllegalArgumentException("give the whole chain with codecs(...) or add codecs one by one, not both");
        }
        ArrayNode c = codecs != null ? codecs.deepCopy() : chainOfAdded();
        doc.set("codecs", c);
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
        resolveCodecDefaults(doc, meta);
        return doc;
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
     * @throws InvalidMetadataException when the metadata is invalid, or a node exists there and
     *                                  {@link #overwrite} is not set
     */
    public ZarrArray create(Store store, String path) {
        String p = NodePath.normalize(path);
        ObjectNode doc = toMetadata();
        StoreKey key = NodePath.metadataKey(p);
        if (store.exists(key)) {
            if (!overwrite) {
                throw new InvalidMetadataException("", "a node already exists at '" + NodePath.display(p) + "' in "
                        + store.describe() + "; use overwrite(true) to replace it");
            }
            zarr.erase(store, p);
        }
        zarr.ensureAncestors(store, p);
        store.set(key, Json.write(doc));
        return new ZarrArray(zarr, store, p, ArrayMetadata.parse(doc, zarr.resolver()));
    }

    /** Creates the array as a child of a group. */
    public ZarrArray create(ZarrGroup parent, String name) {
        return create(parent.store(), NodePath.child(NodePath.normalize(parent.path()), name));
    }
}
