package dev.zarrj.codec.sharding;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrj.api.InvalidMetadataException;
import dev.zarrj.api.codec.CodecConfiguration;
import java.util.Arrays;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The configuration of the {@code sharding_indexed} codec: the inner chunk shape, the inner
 * chunks' codecs, the index's codecs and where the index sits.
 *
 * <p>The array builder's {@code shards(...)} builds this codec for the common case (inner chunks
 * from {@code chunks(...)}, the index at the end with {@code bytes} and {@code crc32c}). Build it
 * yourself for anything else, and give it to the builder as the array→bytes codec, whose chunk
 * shape is then the shard shape; the codec chains are checked by the registry when the array is
 * created:
 *
 * <pre>{@code
 * zarr.array(DataTypes.UINT16, 1024, 1024).chunks(256, 256)              // the shard shape
 *         .codec(ShardingConfiguration.of(32, 32)                         // the inner chunk shape
 *                 .withCodecs(BytesConfiguration.LITTLE_ENDIAN, ZstdConfiguration.level(3))
 *                 .withIndexLocation(IndexLocation.START))                // default: END
 *         .create(store, "/image");
 * }</pre>
 *
 * <p>Immutable: accessors return copies.
 *
 * @param chunkShape    the inner chunk shape, one positive length per dimension of the shard
 * @param codecs        the inner chunks' codec chain, a JSON array
 * @param indexCodecs   the index's codec chain, a JSON array whose encoded size is fixed
 * @param indexLocation where the index is stored
 * @see <a href="https://zarr-specs.readthedocs.io/en/latest/v3/codecs/sharding-indexed/">sharding codec spec</a>
 *
 * @since 0.1
 */
@API(status = STABLE, since = "0.1")
public record ShardingConfiguration(long[] chunkShape, JsonNode codecs, JsonNode indexCodecs,
                                    IndexLocation indexLocation) implements CodecConfiguration {
    /** The codec's registered name. */
    public static final String NAME = "sharding_indexed";

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /**
     * @throws InvalidMetadataException when an inner chunk length is not positive or a codec chain
     *                                  is not a JSON array
     */
    public ShardingConfiguration {
        Objects.requireNonNull(chunkShape, "chunkShape");
        Objects.requireNonNull(indexLocation, "indexLocation");
        chunkShape = chunkShape.clone();
        for (int d = 0; d < chunkShape.length; d++) {
            if (chunkShape[d] < 1) {
                throw new InvalidMetadataException("/configuration/chunk_shape/" + d, NAME
                        + ": inner chunk lengths must be positive, found " + Arrays.toString(chunkShape));
            }
        }
        codecs = requireArray(codecs, "codecs");
        indexCodecs = requireArray(indexCodecs, "index_codecs");
    }

    private static JsonNode requireArray(JsonNode chain, String field) {
        if (chain == null || !chain.isArray()) {
            throw new InvalidMetadataException("/configuration/" + field, NAME + ": '" + field
                    + "' must be a JSON array of codecs, found " + chain);
        }
        return chain.deepCopy();
    }

    /**
     * Inner chunks of this shape stored with the {@code bytes} codec (little endian), and the index
     * with {@code bytes} (little endian) and {@code crc32c} at the end of the shard, as the spec
     * recommends.
     */
    public static ShardingConfiguration of(long... chunkShape) {
        ArrayNode index = F.arrayNode();
        index.add(littleEndianBytes());
        index.add(F.objectNode().put("name", "crc32c"));
        return new ShardingConfiguration(chunkShape, F.arrayNode().add(littleEndianBytes()), index, IndexLocation.END);
    }

    private static ObjectNode littleEndianBytes() {
        ObjectNode bytes = F.objectNode().put("name", "bytes");
        bytes.putObject("configuration").put("endian", "little");
        return bytes;
    }

    /** The same configuration with another inner codec chain, as metadata JSON. */
    public ShardingConfiguration withCodecs(JsonNode codecs) {
        return new ShardingConfiguration(chunkShape, codecs, indexCodecs, indexLocation);
    }

    /**
     * The same configuration with another inner codec chain, complete and in order (for example
     * {@code bytes} then {@code zstd}).
     */
    public ShardingConfiguration withCodecs(CodecConfiguration... codecs) {
        return withCodecs(chain(codecs));
    }

    /** The same configuration with another index codec chain, as metadata JSON. */
    public ShardingConfiguration withIndexCodecs(JsonNode indexCodecs) {
        return new ShardingConfiguration(chunkShape, codecs, indexCodecs, indexLocation);
    }

    /** The same configuration with another index codec chain, complete and in order. */
    public ShardingConfiguration withIndexCodecs(CodecConfiguration... indexCodecs) {
        return withIndexCodecs(chain(indexCodecs));
    }

    private static ArrayNode chain(CodecConfiguration... codecs) {
        ArrayNode chain = F.arrayNode();
        for (CodecConfiguration c : codecs) {
            chain.add(Objects.requireNonNull(c, "codec").toJson());
        }
        return chain;
    }

    /** The same configuration with the index at another location. */
    public ShardingConfiguration withIndexLocation(IndexLocation indexLocation) {
        return new ShardingConfiguration(chunkShape, codecs, indexCodecs, indexLocation);
    }

    /** A copy of the inner chunk shape. */
    @Override
    public long[] chunkShape() {
        return chunkShape.clone();
    }

    /** A copy of the inner codec chain. */
    @Override
    public JsonNode codecs() {
        return codecs.deepCopy();
    }

    /** A copy of the index codec chain. */
    @Override
    public JsonNode indexCodecs() {
        return indexCodecs.deepCopy();
    }

    /** The codec's registered name, {@value #NAME}. */
    @Override
    public String name() {
        return NAME;
    }

    /**
     * The {@code configuration} object, every field written (including {@code index_location});
     * a fresh node owned by the caller.
     */
    @Override
    public ObjectNode configurationJson() {
        ObjectNode node = F.objectNode();
        ArrayNode shape = node.putArray("chunk_shape");
        for (long s : chunkShape) {
            // As an int when it fits, so that the node equals one parsed from the same text.
            if (s <= Integer.MAX_VALUE) {
                shape.add((int) s);
            } else {
                shape.add(s);
            }
        }
        node.set("codecs", codecs.deepCopy());
        node.set("index_codecs", indexCodecs.deepCopy());
        node.put("index_location", indexLocation.json());
        return node;
    }

    /** The codec entry for an array's {@code codecs}; a fresh node owned by the caller. */
    @Override
    public ObjectNode toJson() {
        ObjectNode node = F.objectNode().put("name", NAME);
        node.set("configuration", configurationJson());
        return node;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ShardingConfiguration c && Arrays.equals(chunkShape, c.chunkShape)
                && codecs.equals(c.codecs) && indexCodecs.equals(c.indexCodecs) && indexLocation == c.indexLocation;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(chunkShape), codecs, indexCodecs, indexLocation);
    }

    @Override
    public String toString() {
        return NAME + configurationJson();
    }
}
